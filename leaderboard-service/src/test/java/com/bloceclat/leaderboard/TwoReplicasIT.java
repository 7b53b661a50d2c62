package com.bloceclat.leaderboard;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.KeyPair;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.SignedMessage;

/**
 * Scaled by partitions: two replicas of the packaged service in one consumer group share the six partitions of
 * {@code game-finished}; one is killed (SIGKILL) in the middle of a burst of 1,000 signed finished games. The other
 * takes its partitions over and, from the last committed offsets, judges what the dead one had not committed: in the
 * end every game has exactly one audit row, with the outcome it deserves, none lost, and each game that earns a
 * record exactly one record.
 */
class TwoReplicasIT {

    static final int GAMES = 1000;
    static final int PARTITIONS = 6;
    static final String GROUP = "leaderboard-service-game-finished";
    static final String KEY_ID = "two-replicas-it";

    static PackagedService first;
    static PackagedService second;

    @BeforeAll
    static void infrastructure() {
        first = new PackagedService(Path.of("target", "two-replicas-it", "first"));
        KeyPair keys = SignedMessage.newKeyPair();
        first.env("BLOC_SIGNING_PUBLIC_KEYS", KEY_ID + ":" + SignedMessage.base64(keys.getPublic()));
        signer = new SignedMessage.Signer(KEY_ID, keys.getPrivate());
        second = first.replica(Path.of("target", "two-replicas-it", "second"));
    }

    static SignedMessage.Signer signer;

    @AfterAll
    static void tearDown() {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
    }

    @Test
    void aReplicaKilledMidBurstLosesNoGameAndDuplicatesNone() throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(GameFinished.CHANNEL, PARTITIONS, (short) 1))).all().get();
            // both at once (each its own process): their starts overlap
            CompletableFuture<Void> starting = CompletableFuture.runAsync(first::start);
            second.start();
            starting.join();
            // both replicas consume: the group has two members, each with partitions of its own
            await().atMost(Duration.ofSeconds(60)).until(() -> assignments(admin).size() == 2
                    && assignments(admin).values().stream().allMatch(n -> n > 0));

            List<ProducerRecord<String, String>> burst = new ArrayList<>();
            Map<String, String> expected = new HashMap<>();
            for (int i = 0; i < GAMES; i++) {
                GameFinished game = RestartIT.game(i);
                burst.add(new ProducerRecord<>(GameFinished.CHANNEL, game.gameId().toString(),
                        signer.sign(game.toJson())));
                expected.put(game.gameId().toString(), RestartIT.outcomeOf(i).name());
            }

            AtomicInteger sent = new AtomicInteger();
            Map<String, Integer> beforeKill = new HashMap<>();
            int[] auditsAtKill = new int[1];
            try (KafkaProducer<String, String> producer = first.producer()) {
                for (ProducerRecord<String, String> record : burst) {
                    producer.send(record);
                    if (sent.incrementAndGet() == GAMES * 2 / 5) {
                        // mid-burst: once both replicas are judging, the second dies on the spot while the
                        // messages keep coming
                        beforeKill.putAll(assignments(admin));
                        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10))
                                .until(() -> audits() >= GAMES / 10);
                        second.kill();
                        auditsAtKill[0] = audits();
                    }
                    PackagedService.sleep(2);
                }
            }
            assertEquals(2, beforeKill.size(), "two members in the group when one was killed: " + beforeKill);
            assertTrue(auditsAtKill[0] < GAMES, "killed in the middle of the burst");

            // the survivor takes every partition over once the dead member's session has timed out
            await().atMost(Duration.ofSeconds(90)).until(() -> assignments(admin).size() == 1
                    && assignments(admin).values().iterator().next() == PARTITIONS);
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> audits() >= GAMES);

            try (Connection db = first.database()) {
                // the records too: one a record game, whichever replica judged it, none lost or doubled by the kill
                RestartIT.assertJudgedOnce(db, expected);
            }
            System.out.printf("TwoReplicasIT: partitions per member before the kill %s, %d audits when the second "
                    + "replica was killed, %s messages found already judged by the survivor, %d games in all%n",
                    beforeKill.values(), auditsAtKill[0], RestartIT.duplicatesOf(first), GAMES);
        }
    }

    /** Partitions assigned to each member of the group, by member id. */
    static Map<String, Integer> assignments(Admin admin) throws Exception {
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
        Map<String, Integer> members = new HashMap<>();
        Collection<MemberDescription> list = group.members();
        for (MemberDescription m : list) {
            members.put(m.consumerId(), m.assignment().topicPartitions().size());
        }
        return members;
    }

    static int audits() throws Exception {
        try (Connection db = first.database(); Statement sql = db.createStatement();
                ResultSet rows = sql.executeQuery("SELECT count(*) FROM game_audit")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    static Admin admin() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, first.bootstrapServers());
        return Admin.create(props);
    }
}
