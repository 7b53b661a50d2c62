package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.hibernate.SessionFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.leaderboard.service.Period;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The EASY leaderboard belongs to this class: of the other tests of this application that publish EASY games,
 * LongGameTest removes its record, and SuspicionTest runs after this class (JUnit orders the classes by name).
 */
@QuarkusTest
class LeaderboardResourceTest {

    static final List<GameFinished> games = new ArrayList<>();

    @Inject
    SessionFactory sessionFactory;
    static GameFinished old;

    @BeforeAll
    static void publishRecords() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String[] names = {"ann", "ben", "cid"};
        for (int i = 0; i < names.length; i++) {
            Replay replay = Games.played(100 + i, Level.EASY, 2 + 2 * i).replay();
            games.add(Games.finished(UUID.randomUUID(), Games.player(names[i]), replay.toJson(),
                    now.minusSeconds(10 * i)));
        }
        // ben's second game, ten days ago: all time only.
        old = Games.finished(UUID.randomUUID(), Games.player("ben"), Games.played(200, Level.EASY, 8).replay().toJson(),
                now.minus(10, ChronoUnit.DAYS));
        Games.publish(games.get(0), games.get(1), games.get(2), old);
        await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                () -> GameRecord.count("level", "EASY") == 4));
    }

    static List<String> ranked(List<GameFinished> finished) {
        return finished.stream()
                .sorted(Comparator.comparingInt((GameFinished g) -> g.replay().get("claimedScore").intValue())
                        .reversed().thenComparing(GameFinished::finishedAt))
                .map(g -> g.gameId().toString())
                .toList();
    }

    @Test
    void theLeaderboardRanksRecordsBestFirstForEachPeriod() {
        List<GameFinished> all = new ArrayList<>(games);
        all.add(old);
        List<String> expected = ranked(all);
        List<String> ids = given().when().get("/api/leaderboards/easy").then()
                .statusCode(200)
                .body("level", equalTo("EASY"))
                .body("period", equalTo("all"))
                .body("more", equalTo(false))
                .body("entries.rank", contains(1, 2, 3, 4))
                .extract().path("entries.gameId");
        assertEquals(expected, ids);
        for (String period : new String[] {"today", "week", "WEEK"}) {
            List<String> recent = given().queryParam("period", period).when().get("/api/leaderboards/EASY").then()
                    .statusCode(200).extract().path("entries.gameId");
            assertEquals(ranked(games), recent, period);
        }
        given().queryParam("size", 3).when().get("/api/leaderboards/Easy").then()
                .body("entries", hasSize(3)).body("more", equalTo(true));
        given().queryParam("size", 3).queryParam("page", 1).when().get("/api/leaderboards/easy").then()
                .body("entries", hasSize(1)).body("more", equalTo(false))
                .body("entries[0].rank", equalTo(4))
                .body("entries[0].gameId", equalTo(expected.get(3)));
    }

    /**
     * Today's and this week's boards read their period along an index of their own (V7): filtered by the time a record
     * finished, a page of today's board read every record of all time ranked above today's, or every record of the
     * day (docs/benchmarks.md "leaderboard-service"). Sequential scans are off for the plan, so that the tables' few
     * rows do not decide it: what is checked is that the statement can use the index at all.
     */
    @Test
    void todaysAndThisWeeksBoardsReadTheirPeriodAlongAnIndexOfTheirOwn() {
        for (Period period : new Period[] {Period.TODAY, Period.WEEK}) {
            String plan = QuarkusTransaction.requiringNew().call(() -> {
                var em = GameRecord.getEntityManager();
                em.createNativeQuery("SET LOCAL enable_seqscan = off").executeUpdate();
                return String.join("\n", em.createNativeQuery("EXPLAIN " + GameRecord.topSql(period) + " LIMIT 21")
                        .setParameter("level", "EASY").setParameter("start", java.time.LocalDate.now())
                        .getResultList().stream().map(Object::toString).toList());
            });
            assertTrue(plan.contains(period == Period.TODAY ? "game_record_top_day" : "game_record_top_week"), plan);
        }
    }

    /**
     * A player's standing reads one row for its best and at most {@link GameRecord#COUNTED_UP_TO} for its count,
     * whatever the player holds: an account that loops records (docs/security.md "Not bounded") made each public
     * lookup of it read all of them. Its records all score the same, as such a loop's do, which the all-time index
     * (ending at the score) read to the last to find the earliest. The rows are deleted after.
     */
    @Test
    void aPlayersRecordsAreCountedUpToABoundAndTheBestIsTheFirstOfAnIndex() {
        int held = GameRecord.COUNTED_UP_TO + 5;
        String insert = " SELECT md5('looper' || i)::uuid, %s FROM generate_series(1, " + held + ") i";
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                var em = GameRecord.getEntityManager();
                em.createNativeQuery("INSERT INTO game_audit (game_id, outcome, player_subject, player_name, mode, "
                        + "level, seed, score, rounds, valid_events, assisted, game_over, finished_at, processed_at, "
                        + "replay, trace)" + insert.formatted("'RECORD', 'sub-looper', 'looper', 'SOLO', 'HARD', "
                        + "7000000000 + i, 12, 1, 1, false, true, now() - i * interval '1 ms', now(), '{}', '[]'"))
                        .executeUpdate();
                em.createNativeQuery("INSERT INTO game_record (game_id, level, player_subject, player_name, seed, "
                        + "score, rounds, finished_at)" + insert.formatted("'HARD', 'sub-looper', 'looper', "
                        + "7000000000 + i, 12, 1, now() - i * interval '1 ms'")).executeUpdate();
                em.createNativeQuery("ANALYZE game_record").executeUpdate();
            });
            String earliest = QuarkusTransaction.requiringNew().call(() -> GameRecord.getEntityManager()
                    .createNativeQuery("SELECT md5('looper' || " + held + ")::uuid::text").getSingleResult())
                    .toString();
            for (String period : new String[] {"all", "today", "week"}) {
                given().queryParam("period", period).when().get("/api/leaderboards/hard/players/sub-looper").then()
                        .statusCode(200)
                        .body("records", equalTo(GameRecord.COUNTED_UP_TO))
                        .body("best.gameId", equalTo(earliest));
            }
        } finally {
            QuarkusTransaction.requiringNew().run(() -> {
                var em = GameRecord.getEntityManager();
                em.createNativeQuery("DELETE FROM game_record WHERE player_subject = 'sub-looper'").executeUpdate();
                em.createNativeQuery("DELETE FROM game_audit WHERE player_subject = 'sub-looper'").executeUpdate();
            });
        }
    }

    /**
     * The statements of a player's standing in each period: the best is the first row of an index in the boards'
     * order (no sort: with the all-time index ending at the score, the records of the top score were all read and
     * sorted), and the count stops at its bound along the same rows. As for the boards' plans above, sequential scans
     * are off.
     */
    @Test
    void aPlayersStandingReadsTheFirstRowOfAnIndexOfItsOwnInEachPeriod() {
        for (Period period : Period.values()) {
            String index = switch (period) {
                case ALL -> "game_record_player_all";
                case TODAY -> "game_record_player_day";
                case WEEK -> "game_record_player_week";
            };
            String best = plan(GameRecord.bestSql(period), period);
            assertTrue(best.contains(index) && !best.contains("Sort"), best);
            String count = plan(GameRecord.countSql(period), period); // all time: any of the three holds its rows
            assertTrue(count.contains(period == Period.ALL ? "game_record_player_" : index) && count.contains("Limit"),
                    count);
        }
    }

    private static String plan(String sql, Period period) {
        return QuarkusTransaction.requiringNew().call(() -> {
            var em = GameRecord.getEntityManager();
            em.createNativeQuery("SET LOCAL enable_seqscan = off").executeUpdate();
            var explain = em.createNativeQuery("EXPLAIN " + sql).setParameter("subject", "sub-ann")
                    .setParameter("level", "EASY");
            if (sql.contains(":most")) {
                explain.setParameter("most", GameRecord.COUNTED_UP_TO);
            }
            if (period != Period.ALL) {
                explain.setParameter("start", LocalDate.now());
            }
            return String.join("\n", explain.getResultList().stream().map(Object::toString).toList());
        });
    }

    @Test
    void aPlayersBestAndRank() {
        List<GameFinished> all = new ArrayList<>(games);
        all.add(old);
        List<String> expected = ranked(all);
        GameFinished bensBest = expected.indexOf(old.gameId().toString()) < expected.indexOf(
                games.get(1).gameId().toString()) ? old : games.get(1);
        given().when().get("/api/leaderboards/easy/players/sub-ben").then()
                .statusCode(200)
                .body("player", equalTo("ben"))
                .body("records", equalTo(2))
                .body("best.gameId", equalTo(bensBest.gameId().toString()))
                .body("best.rank", equalTo(expected.indexOf(bensBest.gameId().toString()) + 1));
        given().queryParam("period", "today").when().get("/api/leaderboards/easy/players/sub-ben").then()
                .statusCode(200)
                .body("records", equalTo(1))
                .body("best.gameId", equalTo(games.get(1).gameId().toString()))
                .body("best.rank", equalTo(ranked(games).indexOf(games.get(1).gameId().toString()) + 1));
        given().when().get("/api/leaderboards/easy/players/sub-nobody").then()
                .statusCode(404).contentType("application/problem+json");

        given().auth().oauth2(Tokens.player("ann")).when().get("/api/leaderboards/easy/me").then()
                .statusCode(200)
                .body("playerId", equalTo("sub-ann"))
                .body("best.gameId", equalTo(games.get(0).gameId().toString()))
                .body("best.rank", equalTo(expected.indexOf(games.get(0).gameId().toString()) + 1));
        given().auth().oauth2(Tokens.player("ann")).when().get("/api/leaderboards/hard/me").then()
                .statusCode(200).body("best", nullValue()).body("records", equalTo(0));
        given().auth().oauth2(Tokens.player("cid")).when().get("/api/leaderboards/me").then()
                .statusCode(200)
                .body("records.level", contains("EASY"))
                .body("records[0].best.gameId", equalTo(games.get(2).gameId().toString()));
        // the list reads the columns it shows, never a game's replay and trace (tens of megabytes for a long game)
        sessionFactory.getStatistics().clear();
        given().auth().oauth2(Tokens.player("cid")).when().get("/api/leaderboards/me/games").then()
                .statusCode(200)
                .body("games.gameId", contains(games.get(2).gameId().toString()))
                .body("games[0].outcome", equalTo("RECORD"))
                .body("games[0].mode", equalTo("SOLO"))
                .body("games[0].struck", equalTo(false));
        assertEquals(0, sessionFactory.getStatistics().getEntityStatistics(GameAudit.class.getName()).getLoadCount(),
                "no audit loaded whole");
        assertEquals(0, sessionFactory.getStatistics().getEntityStatistics(GameRecord.class.getName()).getLoadCount(),
                "no record read apart");
    }

    /**
     * Ties (docs/leaderboard-service.md: "best score first, then the earlier game, then the game id"; top N reads
     * {@code game_record_top (level, score DESC, finished_at, game_id)}): four DIABOLICAL records given one score, a
     * score no played game reaches, so that they top the board whatever other classes leave there. Their finishing
     * times and game ids are set so that neither the times alone nor the ids alone give the board's order: {@code a}
     * finished first and has the largest id; {@code b} and {@code c} finished together a second later, {@code b} with
     * the smaller id; {@code d} finished last and has the smallest id. The order is a, b, c, d. {@code b} and {@code c}
     * are one player's, whose best is then {@code b}. The times are today's first seconds (UTC), so the same records
     * are on today's and this week's boards.
     */
    record Tied(GameFinished.Player p1, GameFinished.Player p2, GameFinished.Player p3, List<String> order,
            LocalDate day) {
    }

    static final int TIED_SCORE = 2_000_000_000;

    static Tied tied;

    /** The tied records, published once a UTC day for the tests that read them (today's board is the day's). */
    static synchronized Tied tied() {
        if (tied != null && tied.day().equals(LocalDate.now(ZoneOffset.UTC))) {
            return tied;
        }
        String base = UUID.randomUUID().toString().substring(1);
        // first hex digit 1 to 4: the same order as UUIDs in PostgreSQL (bytewise) and in Java (signed)
        UUID a = UUID.fromString("4" + base);
        UUID b = UUID.fromString("2" + base);
        UUID c = UUID.fromString("3" + base);
        UUID d = UUID.fromString("1" + base);
        String run = UUID.randomUUID().toString();
        GameFinished.Player p1 = Games.player("tie-first-" + run);
        GameFinished.Player p2 = Games.player("tie-twice-" + run);
        GameFinished.Player p3 = Games.player("tie-last-" + run);
        Instant now = Instant.now();
        Games.publish(tiedGame(a, p1, now), tiedGame(b, p2, now), tiedGame(c, p2, now), tiedGame(d, p3, now));
        await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                () -> GameRecord.count("gameId in ?1", List.of(a, b, c, d)) == 4));
        LocalDate day = LocalDate.now(ZoneOffset.UTC);
        Instant midnight = day.atStartOfDay().toInstant(ZoneOffset.UTC);
        QuarkusTransaction.requiringNew().run(() -> {
            for (Object[] set : new Object[][] {{a, 0}, {b, 1}, {c, 1}, {d, 2}}) {
                GameRecord.getEntityManager().createNativeQuery(
                        "UPDATE game_record SET score = :score, finished_at = :at WHERE game_id = :id")
                        .setParameter("score", TIED_SCORE)
                        .setParameter("at", midnight.plusSeconds((Integer) set[1]).atOffset(ZoneOffset.UTC))
                        .setParameter("id", set[0]).executeUpdate();
            }
        });
        tied = new Tied(p1, p2, p3, List.of(a.toString(), b.toString(), c.toString(), d.toString()), day);
        return tied;
    }

    private static GameFinished tiedGame(UUID id, GameFinished.Player player, Instant finishedAt) {
        return Games.finished(id, player, Games.quick(Games.freshSeed(), Level.DIABOLICAL, 2).replay().toJson(),
                finishedAt);
    }

    /**
     * The tied records as the board of {@code period} lists them (in its order, with their ranks), and each player's
     * standing agreeing with it: the rank the board gives the player's best, the best being the player's first entry.
     */
    private static void tiesAreBrokenByTheEarlierGameThenTheGameIdOn(String period) {
        LocalDate day = LocalDate.now(ZoneOffset.UTC);
        try {
            tiesOn(period);
        } catch (AssertionError e) {
            if (LocalDate.now(ZoneOffset.UTC).equals(day)) {
                throw e;
            }
            tiesOn(period); // the UTC day (and maybe the week) turned meanwhile: once more, on the new day's records
        }
    }

    private static void tiesOn(String period) {
        Tied t = tied();
        JsonPath board = given().queryParam("period", period).queryParam("size", 100)
                .when().get("/api/leaderboards/diabolical").then().statusCode(200).extract().jsonPath();
        List<String> ids = board.getList("entries.gameId");
        List<Integer> ranks = board.getList("entries.rank");
        List<String> ours = ids.stream().filter(t.order()::contains).toList();
        assertEquals(t.order(), ours, period + ": the earlier game first, then the smaller game id");
        Object[][] standings = {{t.p1(), 0, 1}, {t.p2(), 1, 2}, {t.p3(), 3, 1}};
        for (Object[] s : standings) {
            GameFinished.Player player = (GameFinished.Player) s[0];
            String best = t.order().get((Integer) s[1]);
            given().queryParam("period", period).when().get("/api/leaderboards/diabolical/players/" + player.subject())
                    .then().statusCode(200)
                    .body("records", equalTo(s[2]))
                    .body("best.gameId", equalTo(best))
                    .body("best.score", equalTo(TIED_SCORE))
                    .body("best.rank", equalTo(ranks.get(ids.indexOf(best))));
        }
    }

    @Test
    void onTheAllTimeBoardTiesGoToTheEarlierGameThenTheSmallerGameIdAndRanksAgree() {
        tiesAreBrokenByTheEarlierGameThenTheGameIdOn("all");
    }

    @Test
    void onTodaysAndThisWeeksBoardsTiesGoToTheEarlierGameThenTheSmallerGameIdAndRanksAgree() {
        tiesAreBrokenByTheEarlierGameThenTheGameIdOn("today");
        tiesAreBrokenByTheEarlierGameThenTheGameIdOn("week");
    }

    @Test
    void badLevelsPeriodsAndPagingAre400WithAProblemBody() {
        given().when().get("/api/leaderboards/nightmare").then()
                .statusCode(400).contentType("application/problem+json")
                .body("status", equalTo(400))
                .body("detail", equalTo("Unknown level 'nightmare'; levels are EASY, MEDIUM, HARD, EXPERT, DIABOLICAL"));
        given().queryParam("period", "year").when().get("/api/leaderboards/easy").then()
                .statusCode(400).body("detail", equalTo("Unknown period 'year'; periods are all, today and week"));
        given().queryParam("page", "first").when().get("/api/leaderboards/easy").then()
                .statusCode(400).body("detail", equalTo("'page' must be a whole number from 0 to 100, got 'first'"));
        given().queryParam("page", -1).when().get("/api/leaderboards/easy").then()
                .statusCode(400).body("detail", equalTo("'page' must be from 0 to 100, got -1"));
        // past page 100 of 100: no request reads more than 10,100 rows of a board
        given().queryParam("page", 101).queryParam("size", 100).when().get("/api/leaderboards/easy").then()
                .statusCode(400).body("detail", equalTo("'page' must be from 0 to 100, got 101"));
        given().queryParam("size", 101).when().get("/api/leaderboards/easy").then()
                .statusCode(400).body("detail", equalTo("'size' must be from 1 to 100, got 101"));
        given().when().get("/api/leaderboards/nightmare/players/sub-ann").then().statusCode(400);
        given().auth().oauth2(Tokens.player("ann")).queryParam("size", "x").when().get("/api/leaderboards/me/games")
                .then().statusCode(400);
    }

    @Test
    void theCallersEndpointsNeedAValidToken() {
        for (String path : new String[] {"/api/leaderboards/me", "/api/leaderboards/easy/me",
                "/api/leaderboards/me/games"}) {
            given().when().get(path).then().statusCode(401);
            given().auth().oauth2(Tokens.expired("alice")).when().get(path).then().statusCode(401);
            given().auth().oauth2(Tokens.forged("alice")).when().get(path).then().statusCode(401);
        }
        given().when().get("/api/leaderboards/easy").then().statusCode(200);
        given().when().get("/api/leaderboards/easy/players/sub-ann").then().statusCode(200);
    }

    @Test
    void aPlayerWithoutRecordsSeesTheirIdentityAndNoRecords() {
        given().auth().oauth2(Tokens.player("bob"))
                .when().get("/api/leaderboards/me")
                .then()
                .statusCode(200)
                .body("subject", equalTo("sub-bob"))
                .body("name", equalTo("bob"))
                .body("roles", contains("player"))
                .body("records", empty());
        given().auth().oauth2(Tokens.player("bob")).when().get("/api/leaderboards/me/games").then()
                .statusCode(200).body("games", empty()).body("more", equalTo(false));
    }
}
