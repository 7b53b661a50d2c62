package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * platform/kafka/access.conf against the modules: only game-service writes results and game events, each service
 * may use the topics and consumer groups its configuration names, and the topics that carry games have the
 * partitions the leaderboard's replicas share.
 */
class KafkaAccessTest {

    static final KafkaAccess ACCESS = KafkaAccess.load();
    static final List<String> KAFKA_MODULES = List.of("game-service", "leaderboard-service");
    private static final Pattern CHANNEL = Pattern.compile("mp\\.messaging\\.(incoming|outgoing)\\.([^.]+)\\..*");

    @Test
    void gamesTopicsHaveSixPartitions() {
        assertEquals(6, ACCESS.topics().get("game-finished"));
        assertEquals(6, ACCESS.topics().get("game-events"));
    }

    @Test
    void onlyGameServiceWritesResultsAndGameEvents() {
        for (String topic : List.of("game-finished", "game-events")) {
            assertTrue(ACCESS.allows("game-service", "Write", "topic", topic), "game-service writes " + topic);
            for (KafkaAccess.Allow a : ACCESS.allows()) {
                if (a.covers("topic", topic) && (a.operations().contains("Write") || a.operations().contains("All"))) {
                    assertEquals("game-service", a.user(), "only game-service may write " + topic + ": " + a);
                }
            }
        }
        assertFalse(ACCESS.allows("leaderboard-service", "Write", "topic", "game-finished"));
        assertTrue(ACCESS.allows("leaderboard-service", "Write", "topic", "game-finished-dlq"),
                "leaderboard-service writes its dead letters");
        // each writes the topics it names and no other of their names' prefixes (a prefixed grant let
        // leaderboard-service create and write any game-finished-* topic)
        for (String user : KAFKA_MODULES) {
            for (String topic : List.of("game-finished-x", "game-events-x", "bloc-canary-x", "game-finished-dlq-x")) {
                assertFalse(ACCESS.allows(user, "Write", "topic", topic), user + " may not write " + topic);
            }
        }
        assertTrue(ACCESS.allows("leaderboard-service", "Read", "topic", "game-finished"));
        // canaries: game-service writes them, leaderboard-service reads them and writes only their dead letters
        assertTrue(ACCESS.allows("game-service", "Write", "topic", "bloc-canary"));
        assertFalse(ACCESS.allows("leaderboard-service", "Write", "topic", "bloc-canary"));
        assertTrue(ACCESS.allows("leaderboard-service", "Write", "topic", "bloc-canary-dlq"));
        assertFalse(ACCESS.allows("game-service", "Write", "topic", "bloc-canary-dlq"));
    }

    @Test
    void noUserIsAllowedEverything() {
        for (KafkaAccess.Allow a : ACCESS.allows()) {
            assertFalse(a.operations().contains("All"), a.toString());
            assertFalse(a.name().equals("*") || a.prefixed() && a.name().isEmpty(), "a wildcard: " + a);
            assertFalse(a.user().equals("admin") || a.user().equals("*"), "admin is the super user, in no line: " + a);
        }
        assertEquals(List.of("game-service", "leaderboard-service"), ACCESS.users());
    }

    /** Every channel in a module's configuration may do its job as the module's own Kafka user. */
    @Test
    void eachServiceMayUseTheTopicsAndGroupsItsConfigurationNames() {
        for (String name : KAFKA_MODULES) {
            ServiceModule module = ServiceModule.load(name);
            Map<String, String> channels = new TreeMap<>();
            for (String key : module.properties().stringPropertyNames()) {
                Matcher m = CHANNEL.matcher(key);
                if (!key.startsWith("%") && m.matches()) {
                    channels.put(m.group(2), m.group(1));
                }
            }
            assertFalse(channels.isEmpty(), name + " has Kafka channels");
            channels.forEach((channel, direction) -> {
                String prefix = "mp.messaging." + direction + "." + channel + ".";
                String topic = module.properties().getProperty(prefix + "topic", channel);
                if (direction.equals("outgoing")) {
                    assertTrue(ACCESS.allows(name, "Write", "topic", topic), name + " may write " + topic);
                } else {
                    assertTrue(ACCESS.allows(name, "Read", "topic", topic), name + " may read " + topic);
                    String group = module.properties().getProperty(prefix + "group.id");
                    if (group != null) {
                        // group.id=game-service-live-${quarkus.uuid}: what is fixed is the part before ${.
                        String fixed = group.contains("${") ? group.substring(0, group.indexOf("${")) : group;
                        assertTrue(ACCESS.allows().stream().anyMatch(a -> a.user().equals(name)
                                && a.covers("group", fixed) && (!group.contains("${") || a.prefixed())
                                && a.operations().contains("Read")), name + " may consume as group " + group);
                    }
                }
            });
        }
    }

    @Test
    void theLocalSetupAndTheContainersSetupApplyThisFile() throws Exception {
        String local = java.nio.file.Files.readString(ServiceModule.ROOT.resolve("platform/lib/infra.sh"));
        assertTrue(local.contains("platform/kafka/access.conf") && local.contains("KafkaSetup.java"),
                "./bloc up applies access.conf");
        String script = java.nio.file.Files.readString(ServiceModule.ROOT.resolve("platform/kafka/kafka-setup.sh"));
        assertTrue(script.contains("access.conf") && script.contains("kafka-acls.sh")
                && script.contains("SCRAM-SHA-512=["), "kafka-setup.sh makes the users and ACLs");
    }
}
