package com.bloceclat.leaderboard;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.testsupport.FlywaySchemas;

/**
 * Stopping the packaged service in the middle of a burst of 1,000 finished games, once by a crash (SIGKILL) and once
 * gracefully (SIGTERM), loses nothing and duplicates nothing: in the end every game has exactly one audit row with
 * the outcome it deserves, and every record is there.
 */
class RestartIT {

    static final int GAMES = 1000;

    static PackagedService service;

    @BeforeAll
    static void infrastructure() {
        service = new PackagedService(Path.of("target", "restart-it"));
    }

    @AfterAll
    static void tearDown() {
        if (service != null) {
            service.close();
        }
    }

    /**
     * k8s migrates the database in an init container (k8s/leaderboard-service.yaml): the service's own image with
     * {@code QUARKUS_INIT_AND_EXIT=true} runs the Flyway migrations and exits 0, before the service's container starts
     * and outside its startup probe (a long migration inside the probe's 3 minutes was killed and started again),
     * given the database's settings and the trusted keys its configuration requires, without Kafka or the OIDC
     * server. Here into a schema of its own, so that the migrations run from the first.
     */
    @Test
    void initAndExitMigratesTheDatabaseAndExitsWithoutKafkaOrOidc() throws Exception {
        String schema = FlywaySchemas.fresh();
        // as k8s/leaderboard-service.yaml's init container: a pool of 2
        PackagedService.Exited run = service.runToExit(Map.of("QUARKUS_INIT_AND_EXIT", "true",
                "QUARKUS_DATASOURCE_JDBC_MAX_SIZE", "2", "QUARKUS_FLYWAY_SCHEMAS", schema),
                "KAFKA_BOOTSTRAP_SERVERS", "QUARKUS_OIDC_AUTH_SERVER_URL");
        assertEquals(0, run.code(), run.log());
        try (Connection c = service.database()) {
            FlywaySchemas.assertMigratedThenDrop(c, schema);
        }
    }

    @Test
    void aBurstInterruptedByACrashAndAStopEndsWithOneAuditPerGameAndNoRecordLost() throws Exception {
        List<ProducerRecord<String, String>> burst = new ArrayList<>();
        Map<String, String> expected = new HashMap<>();
        for (int i = 0; i < GAMES; i++) {
            GameFinished game = game(i);
            burst.add(Games.message(game));
            expected.put(game.gameId().toString(), outcomeOf(i).name());
        }

        // The burst is published at 50 games a second while the service is started, killed, started, stopped and
        // started again: whatever the interleaving, the end state must be the same.
        Thread publisher = new Thread(() -> {
            try (KafkaProducer<String, String> producer = service.producer()) {
                for (ProducerRecord<String, String> record : burst) {
                    producer.send(record);
                    PackagedService.sleep(20);
                }
            }
        }, "burst");
        service.start();
        publisher.start();
        awaitAudits(150);
        service.kill();
        int afterCrash = audits();

        service.start();
        awaitAudits(afterCrash + 300);
        String redelivered = duplicates();
        service.stop();
        int afterStop = audits();

        service.start();
        publisher.join();
        awaitAudits(GAMES);

        try (Connection db = service.database()) {
            assertJudgedOnce(db, expected);
        }
        System.out.printf("RestartIT: %d audits when killed, %s redelivered messages found known after it, %d audits "
                + "when stopped, %d games in all%n", afterCrash, redelivered, afterStop, GAMES);
    }

    /**
     * One audit per game id of {@code expected} (game id to outcome), each with its outcome, none lost; one record per
     * game whose outcome is a record, and no other record.
     */
    static void assertJudgedOnce(Connection db, Map<String, String> expected) throws SQLException {
        try (Statement sql = db.createStatement()) {
            Map<String, String> outcomes = new HashMap<>();
            try (ResultSet rows = sql.executeQuery("SELECT game_id, outcome FROM game_audit")) {
                while (rows.next()) {
                    String previous = outcomes.put(rows.getString(1), rows.getString(2));
                    assertEquals(null, previous, "a second audit row for " + rows.getString(1));
                }
            }
            assertEquals(expected, outcomes, "one audit per game, each with the outcome it deserves, none lost");
            Set<String> records = new HashSet<>();
            try (ResultSet rows = sql.executeQuery("SELECT game_id FROM game_record")) {
                while (rows.next()) {
                    assertTrue(records.add(rows.getString(1)), "a second record for " + rows.getString(1));
                }
            }
            Set<String> expectedRecords = new HashSet<>();
            expected.forEach((id, outcome) -> {
                if (outcome.equals(Outcome.RECORD.name())) {
                    expectedRecords.add(id);
                }
            });
            assertEquals(expectedRecords, records, "every record and nothing else");
        }
    }

    /** Game i: mostly honest players' games; every 10th a guest's, an assisted one, a doctored one. */
    static GameFinished game(int i) {
        Level level = Level.values()[i % Level.values().length];
        Game game = Games.quick(1000L + i, level, 1 + i % 6);
        Replay replay = game.replay();
        if (i % 10 == 2 && !game.gameOver()) {
            game.hintShown();
            replay = game.replay();
        }
        if (i % 10 == 3) {
            replay = new Replay(1, replay.seed(), replay.level(), replay.events(), replay.rounds(),
                    replay.claimedScore() + 7, replay.claimedRounds(), replay.assisted());
        }
        GameFinished.Player player = i % 10 == 1 ? null : Games.player("player-" + i % 37);
        return Games.finished(UUID.nameUUIDFromBytes(("restart-" + i).getBytes()), player, replay.toJson(),
                Instant.parse("2026-11-29T12:00:00Z").plusSeconds(i));
    }

    static Outcome outcomeOf(int i) {
        return switch (i % 10) {
            case 1 -> Outcome.VALID_NOT_ELIGIBLE;
            case 2 -> Games.quick(1000L + i, Level.values()[i % Level.values().length], 1 + i % 6).gameOver()
                    ? Outcome.RECORD : Outcome.VALID_NOT_ELIGIBLE;
            case 3 -> Outcome.REJECTED;
            default -> Outcome.RECORD;
        };
    }

    /** How many messages the running service found already judged (its metric), for the test's output. */
    static String duplicates() throws Exception {
        return duplicatesOf(service);
    }

    static String duplicatesOf(PackagedService service) throws Exception {
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(service.baseUrl() + "/q/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        return metrics.body().lines()
                .filter(line -> line.startsWith("leaderboard_games_total{") && line.contains("outcome=\"REDELIVERED\""))
                .map(line -> line.substring(line.lastIndexOf(' ') + 1))
                .findFirst().orElse("0");
    }

    static void awaitAudits(int atLeast) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() -> audits() >= atLeast);
    }

    static int audits() throws SQLException {
        try (Connection db = service.database(); Statement sql = db.createStatement()) {
            try (ResultSet rows = sql.executeQuery(
                    "SELECT count(*) FROM information_schema.tables WHERE table_name = 'game_audit'")) {
                rows.next();
                if (rows.getInt(1) == 0) {
                    return 0;
                }
            }
            try (ResultSet rows = sql.executeQuery("SELECT count(*) FROM game_audit")) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }
}
