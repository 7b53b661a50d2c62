package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.apache.kafka.clients.admin.AdminClient;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.GameFinishedDeadLetter;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.SelfPlay;
import com.bloceclat.leaderboard.messaging.CanaryConsumer;
import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.PrometheusText;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/**
 * Issue 13 "Every consumer survives every message": messages the reader lets through but the database refuses, an
 * out-of-bounds message, the database unreachable for a while, and canaries PostgreSQL cannot store. A test-only
 * trigger (created here, on this class's player subjects only) makes PostgreSQL refuse a row the way a real constraint
 * or length limit would (SQL state 22001), or answer as a database shutting down would (57P03). The trigger stays
 * (created by each test, idempotently): it refuses only this class's player subjects.
 */
@QuarkusTest
class ConsumerFaultsTest {

    @Inject
    AgroalDataSource dataSource;

    @Inject
    MeterRegistry registry;

    static final String TRIGGER = """
            CREATE SEQUENCE IF NOT EXISTS test_outage_attempts;
            CREATE TABLE IF NOT EXISTS test_outage (subject TEXT PRIMARY KEY);
            CREATE TABLE IF NOT EXISTS test_read_only (subject TEXT PRIMARY KEY);
            CREATE OR REPLACE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.player_subject LIKE 'sub-db-poison-%' THEN
                    RAISE EXCEPTION 'value too long for type character varying(255) (test trigger)'
                        USING ERRCODE = '22001';
                END IF;
                IF EXISTS (SELECT 1 FROM test_outage WHERE subject = NEW.player_subject) THEN
                    PERFORM nextval('test_outage_attempts');
                    RAISE EXCEPTION 'the database system is shutting down (test trigger)' USING ERRCODE = '57P03';
                END IF;
                IF EXISTS (SELECT 1 FROM test_read_only WHERE subject = NEW.player_subject) THEN
                    PERFORM nextval('test_outage_attempts');
                    RAISE EXCEPTION 'cannot execute INSERT in a read-only transaction (test trigger)'
                        USING ERRCODE = '25006';
                END IF;
                RETURN NEW;
            END $$;
            DROP TRIGGER IF EXISTS test_refuse ON game_audit;
            CREATE TRIGGER test_refuse BEFORE INSERT ON game_audit FOR EACH ROW EXECUTE FUNCTION test_refuse();
            """;

    void sql(String statements) {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute(statements);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    long attempts() {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT CASE WHEN is_called THEN last_value ELSE 0 END "
                        + "FROM test_outage_attempts")) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static GameAudit audit(UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> GameAudit.findById(id));
    }

    static GameAudit awaitAudit(UUID id) {
        return await().atMost(Duration.ofSeconds(60)).until(() -> audit(id), a -> a != null);
    }

    static GameFinished game(String subject) {
        return Games.finished(new GameFinished.Player(subject, "p"),
                Games.quick(Games.freshSeed(), Level.DIABOLICAL, 2).replay());
    }

    static void ready() {
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    static void live() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void aMessageTheDatabaseRefusesIsDeadLetteredAloneAndTheRestOfItsBatchIsJudged() {
        sql(TRIGGER);
        GameFinished good1 = game("sub-good-" + UUID.randomUUID());
        GameFinished refusedByDb = game("sub-db-poison-" + UUID.randomUUID());
        GameFinished good2 = game("sub-good-" + UUID.randomUUID());
        // The attack of issue 13, now bounded at read: a subject of 300 characters.
        GameFinished longSubject = Games.finished(new GameFinished.Player("x".repeat(300), "long"),
                Games.quick(Games.freshSeed(), Level.DIABOLICAL, 2).replay());
        String longKey = longSubject.gameId().toString();
        String longJson = longSubject.toJson();
        GameFinished good3 = game("sub-good-" + UUID.randomUUID());
        // One send: one batch in all likelihood (the test holds however the polls cut it).
        Games.publish(Games.message(good1), Games.message(refusedByDb), Games.signed(longKey, longJson),
                new ProducerRecord<>(GameFinished.CHANNEL, longKey, longJson), Games.message(good2),
                Games.message(good3));

        assertEquals(Outcome.RECORD, awaitAudit(good1.gameId()).outcome);
        assertEquals(Outcome.RECORD, awaitAudit(good2.gameId()).outcome);
        assertEquals(Outcome.RECORD, awaitAudit(good3.gameId()).outcome);
        assertNull(audit(refusedByDb.gameId()));
        assertNull(audit(longSubject.gameId()));

        GameFinishedDeadLetter db = GameFinishedDeadLetter.fromJson(Kafka.awaitRecords(
                GameFinishedDeadLetter.CHANNEL, 1, r -> refusedByDb.gameId().toString().equals(r.key()))
                .get(0).value());
        assertTrue(db.error().startsWith("database: SQL state 22001: "), db.error());
        assertTrue(db.error().contains("value too long for type character varying(255) (test trigger)"), db.error());
        assertEquals(Games.message(refusedByDb).value(), db.payload());
        List<ConsumerRecord<String, String>> longLetters = Kafka.awaitRecords(GameFinishedDeadLetter.CHANNEL, 2,
                r -> longKey.equals(r.key()));
        assertEquals("\"subject\" is 300 characters, more than 255",
                GameFinishedDeadLetter.fromJson(longLetters.get(0).value()).error());
        assertTrue(GameFinishedDeadLetter.fromJson(longLetters.get(1).value()).error().startsWith("refused: unsigned"));
        ready();

        // The channel goes on.
        GameFinished later = game("sub-good-" + UUID.randomUUID());
        Games.publish(later);
        assertEquals(Outcome.RECORD, awaitAudit(later.gameId()).outcome);
        ready();
    }

    /**
     * A test-only trigger on the refused trail: PostgreSQL refuses (SQL state 22001, a fault of the row) to keep the
     * refusal of a message whose payload starts with {@code refusal-db-poison-}. Only this class sends such payloads.
     */
    static final String REFUSAL_TRIGGER = """
            CREATE OR REPLACE FUNCTION test_refuse_refusal() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.payload LIKE 'refusal-db-poison-%' THEN
                    RAISE EXCEPTION 'value too long for type character varying(255) (test trigger)'
                        USING ERRCODE = '22001';
                END IF;
                RETURN NEW;
            END $$;
            DROP TRIGGER IF EXISTS test_refuse_refusal ON refused_message;
            CREATE TRIGGER test_refuse_refusal BEFORE INSERT ON refused_message FOR EACH ROW
                EXECUTE FUNCTION test_refuse_refusal();
            """;

    /**
     * docs/leaderboard-service.md: "A message refused for its signature whose refusal the database then does not
     * store is not dead-lettered twice." Its letter ({@code refused: ...}) goes when it is read; when its refusal then
     * fails alone, it is not sent again with {@code database: ...}. The poison and a second unsigned message under the
     * same key (one partition: read after it) are sent; once the second's refusal is stored, everything the poison led
     * to is done and its letters are on the dead-letter topic, before a marker this test writes there under that key
     * (same partition, so read after them): every letter of the key is read up to the marker.
     */
    @Test
    void aRefusedMessageWhoseRefusalTheDatabaseDoesNotStoreIsDeadLetteredOnce() {
        sql(REFUSAL_TRIGGER);
        String key = "refusal-key-" + UUID.randomUUID();
        String poison = "refusal-db-poison-" + UUID.randomUUID();
        String after = "refusal-after-" + UUID.randomUUID();
        Games.publish(new ProducerRecord<>(GameFinished.CHANNEL, key, poison),
                new ProducerRecord<>(GameFinished.CHANNEL, key, after));
        await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                () -> RefusedMessage.count("payload", after) == 1));
        assertEquals(0L, QuarkusTransaction.requiringNew().call(() -> RefusedMessage.count("payload", poison)),
                "the trigger refused the poison's refusal");

        String marker = "marker-" + UUID.randomUUID();
        List<ConsumerRecord<String, String>> letters;
        try (KafkaCompanion companion = KafkaResource.companion();
                ConsumerTask<String, String> task = companion.consumeStrings()
                        .fromTopics(GameFinishedDeadLetter.CHANNEL)) {
            companion.produceStrings().fromRecords(new ProducerRecord<>(GameFinishedDeadLetter.CHANNEL, key, marker))
                    .awaitCompletion(Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(60)).until(
                    () -> task.getRecords().stream().anyMatch(r -> marker.equals(r.value())));
            letters = task.getRecords().stream()
                    .filter(r -> key.equals(r.key()) && !marker.equals(r.value())).toList();
        }
        List<GameFinishedDeadLetter> poisons = letters.stream().map(r -> GameFinishedDeadLetter.fromJson(r.value()))
                .filter(l -> poison.equals(l.payload())).toList();
        assertEquals(1, poisons.size(), "the poison's letters: " + poisons);
        assertTrue(poisons.get(0).error().startsWith("refused: unsigned"), poisons.get(0).error());
        assertEquals(1, letters.stream().filter(r -> r.value().contains(after)).count(), "the second's letter");
        ready();
    }

    /**
     * A dead letter carries its message whole, even one over the producer's default 1 MiB before compression (the
     * producer checks max.request.size before it compresses; the broker takes the compressed batch): a long game the
     * database refused used to be dead-lettered without its payload, and could not be sent again.
     */
    @Test
    void aLongGameTheDatabaseRefusesIsDeadLetteredWithItsWholePayload() {
        sql(TRIGGER);
        Game game = SelfPlay.firstGameLasting(Level.EASY, 3, 8_000);
        Instant finishedAt = Instant.now();
        GameFinished refused = Games.finished(UUID.randomUUID(), new GameFinished.Player(
                "sub-db-poison-" + UUID.randomUUID(), "p"), GameFinished.Mode.SOLO, GameFinished.SeedSource.SERVER,
                null, finishedAt.minusSeconds(3600), finishedAt, game.replay().toJson());
        ProducerRecord<String, String> message = Games.message(refused);
        assertTrue(message.value().length() > 1 << 20, "over 1 MiB raw: " + message.value().length());
        try (KafkaCompanion companion = KafkaResource.companion()) {
            companion.produceStrings()
                    .withProp(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd")
                    .withProp(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 << 20)
                    .fromRecords(message).awaitCompletion(Duration.ofSeconds(60));
        }
        GameFinishedDeadLetter letter = GameFinishedDeadLetter.fromJson(Kafka.awaitRecords(
                GameFinishedDeadLetter.CHANNEL, 1, r -> refused.gameId().toString().equals(r.key())).get(0).value());
        assertTrue(letter.error().startsWith("database: SQL state 22001: "), letter.error());
        assertTrue(message.value().equals(letter.payload()), "the whole payload, not "
                + (letter.payload() == null ? "none" : letter.payload().length() + " characters"));
        ready();
    }

    @Test
    void whileTheDatabaseIsUnreachableAMessageIsRetriedNotSkippedNorDeadLettered() {
        // retried with back-off (200 ms, 400 ms, 800 ms, ...): at least three attempts refused, readiness still UP
        retriedUntilTheDatabaseTakesIt("test_outage", 3);
    }

    /**
     * A game published while the trigger's {@code table} names its player: the database refuses its audit as it would
     * be refused while away ({@code test_outage}) or read-only ({@code test_read_only}); once {@code attempts} have
     * been refused, and none dead-lettered it or stored it, the player is taken out of the table and the game becomes
     * a record.
     */
    private void retriedUntilTheDatabaseTakesIt(String table, int attempts) {
        sql(TRIGGER);
        String subject = "sub-" + table + "-" + UUID.randomUUID();
        sql("INSERT INTO " + table + " VALUES ('" + subject + "')");
        long before = attempts();
        GameFinished game = game(subject);
        Games.publish(game);
        await().atMost(Duration.ofSeconds(60)).until(() -> attempts() >= before + attempts);
        assertNull(audit(game.gameId()));
        ready();

        sql("DELETE FROM " + table + " WHERE subject = '" + subject + "'");
        assertEquals(Outcome.RECORD, awaitAudit(game.gameId()).outcome);
        ready();
    }

    /**
     * A database made read-only for a while (a standby promoted late, {@code default_transaction_read_only} during
     * maintenance) refuses every write with 25006: that is the database's state, not the message's fault. Before, the
     * message was dead-lettered after three tries, and every valid game of the window was lost from the boards.
     */
    @Test
    void whileTheDatabaseIsReadOnlyAMessageIsRetriedNotDeadLettered() {
        // one attempt more than the three after which a message's own fault is dead-lettered
        retriedUntilTheDatabaseTakesIt("test_read_only", 4);
    }

    /**
     * Dead letters the broker will not take (the dead-letter topic's {@code max.message.bytes} lowered for the test):
     * one too large goes without its payload; one nothing carries is retried, and the consumer waits instead of
     * stopping (it used to throw out of the channel's method, and the channel stopped for good), then sends it once
     * the topic takes it and judges what comes after.
     */
    @Test
    void aDeadLetterTheBrokerWillNotTakeGoesWithoutItsPayloadOrWaitsAndTheConsumerGoesOn() throws Exception {
        ConfigResource dlq = new ConfigResource(ConfigResource.Type.TOPIC, GameFinishedDeadLetter.CHANNEL);
        String tooLarge = UUID.randomUUID().toString();
        String waiting = UUID.randomUUID().toString();
        try (KafkaCompanion companion = KafkaResource.companion()) {
            AdminClient admin = companion.getOrCreateAdminClient();
            ensureTopic(companion, GameFinishedDeadLetter.CHANNEL);
            try {
                letterLimit(admin, dlq, AlterConfigOp.OpType.SET, "4096");
                // unsigned: refused and dead-lettered; 100,000 hex digits do not compress under 4 KiB
                StringBuilder big = new StringBuilder();
                while (big.length() < 100_000) {
                    big.append(UUID.randomUUID().toString().replace("-", ""));
                }
                Games.publish(new ProducerRecord<>(GameFinished.CHANNEL, tooLarge, big.toString()));
                GameFinishedDeadLetter bare = GameFinishedDeadLetter.fromJson(Kafka.awaitRecords(
                        companion, GameFinishedDeadLetter.CHANNEL, 1, r -> tooLarge.equals(r.key())).get(0).value());
                assertNull(bare.payload());
                assertTrue(bare.error().startsWith("refused: ") && bare.error().contains("characters not carried"),
                        bare.error());

                letterLimit(admin, dlq, AlterConfigOp.OpType.SET, "64");
                assertEquals(3000, ConfigProvider.getConfig().getValue(
                        "mp.messaging.connector.smallrye-kafka.throttled.unprocessed-record-max-age.ms", Integer.class),
                        "the hold below outlasts the check only with the %test age (application.properties)");
                double before = retried();
                Games.publish(new ProducerRecord<>(GameFinished.CHANNEL, waiting, "not signed"));
                await().atMost(Duration.ofSeconds(60)).until(() -> retried() >= before + 2);
                ready();
            } finally {
                letterLimit(admin, dlq, AlterConfigOp.OpType.DELETE, null);
            }
            GameFinishedDeadLetter letter = GameFinishedDeadLetter.fromJson(Kafka.awaitRecords(
                    companion, GameFinishedDeadLetter.CHANNEL, 1, r -> waiting.equals(r.key())).get(0).value());
            assertEquals("not signed", letter.payload());
            assertTrue(letter.error().startsWith("refused: "), letter.error());
        }
        GameFinished later = game("sub-good-" + UUID.randomUUID());
        Games.publish(later);
        assertEquals(Outcome.RECORD, awaitAudit(later.gameId()).outcome);
        ready();
    }

    private static void ensureTopic(KafkaCompanion companion, String topic) {
        if (!companion.topics().list().contains(topic)) {
            companion.topics().createAndWait(topic, 1);
        }
    }

    private static void letterLimit(AdminClient admin, ConfigResource topic, AlterConfigOp.OpType op, String bytes)
            throws Exception {
        admin.incrementalAlterConfigs(Map.of(topic, List.of(new AlterConfigOp(
                new ConfigEntry("max.message.bytes", bytes), op)))).all().get(30, TimeUnit.SECONDS);
    }

    private double retried() {
        return registry.find("leaderboard.dead_letters.retried").counters().stream().mapToDouble(Counter::count).sum();
    }

    /**
     * The same for the canaries' letters: one whose key alone is too large goes with its key cut; the canary consumer
     * waits for a letter nothing carries, and goes on once it is sent.
     */
    @Test
    void aCanarysDeadLetterTheBrokerWillNotTakeIsCutOrRetriedAndTheCanaryConsumerGoesOn() throws Exception {
        ConfigResource dlq = new ConfigResource(ConfigResource.Type.TOPIC, CanaryConsumer.DEAD_LETTER_TOPIC);
        String longKey = "canary-key-" + UUID.randomUUID() + "-" + "k".repeat(6000);
        String poisonKey = "canary-waits-" + UUID.randomUUID();
        UUID first = UUID.randomUUID();
        UUID good = UUID.randomUUID();
        try (KafkaCompanion companion = KafkaResource.companion()) {
            AdminClient admin = companion.getOrCreateAdminClient();
            ensureTopic(companion, CanaryConsumer.DEAD_LETTER_TOPIC);
            try {
                // 4096 bytes a letter: a 6,000-character key alone would not fit (its letter without payload was
                // refused too, and the consumer waited for ever); the letter carries the key's first 1,024
                letterLimit(admin, dlq, AlterConfigOp.OpType.SET, "4096");
                companion.produceStrings().fromRecords(
                        new ProducerRecord<>(CanaryConsumer.CHANNEL, longKey, "not a canary, under a long key"),
                        new ProducerRecord<>(CanaryConsumer.CHANNEL, first.toString(), canary(first)))
                        .awaitCompletion(Duration.ofSeconds(30));
                await().atMost(Duration.ofSeconds(60)).until(
                        () -> QuarkusTransaction.requiringNew().call(() -> Canary.findById(first) != null));
                ConsumerRecord<String, String> cut = Kafka.awaitRecords(companion, CanaryConsumer.DEAD_LETTER_TOPIC,
                        1, r -> r.key() != null && r.key().length() > 40 && longKey.startsWith(r.key())).get(0);
                assertEquals(1024, cut.key().length(), "the key cut to max-key-bytes");
                assertTrue(reason(cut).startsWith("unreadable canary: "), reason(cut));

                // 64 bytes: no letter fits; it is retried, the consumer waits, readiness and liveness stay up. Held
                // past the throttled commit's age for records left unacknowledged (%test: 3 s, checked at each
                // commit, every 5 s), the channel was closed for good and liveness went DOWN: it is not checked here
                letterLimit(admin, dlq, AlterConfigOp.OpType.SET, "64");
                assertEquals(3000, ConfigProvider.getConfig().getValue(
                        "mp.messaging.connector.smallrye-kafka.throttled.unprocessed-record-max-age.ms", Integer.class),
                        "the hold below outlasts the check only with the %test age (application.properties)");
                double before = retried();
                companion.produceStrings().fromRecords(
                        new ProducerRecord<>(CanaryConsumer.CHANNEL, poisonKey, "this is not a canary either"),
                        new ProducerRecord<>(CanaryConsumer.CHANNEL, good.toString(), canary(good)))
                        .awaitCompletion(Duration.ofSeconds(30));
                await().atMost(Duration.ofSeconds(60)).until(() -> retried() >= before + 2);
                Thread.sleep(12_000);
                assertTrue(retried() >= before + 4, "still waiting for the letter");
                ready();
                live();
            } finally {
                letterLimit(admin, dlq, AlterConfigOp.OpType.DELETE, null);
            }
            ConsumerRecord<String, String> letter = Kafka.awaitRecords(companion, CanaryConsumer.DEAD_LETTER_TOPIC, 1,
                    r -> poisonKey.equals(r.key())).get(0);
            assertEquals("this is not a canary either", letter.value());
            assertTrue(reason(letter).startsWith("unreadable canary: "), reason(letter));
            await().atMost(Duration.ofSeconds(60)).until(
                    () -> QuarkusTransaction.requiringNew().call(() -> Canary.findById(good) != null));
        }
        ready();
        live();
    }

    private static String canary(UUID id) {
        return "{\"id\":\"" + id + "\",\"sentAt\":\"" + Instant.now() + "\"}";
    }

    static final String CANARIES = "leaderboard_canaries_total";

    @Test
    void canariesThatCannotBeReadOrStoredAreDeadLetteredAndTheCanaryConsumerGoesOn() {
        UUID beyond = UUID.randomUUID();
        UUID good = UUID.randomUUID();
        String poisonKey = "canary-poison-" + UUID.randomUUID();
        double deadLettered = PrometheusText.value(CANARIES, "outcome", "DEAD_LETTER");
        try (KafkaCompanion companion = com.bloceclat.testsupport.KafkaResource.companion()) {
            companion.produceStrings().fromRecords(
                    // An instant Java reads but PostgreSQL cannot store (its timestamps end in 294276).
                    new ProducerRecord<>(CanaryConsumer.CHANNEL, poisonKey,
                            "{\"id\":\"" + beyond + "\",\"sentAt\":\"+300000-01-01T00:00:00Z\"}"),
                    new ProducerRecord<>(CanaryConsumer.CHANNEL, poisonKey, "this is not a canary"),
                    new ProducerRecord<>(CanaryConsumer.CHANNEL, good.toString(),
                            "{\"id\":\"" + good + "\",\"sentAt\":\"" + Instant.now() + "\"}"))
                    .awaitCompletion(Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(60)).until(
                    () -> QuarkusTransaction.requiringNew().call(() -> Canary.findById(good) != null));
            List<ConsumerRecord<String, String>> letters = Kafka.awaitRecords(companion,
                    CanaryConsumer.DEAD_LETTER_TOPIC, 2, r -> poisonKey.equals(r.key()));
            String first = reason(letters.get(0));
            assertTrue(first.startsWith("database: "), first);
            assertTrue(letters.get(0).value().contains("+300000"));
            assertTrue(reason(letters.get(1)).startsWith("unreadable canary: "), reason(letters.get(1)));
            assertEquals("this is not a canary", letters.get(1).value());
        }
        // counted (docs: leaderboard_canaries_total{outcome="DEAD_LETTER"}), just after each letter is sent
        await().atMost(Duration.ofSeconds(30)).until(
                () -> PrometheusText.value(CANARIES, "outcome", "DEAD_LETTER") >= deadLettered + 2);
        assertNull(QuarkusTransaction.requiringNew().call(() -> Canary.findById(beyond)));
        ready();
    }

    static String reason(ConsumerRecord<String, String> letter) {
        Header header = letter.headers().lastHeader("dead-letter-reason");
        return header == null ? "(no reason header)" : new String(header.value(), StandardCharsets.UTF_8);
    }
}
