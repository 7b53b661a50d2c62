package com.bloceclat.game;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.SimpleRecord;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.SelfPlay;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.messaging.GameMessages;
import com.bloceclat.game.messaging.OutboxRelay;
import com.bloceclat.game.messaging.ResultSigner;
import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.PrometheusText;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/**
 * The outbox never holds back its messages behind one the broker cannot take, and a very long game still gets
 * through: the test broker has Kafka's default limit (message.max.bytes 1 MiB, judged on the compressed batch).
 */
@QuarkusTest
class OutboxRelayTest {

    /** Kafka's default message.max.bytes (the broker's limit on a record batch, after compression). */
    static final int BROKER_LIMIT = 1_048_588;

    static final int ROUNDS = 20_000;

    @Inject
    OutboxRelay relay;

    @Inject
    GameConfig.Outbox outbox;

    @Inject
    KafkaClientService kafka;

    @Inject
    ResultSigner signer;

    /**
     * The relay deletes a row once the broker acknowledged its record, so each acknowledgement must mean every in-sync
     * replica has it (docs/game-service.md "Outbox"): the producers the relay sends with, as built, ask for all; the
     * connector's default, one, would lose a record whose leader fell before its followers copied it.
     */
    @Test
    void bothTopicsProducersWaitForEveryInSyncReplica() {
        for (String channel : List.of(GameFinished.CHANNEL, GameMessages.EVENTS_CHANNEL)) {
            assertEquals("all", String.valueOf(kafka.getProducer(channel).configuration().get("acks")), channel);
        }
    }

    @Test
    void aSoloGameOf20000RoundsReachesKafkaCompressedUnderTheBrokersLimit() {
        // EASY is endless for a strong enough player: strength 3 (about 0.3 ms a round)
        Game game = SelfPlay.firstGameLasting(Level.EASY, 3, ROUNDS);
        UUID id = UUID.randomUUID();
        String replay = game.replay().toJson();
        Instant finished = Instant.now();
        String payload = GameFinished.of(id, GameFinished.Player.of("sub-marathon", "marathon"),
                GameFinished.Mode.SOLO, GameFinished.SeedSource.SERVER, null, finished.minusSeconds(86_400), finished,
                replay).toJson();
        byte[] raw = payload.getBytes(StandardCharsets.UTF_8);
        int compressed = batchSize(Compression.zstd().build(), id.toString(), raw);
        System.out.printf("outbox: a %,d-round game (%,d events): game-finished %,d bytes raw, %,d as a zstd batch, "
                + "%,d as an lz4 batch%n", game.round(), game.events().size(), raw.length, compressed,
                batchSize(Compression.lz4().build(), id.toString(), raw));
        assertTrue(raw.length > BROKER_LIMIT, "the raw message alone is past the broker's limit: " + raw.length);
        assertTrue(compressed < BROKER_LIMIT, "compressed it is under it: " + compressed);

        enqueue(GameFinished.CHANNEL, id.toString(), payload);
        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(GameFinished.CHANNEL);
            await().atMost(Duration.ofSeconds(60)).until(() -> !ofKey(task, id.toString()).isEmpty());
            String received = ofKey(task, id.toString()).get(0).value();
            task.close();
            assertEquals(payload, received);
            assertEquals(game.events().size(), GameFinished.fromJson(received).replay().get("events").size());
        }
    }

    /**
     * docs/events.md "Size and compression": game-service caps a game at {@link GameFinished#MAX_REPLAY_EVENTS} events
     * so that every {@code game-finished} fits the broker's default limit compressed; here a game at the cap, signed as
     * game-service sends it (the envelope holds the message as a JSON string, its quotes escaped). Before, the figure
     * at the cap was extrapolated from 60,000 events.
     */
    @Test
    void aGameAtTheCapOfEventsSignedFitsTheBrokersLimitCompressed() {
        Game game = SelfPlay.firstGameLasting(Level.EASY, 3, GameFinished.MAX_REPLAY_EVENTS / 3);
        assertTrue(game.events().size() > GameFinished.MAX_REPLAY_EVENTS - 3
                && game.events().size() <= GameFinished.MAX_REPLAY_EVENTS, "at the cap: " + game.events().size());
        UUID id = UUID.randomUUID();
        Instant finished = Instant.now();
        String message = GameFinished.of(id, GameFinished.Player.of("sub-marathon", "marathon"),
                GameFinished.Mode.SOLO, GameFinished.SeedSource.SERVER, null, finished.minusSeconds(86_400), finished,
                game.replay().toJson()).toJson();
        byte[] signed = signer.sign(message).getBytes(StandardCharsets.UTF_8);
        int compressed = batchSize(Compression.zstd().build(), id.toString(), signed);
        System.out.printf("outbox: a game at the cap, %,d rounds (%,d events), signed: game-finished %,d bytes raw, "
                + "%,d as a zstd batch, %,d as an lz4 batch%n", game.round(), game.events().size(), signed.length,
                compressed, batchSize(Compression.lz4().build(), id.toString(), signed));
        assertTrue(compressed < BROKER_LIMIT, "compressed under the broker's limit: " + compressed);
    }

    @Test
    void aRowTooLargeEvenCompressedIsParkedWithItsReasonAndTheNextRowStillGoes() {
        // 3 MiB of random text: no compression brings it under 1 MiB, and it is under the producer's 16 MiB, so the
        // broker is the one refusing it
        byte[] noise = new byte[3 * 1024 * 1024 * 3 / 4];
        new SecureRandom().nextBytes(noise);
        String huge = "{\"noise\":\"" + Base64.getEncoder().encodeToString(noise) + "\"}";
        String bigKey = "big-" + UUID.randomUUID();
        String nextKey = "next-" + UUID.randomUUID();
        double parkedBefore = parked(GameMessages.EVENTS_CHANNEL);
        long bigId = QuarkusTransaction.requiringNew().call(() -> {
            long big = OutboxMessage.enqueue(GameMessages.EVENTS_CHANNEL, bigKey, huge);
            OutboxMessage.enqueue(GameMessages.EVENTS_CHANNEL, nextKey, "{\"after\":\"the big one\"}");
            return big;
        });
        relay.wake();
        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(GameMessages.EVENTS_CHANNEL);
            await().atMost(Duration.ofSeconds(60)).until(() -> !ofKey(task, nextKey).isEmpty());
            task.close();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> parkedReason(bigId) != null);
        String reason = parkedReason(bigId);
        assertTrue(reason.startsWith("RecordTooLargeException"), reason);
        // parked, not sent and not deleted: still there for an operator, never picked again
        assertEquals(1L, QuarkusTransaction.requiringNew().call(() -> OutboxMessage.count("key = ?1", bigKey)));
        assertEquals(0L, QuarkusTransaction.requiringNew().call(() -> OutboxMessage.count("key = ?1", nextKey)));
        // counted under its topic (docs/game-service.md "Outbox": outbox_parked_total{topic}); at least this row:
        // another row of that topic parked meanwhile would be counted too
        assertTrue(parked(GameMessages.EVENTS_CHANNEL) >= parkedBefore + 1,
                "outbox_parked_total{topic=\"game-events\"} was " + parkedBefore + ", is "
                        + parked(GameMessages.EVENTS_CHANNEL));
    }

    /**
     * docs/game-service.md "Outbox": a row of a topic the relay does not know is its own fault and would fail on
     * every try: it is parked with its reason ({@code parked_reason}), counted once in
     * {@code outbox_parked_total{topic}} under its topic (a topic of this test alone: nobody else counts under it),
     * and never sent again.
     */
    @Test
    void aRowOfATopicTheRelayDoesNotKnowIsParkedWithItsReasonAndCountedUnderItsTopic() {
        String topic = "unknown-" + UUID.randomUUID().toString().substring(0, 8);
        String key = "stray-" + UUID.randomUUID();
        assertEquals(0.0, parked(topic), "a topic of this test alone");
        long id = QuarkusTransaction.requiringNew().call(() -> OutboxMessage.enqueue(topic, key, "{\"stray\":true}"));
        try {
            relay.wake();
            await().atMost(Duration.ofSeconds(60)).until(() -> parkedReason(id) != null);
            String reason = parkedReason(id);
            assertTrue(reason.startsWith("UnknownTopic") && reason.contains(topic), reason);
            assertEquals(1.0, parked(topic), "counted once, under its topic");
            // parked for good: later passes neither send it nor count it again
            relay.poll();
            assertEquals(1L, QuarkusTransaction.requiringNew().call(() -> OutboxMessage.count("key = ?1", key)));
            assertEquals(1.0, parked(topic));
        } finally {
            QuarkusTransaction.requiringNew().run(() -> OutboxMessage.delete("key = ?1", key));
        }
    }

    /** outbox_parked_total{topic} now (0 before the topic's first parked row). */
    private static double parked(String topic) {
        return PrometheusText.value("outbox_parked_total", "topic", topic);
    }

    /**
     * The backlog's age (the wellness check, {@code outbox_oldest_seconds}) is read against the database's clock, so
     * rows are stamped by it: stamped by the replica's clock, a replica ahead hid a stuck relay, one behind made the
     * outbox look late. The transaction's time, {@code now()}, is the database's.
     */
    @Test
    void aRowIsStampedByTheDatabasesClock() {
        QuarkusTransaction.requiringNew().run(() -> {
            long id = OutboxMessage.enqueue(GameMessages.EVENTS_CHANNEL, "clock-" + UUID.randomUUID(), "{}");
            Object same = OutboxMessage.getEntityManager()
                    .createNativeQuery("SELECT created_at = now() FROM outbox WHERE id = :id").setParameter("id", id)
                    .getSingleResult();
            assertEquals(Boolean.TRUE, same);
            OutboxMessage.getEntityManager().createNativeQuery("DELETE FROM outbox WHERE id = :id")
                    .setParameter("id", id).executeUpdate();
        });
    }

    @Test
    void rowsKeptAfterAFailedSendStepAsideForADoublingWaitSoTheRowsAfterThemGo() {
        // In one transaction, so that no relay of this application sends (or even sees) these rows meanwhile. Before,
        // kept rows stayed the oldest: once a batch's worth of them kept failing (one topic refused) every pass took
        // only them, and no row after them was sent.
        QuarkusTransaction.requiringNew().run(() -> {
            String run = UUID.randomUUID().toString();
            List<Long> failing = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                failing.add(OutboxMessage.enqueue(GameFinished.CHANNEL, "failing-" + run + "-" + i, "{}"));
            }
            long after = OutboxMessage.enqueue(GameMessages.EVENTS_CHANNEL, "after-" + run, "{}");
            // (all the due rows, this run's picked out: rows of other tests may be older)
            List<Long> all = new ArrayList<>(failing);
            all.add(after);
            assertEquals(all, ids(OutboxMessage.nextPending(100_000, Long.MAX_VALUE).rows(), run), "due: the oldest first");

            OutboxMessage.retryLater(failing, Duration.ofSeconds(1), Duration.ofSeconds(30));
            assertEquals(List.of(after), ids(OutboxMessage.nextPending(100_000, Long.MAX_VALUE).rows(), run), "the kept rows step aside");
            // each failure doubles the wait, up to the most
            OutboxMessage.retryLater(failing.subList(0, 1), Duration.ofSeconds(1), Duration.ofSeconds(30));
            OutboxMessage.retryLater(failing.subList(0, 1), Duration.ofSeconds(1), Duration.ofSeconds(30));
            assertEquals(4.0, waitSeconds(failing.get(0)), 0.5, "a third failure waits 4 s");
            assertEquals(1.0, waitSeconds(failing.get(1)), 0.5, "a first failure waits 1 s");
            for (int i = 0; i < 10; i++) {
                OutboxMessage.retryLater(failing.subList(0, 1), Duration.ofSeconds(1), Duration.ofSeconds(30));
            }
            assertEquals(30.0, waitSeconds(failing.get(0)), 0.5, "never more than the most");
            OutboxMessage.getEntityManager().createNativeQuery("DELETE FROM outbox WHERE msg_key LIKE :run")
                    .setParameter("run", "%" + run + "%").executeUpdate();
        });
    }

    @Test
    void aBatchHoldsAtMostItsBytesOfPayloadButAlwaysItsFirstRow() {
        // Before, a batch was bounded by rows alone: 200 game-finished of long games (about 6 MB each) were read into
        // one pass, past a replica's heap, and again on every pass after it. Rolled back: no relay sees these rows.
        QuarkusTransaction.begin();
        try {
            // the rows other tests left due would come first: set aside in this transaction only
            OutboxMessage.getEntityManager().createNativeQuery("DELETE FROM outbox").executeUpdate();
            String kilobyte = "{\"pad\":\"" + "x".repeat(990) + "\"}";
            assertEquals(1000, kilobyte.length());
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                ids.add(OutboxMessage.enqueue(GameMessages.EVENTS_CHANNEL, "sized-" + i, kilobyte));
            }
            OutboxMessage.Batch two = OutboxMessage.nextPending(200, 2_500);
            assertEquals(ids.subList(0, 2), two.rows().stream().map(OutboxMessage.Pending::id).toList());
            assertTrue(two.more(), "cut by size: more are due");
            OutboxMessage.Batch first = OutboxMessage.nextPending(200, 10);
            assertEquals(ids.subList(0, 1), first.rows().stream().map(OutboxMessage.Pending::id).toList(),
                    "a row larger than the bound still goes, alone");
            assertTrue(first.more());
            OutboxMessage.Batch byCount = OutboxMessage.nextPending(3, 1_000_000);
            assertEquals(ids.subList(0, 3), byCount.rows().stream().map(OutboxMessage.Pending::id).toList());
            assertTrue(byCount.more(), "cut by count");
            OutboxMessage.Batch all = OutboxMessage.nextPending(200, 1_000_000);
            assertEquals(ids, all.rows().stream().map(OutboxMessage.Pending::id).toList());
            assertEquals(kilobyte, all.rows().get(3).payload());
            assertTrue(!all.more(), "every due row taken");
        } finally {
            QuarkusTransaction.rollback();
        }
    }

    @Test
    void aTopicThatRefusesEveryRecordForAWhileHoldsBackNoRowOfTheOtherTopic() throws Exception {
        // game-finished refuses every record for a while (its records' timestamps are all "too old" for it: a failure
        // the relay keeps the row for, as a deny ACL would be): more of its rows than a batch used to take every batch,
        // pass after pass, and game-events stopped too
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, GameFinished.CHANNEL);
        String run = UUID.randomUUID().toString();
        String after = "after-" + run;
        try (KafkaCompanion companion = KafkaResource.companion()) {
            AdminClient admin = companion.getOrCreateAdminClient();
            if (!companion.topics().list().contains(GameFinished.CHANNEL)) {
                companion.topics().createAndWait(GameFinished.CHANNEL, 1);
            }
            ConsumerTask<String, String> events = companion.consumeStrings().fromTopics(GameMessages.EVENTS_CHANNEL);
            topicConfig(admin, topic, AlterConfigOp.OpType.SET, "0");
            try {
                QuarkusTransaction.requiringNew().run(() -> {
                    for (int i = 0; i < outbox.batchSize() + 10; i++) {
                        OutboxMessage.enqueue(GameFinished.CHANNEL, "refused-" + run + "-" + i, "{}");
                    }
                    OutboxMessage.enqueue(GameMessages.EVENTS_CHANNEL, after, "{\"after\":\"the refused ones\"}");
                });
                relay.wake();
                await().atMost(Duration.ofSeconds(60)).until(() -> !ofKey(events, after).isEmpty());
                // (a record stamped in the very millisecond the broker checks it passes: not every one is refused)
                assertTrue(refused(run) > 0, "the refused rows are kept");
            } finally {
                topicConfig(admin, topic, AlterConfigOp.OpType.DELETE, null);
                events.close();
            }
            // once the topic takes them again, they go (each within its wait, at most retry-max)
            await().atMost(Duration.ofSeconds(120)).until(() -> refused(run) == 0);
        }
    }

    private static long refused(String run) {
        return QuarkusTransaction.requiringNew().call(
                () -> OutboxMessage.count("key like ?1", "refused-" + run + "-%"));
    }

    /** The topic's message.timestamp.before.max.ms: 0 refuses every record stamped before the broker's clock. */
    private static void topicConfig(AdminClient admin, ConfigResource topic, AlterConfigOp.OpType op, String ms)
            throws Exception {
        admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                new ConfigEntry("message.timestamp.before.max.ms", ms), op)))).all().get(30, TimeUnit.SECONDS);
    }

    /** The ids of this run's rows among {@code pending}, in order. */
    private static List<Long> ids(List<OutboxMessage.Pending> pending, String run) {
        return pending.stream().filter(p -> p.key().contains(run)).map(OutboxMessage.Pending::id).toList();
    }

    /** Seconds from now until a row's next attempt. */
    private static double waitSeconds(long id) {
        return ((Number) OutboxMessage.getEntityManager().createNativeQuery(
                "SELECT extract(epoch FROM next_attempt_at - clock_timestamp()) FROM outbox WHERE id = :id")
                .setParameter("id", id).getSingleResult()).doubleValue();
    }

    private static String parkedReason(long id) {
        return QuarkusTransaction.requiringNew().call(() -> (String) OutboxMessage.getEntityManager()
                .createNativeQuery("SELECT parked_reason FROM outbox WHERE id = :id").setParameter("id", id)
                .getSingleResult());
    }

    private void enqueue(String topic, String key, String payload) {
        assertNotNull(QuarkusTransaction.requiringNew().call(() -> OutboxMessage.enqueue(topic, key, payload)));
        relay.wake();
    }

    /** The size of the record batch the producer sends for this one record: what the broker holds to its limit. */
    private static int batchSize(Compression compression, String key, byte[] value) {
        return MemoryRecords.withRecords(compression, new SimpleRecord(key.getBytes(StandardCharsets.UTF_8), value))
                .sizeInBytes();
    }

    private static List<ConsumerRecord<String, String>> ofKey(ConsumerTask<String, String> task, String key) {
        return task.getRecords().stream().filter(r -> key.equals(r.key())).toList();
    }
}
