package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.bloceclat.game.Play.As;
import com.bloceclat.game.Play.Started;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.GameRetention;
import com.bloceclat.testsupport.PrometheusText;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;

/**
 * Retention (docs/game-service.md "Retention"): games, matches, race tickets and invitations nobody has changed for
 * the retention are deleted by a scheduled pass; nothing younger, and nothing a player holds locked. The passes run
 * here directly with a retention of two days, over rows made three days old by hand (the scheduler's own passes keep
 * 90 days, so they never take these first); everything else in this run's database is younger.
 */
@QuarkusTest
class GameRetentionTest {

    private static final GameRetention.Policy TWO_DAYS = new GameRetention.Policy(Duration.ofDays(2), 500, 100_000);

    @Inject
    GameRetention retention;

    @Inject
    GameConfig.Retention config;

    @Inject
    Scheduler scheduler;

    @Test
    void aGameUnchangedForTheRetentionIsDeletedWithItsEventsFinishedOrNotAndNoOtherIs() {
        Started playing = Play.create(As.guest(null), "EASY", 11);
        Play.playOne(playing, 1);
        Started resigned = Play.create(As.guest(null), "EASY", 12);
        Play.playOne(resigned, 1);
        resigned.as().spec().when().post("/api/games/" + resigned.id() + "/resign").then().statusCode(200);
        Started young = Play.create(As.guest(null), "EASY", 13);
        Play.playOne(young, 1);
        Started oldButPlayed = Play.create(As.guest(null), "EASY", 14);
        Play.playOne(oldButPlayed, 1);
        age("game", "created_at", playing.id(), resigned.id(), oldButPlayed.id());
        age("game", "updated_at", playing.id(), resigned.id());

        GameRetention.Pruned pruned = retention.prune(Instant.now(), TWO_DAYS);

        for (Started gone : new Started[] {playing, resigned}) {
            gone.as().spec().when().get("/api/games/" + gone.id()).then().statusCode(404);
            gone.as().spec().when().get("/api/games/" + gone.id() + "/replay").then().statusCode(404);
            assertEquals(0L, count("SELECT count(*) FROM game_event WHERE game_id = :id", gone.id()));
        }
        for (Started kept : new Started[] {young, oldButPlayed}) {
            kept.as().spec().when().get("/api/games/" + kept.id()).then().statusCode(200);
            assertEquals(1L, count("SELECT count(*) FROM game_event WHERE game_id = :id", kept.id()));
        }
        assertTrue(pruned.games() >= 2 && pruned.events() >= 3, pruned.toString()); // a place, a place and a resign
    }

    @Test
    void aMatchGoesWholeWithItsTicketOnlyOnceEveryGameOfItIsUnchanged() {
        var old = twoPlayers();
        var half = twoPlayers();
        String oldMatch = old.path("id");
        String halfMatch = half.path("id");
        age("match", "created_at", oldMatch, halfMatch);
        age("game", "created_at", old.path("games[0].id"), old.path("games[1].id"), half.path("games[0].id"),
                half.path("games[1].id"));
        age("game", "updated_at", old.path("games[0].id"), old.path("games[1].id"), half.path("games[0].id"));
        UUID ticket = UUID.randomUUID();
        sql("INSERT INTO race_ticket (id, subject, name, level, created_at, seen_at, cancelled, match_id) "
                + "VALUES (:id, 'sub-r', 'r', 'EASY', now() - interval '3 days', now() - interval '3 days', false, "
                + "'" + oldMatch + "')", ticket);

        retention.prune(Instant.now(), TWO_DAYS);

        String token = old.path("gameToken");
        given().header("X-Game-Token", token).when().get("/api/matches/" + oldMatch).then().statusCode(404);
        given().header("X-Game-Token", token).when().get("/api/games/" + old.path("games[1].id")).then()
                .statusCode(404);
        assertEquals(0L, count("SELECT count(*) FROM race_ticket WHERE id = :id", ticket));
        // one seat played within the retention: the match and both its games stay
        String halfToken = half.path("gameToken");
        given().header("X-Game-Token", halfToken).when().get("/api/matches/" + halfMatch).then().statusCode(200);
        given().header("X-Game-Token", halfToken).when().get("/api/games/" + half.path("games[0].id")).then()
                .statusCode(200);
    }

    @Test
    void ticketsAndInvitationsThatNeverBecameAMatchGoOnceOld() {
        UUID oldTicket = UUID.randomUUID();
        UUID youngTicket = UUID.randomUUID();
        sql("INSERT INTO race_ticket (id, subject, name, level, created_at, seen_at, cancelled) "
                + "VALUES (:id, 'sub-t', 't', 'EASY', now() - interval '3 days', now() - interval '3 days', true)",
                oldTicket);
        sql("INSERT INTO race_ticket (id, subject, name, level, created_at, seen_at, cancelled) "
                + "VALUES (:id, 'sub-t', 't', 'EASY', now() - interval '3 days', now(), false)", youngTicket);
        String oldCode = "old-" + UUID.randomUUID().toString().substring(0, 8);
        String youngCode = "young-" + UUID.randomUUID().toString().substring(0, 8);
        sql("INSERT INTO private_race (code, host_subject, host_name, level, created_at, expires_at) VALUES "
                + "(:id, 'sub-h', 'h', 'EASY', now() - interval '3 days', now() - interval '3 days')", oldCode);
        sql("INSERT INTO private_race (code, host_subject, host_name, level, created_at, expires_at) VALUES "
                + "(:id, 'sub-h', 'h', 'EASY', now() - interval '3 days', now() + interval '1 hour')", youngCode);

        try {
            retention.prune(Instant.now(), TWO_DAYS);

            assertEquals(0L, count("SELECT count(*) FROM race_ticket WHERE id = :id", oldTicket));
            assertEquals(1L, count("SELECT count(*) FROM race_ticket WHERE id = :id", youngTicket),
                    "asked for lately");
            assertEquals(0L, count("SELECT count(*) FROM private_race WHERE code = :id", oldCode));
            assertEquals(1L, count("SELECT count(*) FROM private_race WHERE code = :id", youngCode), "not expired");
        } finally {
            // out of the EASY queue: waiting, it was paired with the next test's join of that level
            sql("UPDATE race_ticket SET cancelled = true WHERE id = :id", youngTicket);
        }
    }

    @Test
    void aGameWhoseRowIsLockedByAMoveIsLeftToTheNextPassWhichNeverWaitsForIt() throws Exception {
        Started g = Play.create(As.guest(null), "EASY", 15);
        Play.playOne(g, 1);
        age("game", "created_at", g.id());
        age("game", "updated_at", g.id());
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> move = holdRow(g.id(), locked, release);
        try {
            assertTrue(locked.await(10, TimeUnit.SECONDS));
            CompletableFuture<GameRetention.Pruned> pass = CompletableFuture.supplyAsync(
                    () -> retention.prune(Instant.now(), TWO_DAYS));
            pass.get(10, TimeUnit.SECONDS); // it did not wait for the lock
            assertEquals(1L, count("SELECT count(*) FROM game WHERE id = :id", g.id()), "left while locked");
        } finally {
            release.countDown();
            move.get(10, TimeUnit.SECONDS);
        }
        retention.prune(Instant.now(), TWO_DAYS);
        assertEquals(0L, count("SELECT count(*) FROM game WHERE id = :id", g.id()), "taken by the next pass");
    }

    @Test
    void aMatchWithASeatHeldByAMoveIsLeftWholeToTheNextPass() throws Exception {
        var old = twoPlayers();
        String match = old.path("id");
        String held = old.path("games[1].id");
        age("match", "created_at", match);
        age("game", "created_at", old.path("games[0].id"), held);
        age("game", "updated_at", old.path("games[0].id"), held);
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> move = holdRow(held, locked, release);
        try {
            assertTrue(locked.await(10, TimeUnit.SECONDS));
            CompletableFuture.supplyAsync(() -> retention.prune(Instant.now(), TWO_DAYS)).get(10, TimeUnit.SECONDS);
            assertEquals(1L, count("SELECT count(*) FROM match WHERE id = :id", match), "the match stays");
            assertEquals(2L, count("SELECT count(*) FROM game WHERE match_id = :id", match), "both its games too");
        } finally {
            release.countDown();
            move.get(10, TimeUnit.SECONDS);
        }
        retention.prune(Instant.now(), TWO_DAYS);
        assertEquals(0L, count("SELECT count(*) FROM game WHERE match_id = :id", match), "taken by the next pass");
        assertEquals(0L, count("SELECT count(*) FROM match WHERE id = :id", match));
    }

    /** Batches of two, and an events' bound of one a transaction: every old row still goes in one pass. */
    @Test
    void aPassGoesOnTransactionAfterTransactionWithinItsBounds() {
        java.util.List<String> games = new java.util.ArrayList<>();
        java.util.List<String> matches = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Started g = Play.create(As.guest(null), "EASY", 20 + i);
            Play.playOne(g, 1);
            games.add(g.id());
            var m = twoPlayers();
            matches.add(m.path("id"));
            age("game", "created_at", g.id(), m.path("games[0].id"), m.path("games[1].id"));
            age("game", "updated_at", g.id(), m.path("games[0].id"), m.path("games[1].id"));
            age("match", "created_at", (String) m.path("id"));
        }

        GameRetention.Pruned pruned = retention.prune(Instant.now(),
                new GameRetention.Policy(Duration.ofDays(2), 2, 1));

        for (String id : games) {
            assertEquals(0L, count("SELECT count(*) FROM game WHERE id = :id", id));
        }
        for (String id : matches) {
            assertEquals(0L, count("SELECT count(*) FROM match WHERE id = :id", id));
        }
        assertTrue(pruned.games() >= 15 && pruned.matches() >= 5, pruned.toString());
    }

    /** What game_retention_deleted_total{what} says docs/game-service.md "Retention" counts. */
    private static final java.util.List<String> DELETED = java.util.List.of("games", "events", "matches", "tickets",
            "invitations");

    /** game_retention_deleted_total{what} now, for each {@link #DELETED} (0 when not counted yet). */
    private static Map<String, Double> deleted() {
        String metrics = PrometheusText.scrape();
        Map<String, Double> counted = new java.util.TreeMap<>();
        for (String what : DELETED) {
            counted.put(what, PrometheusText.valueIn(metrics, "game_retention_deleted_total", "what", what));
        }
        return counted;
    }

    /**
     * docs/game-service.md "Retention": the rows a pass deletes are counted in
     * {@code game_retention_deleted_total{what}} ({@code games}, {@code events}, {@code matches}, {@code tickets},
     * {@code invitations}): here a solo game with its event, a match of two games, a ticket and an invitation, old;
     * the counter moves by what the pass deleted, of each kind, and that is at least these rows (other tests' old rows
     * may go with them).
     */
    @Test
    void aPassCountsWhatItDeletedOfEachKind() {
        Started solo = Play.create(As.guest(null), "EASY", 16);
        Play.playOne(solo, 1);
        age("game", "created_at", solo.id());
        age("game", "updated_at", solo.id());
        var match = twoPlayers();
        String matchId = match.path("id");
        age("match", "created_at", matchId);
        age("game", "created_at", match.path("games[0].id"), match.path("games[1].id"));
        age("game", "updated_at", match.path("games[0].id"), match.path("games[1].id"));
        UUID ticket = UUID.randomUUID();
        sql("INSERT INTO race_ticket (id, subject, name, level, created_at, seen_at, cancelled) "
                + "VALUES (:id, 'sub-c', 'c', 'EASY', now() - interval '3 days', now() - interval '3 days', true)",
                ticket);
        String invitation = "counted-" + UUID.randomUUID().toString().substring(0, 8);
        sql("INSERT INTO private_race (code, host_subject, host_name, level, created_at, expires_at) VALUES "
                + "(:id, 'sub-c', 'c', 'EASY', now() - interval '3 days', now() - interval '3 days')", invitation);
        Map<String, Double> before = deleted();

        GameRetention.Pruned pruned = retention.prune(Instant.now(), TWO_DAYS);

        Map<String, Double> after = deleted();
        // this test's rows went in this pass
        assertEquals(0L, count("SELECT count(*) FROM game WHERE id = :id", solo.id()));
        assertEquals(0L, count("SELECT count(*) FROM match WHERE id = :id", matchId));
        assertEquals(0L, count("SELECT count(*) FROM race_ticket WHERE id = :id", ticket));
        assertEquals(0L, count("SELECT count(*) FROM private_race WHERE code = :id", invitation));
        assertTrue(pruned.games() >= 3 && pruned.events() >= 1 && pruned.matches() >= 1 && pruned.tickets() >= 1
                && pruned.invitations() >= 1, pruned.toString());
        Map<String, Double> counted = new java.util.TreeMap<>();
        for (String what : DELETED) {
            counted.put(what, after.get(what) - before.get(what));
        }
        assertEquals(new java.util.TreeMap<>(Map.of("games", (double) pruned.games(), "events",
                (double) pruned.events(), "matches", (double) pruned.matches(), "tickets", (double) pruned.tickets(),
                "invitations", (double) pruned.invitations())), counted, "counted as deleted: " + pruned);
    }

    /**
     * Deleting a row checks every row that references it by the referencing column: without an index leading with
     * it, each match the pass deleted read the whole race_ticket and private_race tables (a partial index on rows
     * without a match does not serve it).
     */
    @Test
    void everyForeignKeyHasAnIndexLeadingWithItsColumn() {
        java.util.List<?> unindexed = QuarkusTransaction.requiringNew().call(() -> GameEntity.getEntityManager()
                .createNativeQuery("SELECT c.conrelid::regclass::text || '.' || a.attname FROM pg_constraint c "
                        + "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] "
                        + "WHERE c.contype = 'f' AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid "
                        + "AND i.indkey[0] = c.conkey[1] AND i.indpred IS NULL)").getResultList());
        assertEquals(java.util.List.of(), unindexed);
    }

    @Test
    void theConfiguredRetentionIsNinetyDaysRunByTheScheduler() {
        assertEquals(Duration.ofDays(90), config.games());
        assertEquals(new GameRetention.Policy(Duration.ofDays(90), 500, 100_000), retention.policy());
        assertNotNull(scheduler.getScheduledJob(GameRetention.JOB), "scheduled by the Quarkus scheduler");
        assertThrows(IllegalArgumentException.class, () -> new GameRetention.Policy(Duration.ZERO, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new GameRetention.Policy(Duration.ofDays(1), 0, 1));
    }

    /** The game's row locked in a transaction of its own, as a move holds it, until {@code release}. */
    private static CompletableFuture<Void> holdRow(String gameId, CountDownLatch locked, CountDownLatch release) {
        return CompletableFuture.runAsync(() -> QuarkusTransaction.requiringNew().run(() -> {
            GameEntity.getEntityManager().createNativeQuery("SELECT id FROM game WHERE id = :id FOR UPDATE")
                    .setParameter("id", UUID.fromString(gameId)).getResultList();
            locked.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
    }

    private static io.restassured.response.ExtractableResponse<io.restassured.response.Response> twoPlayers() {
        return given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract();
    }

    /** Sets {@code column} of the rows of {@code table} with these ids three days back. */
    private static void age(String table, String column, String... ids) {
        for (String id : ids) {
            sql("UPDATE " + table + " SET " + column + " = now() - interval '3 days' WHERE id = :id",
                    UUID.fromString(id));
        }
    }

    private static void sql(String sql, Object id) {
        QuarkusTransaction.requiringNew().run(() -> GameEntity.getEntityManager().createNativeQuery(sql)
                .setParameter("id", id).executeUpdate());
    }

    private static long count(String sql, Object id) {
        Object value = id instanceof String s && s.length() == 36 ? UUID.fromString(s) : id;
        return QuarkusTransaction.requiringNew().call(() -> ((Number) GameEntity.getEntityManager()
                .createNativeQuery(sql).setParameter("id", value).getSingleResult()).longValue());
    }
}
