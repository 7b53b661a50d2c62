package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * platform/kafka/kafka-setup.sh, as docker compose and the k8s Job run it, against stand-ins for the image's CLI tools
 * that record every call and list the broker's ACLs in the tools' own format: the ACLs access.conf lists are added,
 * the users' passwords set, and then every other grant the broker holds (one an older access.conf made, one of a user
 * no line names any more) is removed, and only those: a DENY stays. (The local stack's KafkaSetup.java does the same against a real broker: e2e 05-platform-security.)
 */
class KafkaSetupScriptTest {

    /**
     * What kafka-acls.sh --list prints (Kafka 4.1's AclCommand): listed grants, two that no line allows, and an
     * operator's DENY (left alone: it only narrows what is allowed).
     */
    private static final String LISTED = """
            Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=game-finished, patternType=LITERAL)`:\s
             \t(principal=User:game-service, host=*, operation=WRITE, permissionType=ALLOW)
             \t(principal=User:game-service, host=*, operation=CREATE, permissionType=ALLOW)
             \t(principal=User:leaderboard-service, host=*, operation=READ, permissionType=ALLOW)\s

            Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=bloc-canary, patternType=LITERAL)`:\s
             \t(principal=User:game-service, host=*, operation=WRITE, permissionType=ALLOW)
             \t(principal=User:leaderboard-service, host=*, operation=WRITE, permissionType=ALLOW)\s

            Current ACLs for resource `ResourcePattern(resourceType=GROUP, name=leaderboard-service, patternType=PREFIXED)`:\s
             \t(principal=User:leaderboard-service, host=*, operation=READ, permissionType=ALLOW)\s

            Current ACLs for resource `ResourcePattern(resourceType=GROUP, name=old, patternType=PREFIXED)`:\s
             \t(principal=User:old-service, host=*, operation=DESCRIBE_CONFIGS, permissionType=ALLOW)\s

            Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=game-events, patternType=LITERAL)`:\s
             \t(principal=User:game-service, host=10.0.0.9, operation=WRITE, permissionType=DENY)\s
            """;

    @TempDir
    Path bin;

    @Test
    void theListedAclsAreAddedAndEveryOtherOneRemoved() throws Exception {
        Path calls = bin.resolve("calls.log");
        Files.writeString(bin.resolve("listed.txt"), LISTED);
        // each tool: one line a call (its name and arguments); kafka-acls.sh --list prints the listing above,
        // kafka-topics.sh --describe a topic with its partitions already
        String tool = """
                #!/usr/bin/env bash
                echo "$(basename "$0") $*" >> "%s"
                case "$(basename "$0") $*" in
                  *kafka-acls.sh*--list*) cat "%s" ;;
                  *kafka-topics.sh*--describe*) printf 'Topic: t\\tTopicId: x\\tPartitionCount: 6\\tReplicationFactor: 1\\n' ;;
                esac
                """.formatted(calls, bin.resolve("listed.txt"));
        for (String name : List.of("kafka-topics.sh", "kafka-acls.sh", "kafka-configs.sh")) {
            Path script = bin.resolve(name);
            Files.writeString(script, tool);
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        }
        ProcessBuilder pb = new ProcessBuilder("bash", "platform/kafka/kafka-setup.sh")
                .directory(ServiceModule.ROOT.toFile()).redirectErrorStream(true);
        pb.environment().putAll(java.util.Map.of("KAFKA_BIN", bin.toString(), "KAFKA_BOOTSTRAP", "broker:9092",
                "KAFKA_ADMIN_PASSWORD", "a", "KAFKA_GAME_SERVICE_PASSWORD", "g",
                "KAFKA_LEADERBOARD_SERVICE_PASSWORD", "l"));
        Path log = bin.resolve("out.log");
        Process p = pb.redirectOutput(log.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kafka-setup.sh did not end in 60 s: " + Files.readString(log));
        }
        String out = Files.readString(log);
        assertEquals(0, p.exitValue(), out);

        List<String> removes = Files.readAllLines(calls).stream().filter(l -> l.contains(" --remove ")).toList();
        assertEquals(2, removes.size(), "the two grants no line allows, and only those (not the DENY): " + removes);
        assertTrue(removes.get(0).endsWith("--remove --force --allow-principal User:leaderboard-service --allow-host * "
                + "--operation Write --topic bloc-canary --resource-pattern-type literal"), removes.get(0));
        assertTrue(removes.get(1).endsWith("--remove --force --allow-principal User:old-service --allow-host * "
                + "--operation DescribeConfigs --group old --resource-pattern-type prefixed"), removes.get(1));
        assertTrue(out.contains("2 removed, 0 not removed"), out);
        assertTrue(out.indexOf("SCRAM-SHA-512 user") < out.indexOf("removed ALLOW"), "the passwords are set first: " + out);
        long adds = Files.readAllLines(calls).stream().filter(l -> l.contains("kafka-acls.sh") && l.contains(" --add "))
                .count();
        assertEquals(KafkaAccessTest.ACCESS.allows().size(), adds, "one --add a line of access.conf");
    }
}
