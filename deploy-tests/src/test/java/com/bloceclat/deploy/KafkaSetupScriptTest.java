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

    record Run(int exit, String out, List<String> calls) {
    }

    /** kafka-setup.sh against the stand-ins; a {@code --remove} naming {@code refusedRemoval} fails when not null. */
    private Run setup(String refusedRemoval) throws Exception {
        Path calls = bin.resolve("calls.log");
        Files.writeString(bin.resolve("listed.txt"), LISTED);
        // each tool: one line a call (its name and arguments); kafka-acls.sh --list prints the listing above,
        // kafka-topics.sh --describe a topic with its partitions already
        String tool = """
                #!/usr/bin/env bash
                echo "$(basename "$0") $*" >> "%s"
                case "$(basename "$0") $*" in
                  *kafka-acls.sh*--remove*%s*) echo "Error while executing ACL command" >&2; exit 1 ;;
                  *kafka-acls.sh*--list*) cat "%s" ;;
                  *kafka-topics.sh*--describe*) printf 'Topic: t\\tTopicId: x\\tPartitionCount: 6\\tReplicationFactor: 1\\n' ;;
                esac
                """.formatted(calls, refusedRemoval == null ? "no-such-principal-anywhere" : refusedRemoval,
                bin.resolve("listed.txt"));
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
        return new Run(p.exitValue(), Files.readString(log), Files.readAllLines(calls));
    }

    @Test
    void theListedAclsAreAddedAndEveryOtherOneRemoved() throws Exception {
        Run run = setup(null);
        String out = run.out();
        assertEquals(0, run.exit(), out);

        List<String> removes = run.calls().stream().filter(l -> l.contains(" --remove ")).toList();
        assertEquals(2, removes.size(), "the two grants no line allows, and only those (not the DENY): " + removes);
        assertTrue(removes.get(0).endsWith("--remove --force --allow-principal User:leaderboard-service --allow-host * "
                + "--operation Write --topic bloc-canary --resource-pattern-type literal"), removes.get(0));
        assertTrue(removes.get(1).endsWith("--remove --force --allow-principal User:old-service --allow-host * "
                + "--operation DescribeConfigs --group old --resource-pattern-type prefixed"), removes.get(1));
        assertTrue(out.contains("2 removed, 0 not removed"), out);
        assertTrue(out.indexOf("SCRAM-SHA-512 user") < out.indexOf("removed ALLOW"), "the passwords are set first: " + out);
        long adds = run.calls().stream().filter(l -> l.contains("kafka-acls.sh") && l.contains(" --add ")).count();
        assertEquals(KafkaAccessTest.ACCESS.allows().size(), adds, "one --add a line of access.conf");
    }

    /**
     * docs/platform.md: a grant the set-up fails to remove is reported and the set-up still succeeds (the grants it
     * must add are added, and a stale one is no reason to keep the services from starting); the next grant is still
     * removed.
     */
    @Test
    void aGrantThatCannotBeRemovedIsReportedAndTheSetUpGoesOn() throws Exception {
        Run run = setup("User:leaderboard-service");
        String out = run.out();
        assertEquals(0, run.exit(), out);
        assertTrue(out.contains("kafka-setup: WARNING: could not remove ALLOW User:leaderboard-service WRITE on TOPIC "
                + "LITERAL bloc-canary, which no line allows"), out);
        assertTrue(out.contains("removed ALLOW User:old-service DESCRIBE_CONFIGS on GROUP PREFIXED old"), out);
        assertTrue(out.contains("1 removed, 1 not removed"), out);
    }
}
