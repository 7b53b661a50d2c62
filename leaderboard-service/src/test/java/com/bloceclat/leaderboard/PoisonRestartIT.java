package com.bloceclat.leaderboard;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.GameFinishedDeadLetter;
import com.bloceclat.engine.Level;

import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/**
 * Issue 13's second fault on the packaged service: poison messages (one out of bounds, one the database refuses)
 * between good ones neither stop the consumer nor its readiness, and a service that reads the whole topic again
 * (a new consumer group, as after Kafka offsets were lost) becomes ready and goes on: the poison is dead-lettered
 * again, nothing is judged twice.
 */
class PoisonRestartIT {

    static PackagedService service;

    @BeforeAll
    static void infrastructure() {
        service = new PackagedService(Path.of("target", "poison-restart-it"));
    }

    @AfterAll
    static void tearDown() {
        if (service != null) {
            service.close();
        }
    }

    static GameFinished game(String subject) {
        return Games.finished(new GameFinished.Player(subject, "p"),
                Games.quick(Games.freshSeed(), Level.HARD, 2).replay());
    }

    @Test
    void poisonBetweenGoodGamesIsDeadLetteredAndAServiceReReadingTheTopicBecomesReady() throws Exception {
        service.start();
        sql("""
                CREATE OR REPLACE FUNCTION test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.player_subject LIKE 'sub-db-poison-%' THEN
                        RAISE EXCEPTION 'value too long (test trigger)' USING ERRCODE = '22001';
                    END IF;
                    RETURN NEW;
                END $$;
                CREATE TRIGGER test_refuse BEFORE INSERT ON game_audit FOR EACH ROW EXECUTE FUNCTION test_refuse();
                """);
        GameFinished good1 = game("sub-good-1");
        GameFinished tooLong = Games.finished(new GameFinished.Player("s".repeat(300), "long"),
                Games.quick(Games.freshSeed(), Level.HARD, 2).replay());
        GameFinished refusedByDb = game("sub-db-poison-1");
        GameFinished good2 = game("sub-good-2");
        try (KafkaProducer<String, String> producer = service.producer()) {
            for (ProducerRecord<String, String> r : List.of(Games.message(good1), Games.message(tooLong),
                    Games.message(refusedByDb), Games.message(good2))) {
                producer.send(r);
            }
        }
        awaitAudits(2);
        assertEquals(List.of(good1.gameId().toString(), good2.gameId().toString()).stream().sorted().toList(),
                auditedIds());
        assertEquals(200, ready());
        assertEquals(2, letters(2).size());

        // Read everything again: the poison fails again (dead-lettered again), the good games are known.
        service.stop();
        service.start("-Dmp.messaging.incoming.game-finished.group.id=leaderboard-reread-" + UUID.randomUUID());
        List<ConsumerRecord<String, String>> letters = letters(4);
        assertTrue(GameFinishedDeadLetter.fromJson(letters.get(2).value()).error().contains("300 characters"),
                letters.get(2).value());
        assertTrue(GameFinishedDeadLetter.fromJson(letters.get(3).value()).error().startsWith("database: "),
                letters.get(3).value());
        GameFinished good3 = game("sub-good-3");
        try (KafkaProducer<String, String> producer = service.producer()) {
            producer.send(Games.message(good3));
        }
        awaitAudits(3);
        assertEquals(200, ready());
        assertEquals(3, auditedIds().size());
    }

    /**
     * A trusted key that cannot be read (k8s/config.yaml's placeholder) must stop the start-up with the reason, as
     * docs/leaderboard-service.md says: before, the keys were read when the first message arrived, so the service
     * started and answered ready, and its consumer then stopped at the first finished game.
     */
    @Test
    void aSigningKeyThatCannotBeReadStopsTheStartUp() throws Exception {
        assertTheStartStops("bad-key", "BLOC_SIGNING_PUBLIC_KEYS",
                "replace-me-key-id:REPLACE-ME-base64-x509-ed25519-public-key", "replace-me-key-id");
    }

    /** The k8s template's client secret (PlaceholderSecrets, service-common): the packaged service stops at once. */
    @Test
    void aClientSecretLeftAtTheTemplatesPlaceholderStopsTheStartUp() throws Exception {
        assertTheStartStops("placeholder-secret", "QUARKUS_OIDC_CREDENTIALS_SECRET",
                "REPLACE-ME-services-client-secret", "QUARKUS_OIDC_CREDENTIALS_SECRET");
    }

    /** A replica started with {@code variable} set to {@code value} exits at start-up, its log naming {@code named}. */
    private static void assertTheStartStops(String run, String variable, String value, String named) throws Exception {
        Path logs = Path.of("target", "poison-restart-it", run);
        PackagedService replica = service.replica(logs);
        replica.env(variable, value);
        try {
            IllegalStateException failed = assertThrows(IllegalStateException.class, replica::start);
            assertTrue(failed.getMessage().contains("exited with"), failed.getMessage());
            String log = Files.readString(logs.resolve("leaderboard-service-run-1.log"));
            assertTrue(log.contains(named), "the log names " + named);
        } finally {
            replica.close();
        }
    }

    static List<ConsumerRecord<String, String>> letters(int count) {
        try (KafkaCompanion companion = new KafkaCompanion(service.bootstrapServers())) {
            return Kafka.awaitRecords(companion, GameFinishedDeadLetter.CHANNEL, count, r -> true);
        }
    }

    static int ready() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(service.baseUrl() + "/q/health/ready")).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode();
    }

    static void sql(String statements) throws SQLException {
        try (Connection db = service.database(); Statement sql = db.createStatement()) {
            sql.execute(statements);
        }
    }

    static List<String> auditedIds() throws SQLException {
        try (Connection db = service.database(); Statement sql = db.createStatement();
                ResultSet rows = sql.executeQuery("SELECT game_id FROM game_audit ORDER BY game_id::text")) {
            List<String> ids = new java.util.ArrayList<>();
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
            return ids;
        }
    }

    static void awaitAudits(int atLeast) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                .until(() -> auditedIds().size() >= atLeast);
    }
}
