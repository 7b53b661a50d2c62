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
