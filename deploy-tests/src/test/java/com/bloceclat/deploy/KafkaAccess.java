package com.bloceclat.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * platform/kafka/access.conf: the topics with their partitions and the ACLs that the local stack, docker compose
 * and k8s apply to their broker (KafkaSetup.java, kafka-setup.sh).
 */
record KafkaAccess(Map<String, Integer> topics, List<Allow> allows) {

    static final Path FILE = ServiceModule.ROOT.resolve("platform/kafka/access.conf");

    /** One allow line: USER OPERATIONS topic|group literal|prefixed NAME. */
    record Allow(String user, Set<String> operations, String resourceType, boolean prefixed, String name) {

        boolean covers(String type, String resource) {
            return resourceType.equals(type) && (prefixed ? resource.startsWith(name) : resource.equals(name));
        }
    }

    static KafkaAccess load() {
        Map<String, Integer> topics = new LinkedHashMap<>();
        List<Allow> allows = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String line : lines) {
            String[] f = line.strip().split("\\s+");
            if (f[0].isEmpty() || f[0].startsWith("#")) {
                continue;
            }
            if (f[0].equals("topic") && f.length == 3) {
                topics.put(f[1], Integer.parseInt(f[2]));
            } else if (f[0].equals("allow") && f.length == 6 && Set.of("topic", "group").contains(f[3])
                    && Set.of("literal", "prefixed").contains(f[4])) {
                allows.add(new Allow(f[1], Set.of(f[2].split(",")), f[3], f[4].equals("prefixed"), f[5]));
            } else {
                throw new AssertionError(FILE + ": cannot read '" + line + "'");
            }
        }
        return new KafkaAccess(topics, allows);
    }

    /** True when some line lets user do operation on the topic or group (Read and Write imply Describe). */
    boolean allows(String user, String operation, String type, String resource) {
        return allows.stream().anyMatch(a -> a.user().equals(user) && a.covers(type, resource)
                && (a.operations().contains(operation) || operation.equals("Describe")
                        && (a.operations().contains("Read") || a.operations().contains("Write"))));
    }

    /** The users some line names, in order. */
    List<String> users() {
        return allows.stream().map(Allow::user).distinct().toList();
    }

    /** The environment variable holding a user's SCRAM password: KAFKA_GAME_SERVICE_PASSWORD for game-service. */
    static String passwordVariable(String user) {
        return "KAFKA_" + user.toUpperCase().replace('-', '_') + "_PASSWORD";
    }
}
