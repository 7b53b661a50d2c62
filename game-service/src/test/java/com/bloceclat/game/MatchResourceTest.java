package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.bloceclat.common.security.ClientKey;
import com.bloceclat.engine.Board;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayValidator;
import com.bloceclat.testsupport.PrometheusText;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

@QuarkusTest
class MatchResourceTest {

    private static ExtractableResponse<Response> versusAi(String bearer, String level, int strength) {
        var spec = given();
        if (bearer != null) {
            spec = spec.auth().oauth2(bearer);
        }
        return spec.contentType(ContentType.JSON)
                .body(Map.of("mode", "VERSUS_AI", "level", level, "strength", strength))
                .when().post("/api/matches").then().statusCode(201).extract();
    }

    @Test
    void aVersusAiMatchWhosePersonHasNotPlayedForOpenForIsResignedForThem() {
        // Before, nothing ended it: its AI waited at every round's end for ever, a claim and a question every pace.
        String player = Tokens.player("idle-ida");
        var match = versusAi(player, "EASY", 1);
        String id = match.path("id");
        String person = match.path("games[0].id");
        // the person's last change 31 minutes ago (open-for is 30 minutes)
        QuarkusTransaction.requiringNew().run(() -> GameEntity.getEntityManager().createNativeQuery(
                "UPDATE game SET updated_at = now() - interval '31 minutes', created_at = now() - interval '31 minutes'"
                        + " WHERE id = :id").setParameter("id", java.util.UUID.fromString(person)).executeUpdate());
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(player)
                .when().get("/api/games/" + person).then().statusCode(200).body("status", equalTo("RESIGNED")));
        // its AI is no longer held at a round's end: the match ends once the AI has beaten the score or ended
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().auth().oauth2(player)
                .when().get("/api/matches/" + id).then().statusCode(200).body("status", equalTo("FINISHED")));
    }

    @Test
    void aVersusAiMatchPutsTwoGamesOnOneSeedAndTheAiPlaysItsOwn() {
        var match = versusAi(Tokens.player("gina"), "HARD", 5);
        String id = match.path("id");
        assertEquals("/api/matches/" + id, java.net.URI.create(match.header("Location")).getPath());
        List<List<String>> boards = match.path("games.board");
        assertEquals(boards.get(0), boards.get(1));
        List<String> pieces0 = match.path("games[0].pieces.id");
        assertEquals(pieces0, match.path("games[1].pieces.id"));
        assertEquals(0, (int) match.path("yourSeat"));
        assertNull(match.path("seed"));

        // the AI plays on its own, one placement per pace, through solver-service: the first two pieces of the round
        // the person is in (it waits for the person before completing it)
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().auth().oauth2(Tokens.player("gina"))
                .when().get("/api/matches/" + id).then().statusCode(200)
                .body("games[1].nextMoveNumber", equalTo(3)));
        // the person's game is untouched by it
        given().auth().oauth2(Tokens.player("gina")).when().get("/api/matches/" + id).then()
                .body("games[0].nextMoveNumber", equalTo(1)).body("status", equalTo("PLAYING"));

        given().auth().oauth2(Tokens.player("hal")).when().get("/api/matches/" + id).then().statusCode(403);
        given().when().get("/api/matches/" + id).then().statusCode(403);
        String aiGame = match.path("games[1].id");
        given().auth().oauth2(Tokens.player("gina")).when().get("/api/games/" + aiGame).then().statusCode(403);

        String mine = match.path("games[0].id");
        given().auth().oauth2(Tokens.player("gina")).when().post("/api/games/" + mine + "/hint").then()
                .statusCode(409).body("detail", equalTo("Hints and undo are for solo games."));
        given().auth().oauth2(Tokens.player("gina")).when().post("/api/games/" + mine + "/resign").then()
                .statusCode(200);
        // resigned behind the AI: the AI has won, and its game ends rather than waiting forever
        given().auth().oauth2(Tokens.player("gina")).when().get("/api/matches/" + id).then()
                .body("status", equalTo("FINISHED")).body("winnerSeat", equalTo(1));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.player("gina"))
                .when().get("/api/matches/" + id).then().body("games[1].status", equalTo("WON")));
    }

    @Test
    void withEverySolverDownTheAiWaitsAndTheMatchGoesOnWhenOneIsBack() {
        SolverServiceProcess.halt();
        String id;
        String aiGame;
        try {
            var match = versusAi(null, "EASY", 2);
            id = match.path("id");
            String token = match.path("gameToken");
            String mine = match.path("games[0].id");
            aiGame = match.path("games[1].id");
            // the person resigns at 0: the AI must beat 0
            given().header("X-Game-Token", token).when().post("/api/games/" + mine + "/resign").then()
                    .statusCode(200);
            given().header("X-Game-Token", token).when().get("/api/matches/" + id).then()
                    .body("status", equalTo("PLAYING")).body("targetScore", equalTo(0));
            long aiEvents = QuarkusTransaction.requiringNew()
                    .call(() -> GameEvent.count("gameId = ?1", java.util.UUID.fromString(aiGame)));
            assertEquals(0, aiEvents, "the AI cannot have played without a solver");
        } finally {
            SolverServiceProcess.launch();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> "FINISHED".equals(QuarkusTransaction.requiringNew()
                .call(() -> MatchEntity.<MatchEntity>findById(java.util.UUID.fromString(id)).status.name())));
        MatchEntity m = QuarkusTransaction.requiringNew()
                .call(() -> MatchEntity.<MatchEntity>findById(java.util.UUID.fromString(id)));
        assertEquals(1, m.winnerSeat);
        GameEntity ai = QuarkusTransaction.requiringNew()
                .call(() -> GameEntity.<GameEntity>findById(java.util.UUID.fromString(aiGame)));
        assertEquals(GameEntity.Status.WON, ai.status);
        assertEquals(1, ai.eventCount, "the AI won with its first placement and stopped");
    }

    @Test
    void thePersonBeatingTheAisScoreWinsAndTheGamesAreFinishedAndValid() {
        var match = versusAi(Tokens.player("ivy"), "DIABOLICAL", 1);
        String id = match.path("id");
        String mine = match.path("games[0].id");
        // the person plays a round at a time, and waits each time for the AI to reach the end of that round (it
        // never goes further), until one of the two games ends; the person plays from the board the API shows
        Play.Started me = new Play.Started(mine, Play.As.player(Tokens.player("ivy")), null);
        int n = 1;
        String status = "PLAYING";
        String aiStatus = "PLAYING";
        while ("PLAYING".equals(status) && "PLAYING".equals(aiStatus)) {
            for (int i = 0; i < 3 && "PLAYING".equals(status); i++) {
                status = playFirstLegal(me, n++);
            }
            int personRound = given().auth().oauth2(Tokens.player("ivy")).when().get("/api/games/" + mine).then()
                    .extract().path("round");
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                var s = given().auth().oauth2(Tokens.player("ivy")).when().get("/api/matches/" + id).then()
                        .extract();
                int aiRound = s.path("games[1].round");
                assertTrue(aiRound <= personRound || !"PLAYING".equals(s.path("games[0].status")),
                        "the AI is in round " + aiRound + ", the person in " + personRound);
                return !"PLAYING".equals(s.path("games[1].status")) || !"PLAYING".equals(s.path("status"))
                        || (int) s.path("games[1].nextMoveNumber") == 3 * personRound + 3;
            });
            var now = given().auth().oauth2(Tokens.player("ivy")).when().get("/api/matches/" + id).then()
                    .extract();
            if ("PLAYING".equals(now.path("status"))) {
                assertNull(now.path("seed"));
                assertNull(now.path("games[1].seed"));
            }
            aiStatus = now.path("games[1].status");
        }
        // the AI was blocked first: its score is the one to beat, the person plays on to beat it
        while ("PLAYING".equals(status)) {
            var s = given().auth().oauth2(Tokens.player("ivy")).when().get("/api/matches/" + id).then().extract();
            if (!"PLAYING".equals(s.path("status"))) {
                break;
            }
            assertEquals((int) s.path("games[1].score"), (int) s.path("targetScore"));
            status = playFirstLegal(me, n++);
        }
        // or the person ended first: the AI plays on, past the person's round, to beat their score or end
        await().atMost(Duration.ofSeconds(120)).untilAsserted(() -> given().auth().oauth2(Tokens.player("ivy"))
                .when().get("/api/matches/" + id).then().body("status", equalTo("FINISHED"))
                .body("games[1].status", not(equalTo("PLAYING"))));
        var end = given().auth().oauth2(Tokens.player("ivy")).when().get("/api/matches/" + id).then()
                .body("seed", notNullValue()).extract();
        int myScore = end.path("games[0].score");
        int aiScore = end.path("games[1].score");
        boolean personFirst = java.time.OffsetDateTime.parse(end.path("games[0].finishedAt"))
                .isBefore(java.time.OffsetDateTime.parse(end.path("games[1].finishedAt")));
        int target = end.path("targetScore");
        assertEquals(personFirst ? myScore : aiScore, target);
        int other = personFirst ? aiScore : myScore;
        String otherStatus = end.path(personFirst ? "games[1].status" : "games[0].status");
        if (other > target) {
            assertEquals("WON", otherStatus);
            assertEquals(personFirst ? 1 : 0, (int) end.path("winnerSeat"));
        } else {
            assertEquals("OVER", otherStatus);
            if (other < target) {
                assertEquals(personFirst ? 0 : 1, (int) end.path("winnerSeat"));
            } else {
                assertNull(end.path("winnerSeat"));
            }
        }
        Play.move(me, n, 0, 0, 0).statusCode(409).body("detail", containsString("The match is over"));
        String replay = given().auth().oauth2(Tokens.player("ivy")).when().get("/api/games/" + mine + "/replay")
                .then().statusCode(200).extract().asString();
        ReplayValidator.Result result = ReplayValidator.validate(Replay.fromJson(replay));
        org.junit.jupiter.api.Assertions.assertTrue(result.valid(), result.error());
        assertEquals(myScore, result.score());
    }

    @Test
    void badMatchRequestsAreExplained() {
        given().contentType(ContentType.JSON).body("{\"mode\": \"VERSUS_AI\", \"level\": \"HARD\", \"strength\": 6}")
                .when().post("/api/matches").then().statusCode(400)
                .body("detail", equalTo("strength: must be between 1 and 5"));
        given().contentType(ContentType.JSON).body("{\"mode\": \"CHESS\", \"level\": \"HARD\"}")
                .when().post("/api/matches").then().statusCode(400)
                .body("detail", containsString("mode: 'CHESS' is not a match mode"));
        given().contentType(ContentType.JSON).body("{\"mode\": \"VERSUS_AI\", \"level\": \"NOPE\"}")
                .when().post("/api/matches").then().statusCode(400)
                .body("detail", containsString("unknown level"));
        given().when().get("/api/matches/00000000-0000-4000-8000-000000000000").then().statusCode(404);
        given().when().get("/api/matches/x").then().statusCode(404);
    }

    @Test
    void twoPlayersOnOneDevicePlayOneAfterTheOtherOnTheSameGridAndCompare() {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "HARD"))
                .when().post("/api/matches").then().statusCode(201).extract();
        String id = match.path("id");
        String token = match.path("gameToken");
        String first = match.path("games[0].id");
        String second = match.path("games[1].id");
        assertEquals((Object) match.path("games[0].board"), match.path("games[1].board"));
        assertEquals((Object) match.path("games[0].pieces"), match.path("games[1].pieces"));

        Play.Started one = new Play.Started(first, Play.As.guest(token), null);
        Play.Started two = new Play.Started(second, Play.As.guest(token), null);
        var g2 = given().header("X-Game-Token", token).when().get("/api/games/" + second).then().extract();
        int[] m = firstLegal(g2.path("board"), g2.path("pieces"));
        Play.move(two, 1, m[0], m[1], m[2]).statusCode(409)
                .body("detail", equalTo("Player 2 plays once player 1's game has ended."));

        Play.move(one, 1, m[0], m[1], m[2]).statusCode(200);
        given().header("X-Game-Token", token).when().post("/api/games/" + first + "/resign").then().statusCode(200);
        given().header("X-Game-Token", token).when().get("/api/matches/" + id).then()
                .body("status", equalTo("PLAYING"));
        Play.move(two, 1, m[0], m[1], m[2]).statusCode(200);
        var g2b = given().header("X-Game-Token", token).when().get("/api/games/" + second).then().extract();
        int[] m2 = firstLegal(g2b.path("board"), g2b.path("pieces"));
        Play.move(two, 2, m2[0], m2[1], m2[2]).statusCode(200);
        // player 2 is ahead, but nothing is decided before both games end
        given().header("X-Game-Token", token).when().get("/api/matches/" + id).then()
                .body("status", equalTo("PLAYING"));
        given().header("X-Game-Token", token).when().post("/api/games/" + second + "/resign").then()
                .statusCode(200);
        given().header("X-Game-Token", token).when().get("/api/matches/" + id).then()
                .body("status", equalTo("FINISHED")).body("winnerSeat", equalTo(1))
                .body("result", containsString("seat 1 wins"));
    }

    @Test
    void aWaitingPlayersPollDoesNotUndoTheMatchTheirTicketIsGivenMeanwhile() throws Exception {
        // the ticket's match is set by another player's join (its transaction holds the row) while the waiting
        // player's page asks for the ticket: before, the poll read the ticket unlocked (no match), and its write of
        // seenAt, taken after the join's commit, wrote the whole row back with no match: the player stayed queued,
        // could be paired again, and the opponent of the first match waited for nobody
        String name = "poller-" + java.util.UUID.randomUUID();
        String ida = Tokens.player(name);
        java.util.UUID ticket = java.util.UUID.randomUUID();
        String other = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract().path("id");
        QuarkusTransaction.requiringNew().run(() -> com.bloceclat.game.RaceTicket.getEntityManager()
                .createNativeQuery("INSERT INTO race_ticket (id, subject, name, level, created_at, seen_at, cancelled) "
                        + "VALUES (:id, :subject, :name, 'EASY', now(), now(), false)")
                .setParameter("id", ticket).setParameter("subject", "sub-" + name).setParameter("name", name)
                .executeUpdate());
        var updated = new java.util.concurrent.CountDownLatch(1);
        var release = new java.util.concurrent.CountDownLatch(1);
        var join = java.util.concurrent.CompletableFuture.runAsync(() -> QuarkusTransaction.requiringNew().run(() -> {
            com.bloceclat.game.RaceTicket.getEntityManager()
                    .createNativeQuery("UPDATE race_ticket SET match_id = :match WHERE id = :id")
                    .setParameter("match", java.util.UUID.fromString(other)).setParameter("id", ticket)
                    .executeUpdate();
            updated.countDown();
            try {
                release.await(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        assertTrue(updated.await(30, java.util.concurrent.TimeUnit.SECONDS));
        var poll = java.util.concurrent.CompletableFuture.supplyAsync(() -> given().auth().oauth2(ida)
                .when().get("/api/matches/queue/" + ticket).then().extract());
        Thread.sleep(1000); // the poll has read the ticket and waits for the row
        release.countDown();
        join.get(30, java.util.concurrent.TimeUnit.SECONDS);
        var answer = poll.get(30, java.util.concurrent.TimeUnit.SECONDS);
        Object matchId = QuarkusTransaction.requiringNew().call(() -> com.bloceclat.game.RaceTicket.getEntityManager()
                .createNativeQuery("SELECT CAST(match_id AS text) FROM race_ticket WHERE id = :id")
                .setParameter("id", ticket).getSingleResult());
        QuarkusTransaction.requiringNew().run(() -> com.bloceclat.game.RaceTicket.getEntityManager()
                .createNativeQuery("UPDATE race_ticket SET cancelled = true WHERE id = :id")
                .setParameter("id", ticket).executeUpdate()); // out of the queue whatever happened
        assertEquals(other, matchId, "the ticket keeps its match");
        assertEquals(200, answer.statusCode());
        assertEquals(other, answer.path("matchId"));
    }

    @Inject
    DataSource dataSource;

    @Test
    void aJoinOfTheRaceQueueWhosePlayersLockIsHeldHoldsUpNoOtherJoinOfTheLevel() throws Exception {
        // before, the level's lock was taken first and the joining player's limits counted under it: a player whose
        // count was slow (here: their lock held, as by a start of their own) held up every join of the level
        Map<String, String> body = Map.of("mode", "ONLINE_RACE", "level", "DIABOLICAL");
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
                lock.setString(1, ClientKey.ofSubject("sub-queue-slow"));
                lock.executeQuery().close();
            }
            Future<Integer> slow = pool.submit(() -> given().auth().oauth2(Tokens.player("queue-slow"))
                    .contentType(ContentType.JSON).body(body).when().post("/api/matches").then().extract()
                    .statusCode());
            // its player's lock is held, as by a start of their own: refused at once (ClientLimits.reserve), neither
            // waiting for it with a pool connection nor, as before, holding the level's lock meanwhile
            assertEquals(429, slow.get(10, TimeUnit.SECONDS));
            int quick = given().config(RestAssured.config().httpClient(HttpClientConfig.httpClientConfig()
                    .setParam("http.socket.timeout", 5000))).auth().oauth2(Tokens.player("queue-quick"))
                    .contentType(ContentType.JSON).body(body).when().post("/api/matches").then().extract()
                    .statusCode();
            assertTrue(quick == 201 || quick == 202, "answered " + quick);
            c.rollback();
            int again = given().auth().oauth2(Tokens.player("queue-slow")).contentType(ContentType.JSON).body(body)
                    .when().post("/api/matches").then().extract().statusCode();
            assertTrue(again == 201 || again == 202, "answered " + again);
        } finally {
            pool.shutdownNow();
            QuarkusTransaction.requiringNew().run(() -> com.bloceclat.game.RaceTicket.getEntityManager()
                    .createNativeQuery("UPDATE race_ticket SET cancelled = true "
                            + "WHERE subject IN ('sub-queue-slow', 'sub-queue-quick')").executeUpdate());
        }
    }

    @Test
    void anOnlineRacePairsTwoWaitingPlayersOnALevelAndTheBestScoreWins() {
        given().contentType(ContentType.JSON).body(Map.of("mode", "ONLINE_RACE", "level", "EXPERT"))
                .when().post("/api/matches").then().statusCode(401)
                .body("detail", equalTo("Online races need a login: send a bearer token."));

        String alice = Tokens.player("racer-a");
        String bob = Tokens.player("racer-b");
        var queued = given().auth().oauth2(alice).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "EXPERT"))
                .when().post("/api/matches").then().statusCode(202).body("waiting", equalTo(true)).extract();
        String ticket = queued.path("ticket");
        given().auth().oauth2(alice).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "EXPERT"))
                .when().post("/api/matches").then().statusCode(202).body("ticket", equalTo(ticket));
        given().auth().oauth2(bob).when().get("/api/matches/queue/" + ticket).then().statusCode(403);

        var match = given().auth().oauth2(bob).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "EXPERT"))
                .when().post("/api/matches").then().statusCode(201).body("yourSeat", equalTo(1)).extract();
        String id = match.path("id");
        given().auth().oauth2(alice).when().get("/api/matches/queue/" + ticket).then().statusCode(200)
                .body("waiting", equalTo(false)).body("matchId", equalTo(id));
        given().auth().oauth2(alice).when().get("/api/matches/" + id).then().statusCode(200)
                .body("yourSeat", equalTo(0)).body("mode", equalTo("ONLINE_RACE"));
        given().auth().oauth2(Tokens.player("racer-c")).when().get("/api/matches/" + id).then().statusCode(403);

        // both play at once on the same pieces
        String aliceGame = match.path("games[0].id");
        String bobGame = match.path("games[1].id");
        var a = given().auth().oauth2(alice).when().get("/api/games/" + aliceGame).then().extract();
        int[] m = firstLegal(a.path("board"), a.path("pieces"));
        Play.move(new Play.Started(bobGame, Play.As.player(bob), null), 1, m[0], m[1], m[2]).statusCode(200);
        given().auth().oauth2(bob).when().post("/api/games/" + bobGame + "/resign").then().statusCode(200);
        given().auth().oauth2(alice).when().get("/api/matches/" + id).then().body("status", equalTo("PLAYING"))
                .body("games[1].status", equalTo("RESIGNED"));
        given().auth().oauth2(alice).when().post("/api/games/" + aliceGame + "/resign").then().statusCode(200);
        given().auth().oauth2(alice).when().get("/api/matches/" + id).then().body("status", equalTo("FINISHED"))
                .body("winnerSeat", equalTo(1));

        String dave = Tokens.player("racer-d");
        String waiting = given().auth().oauth2(dave).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "DIABOLICAL"))
                .when().post("/api/matches").then().statusCode(202).extract().path("ticket");
        given().auth().oauth2(dave).when().delete("/api/matches/queue/" + waiting).then().statusCode(204);
        given().auth().oauth2(dave).when().get("/api/matches/queue/" + waiting).then().statusCode(404);
    }

    @Test
    void aWaitingPlayerWhoStopsAskingForTheirTicketIsPassedOverUntilTheyAskAgain() throws InterruptedException {
        String erin = Tokens.player("racer-e");
        String frank = Tokens.player("racer-f");
        String gina = Tokens.player("racer-g");
        String erinTicket = given().auth().oauth2(erin).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "DIABOLICAL"))
                .when().post("/api/matches").then().statusCode(202).extract().path("ticket");
        Thread.sleep(3500); // erin's page is closed: longer than bloc.race.ticket-timeout (3 s in tests)

        String frankTicket = given().auth().oauth2(frank).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "DIABOLICAL"))
                .when().post("/api/matches").then().statusCode(202).body("waiting", equalTo(true))
                .extract().path("ticket");
        given().auth().oauth2(erin).when().get("/api/matches/queue/" + erinTicket).then().statusCode(200)
                .body("waiting", equalTo(true));

        // erin is back, and first in line again
        String id = given().auth().oauth2(gina).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "DIABOLICAL"))
                .when().post("/api/matches").then().statusCode(201).extract().path("id");
        given().auth().oauth2(erin).when().get("/api/matches/queue/" + erinTicket).then()
                .body("waiting", equalTo(false)).body("matchId", equalTo(id));
        given().auth().oauth2(frank).when().get("/api/matches/queue/" + frankTicket).then()
                .body("waiting", equalTo(true));
        given().auth().oauth2(frank).when().delete("/api/matches/queue/" + frankTicket).then().statusCode(204);
    }

    /**
     * A ticket nobody has asked for for an hour (its page closed long ago) is dropped at the level's next join: passed
     * over, it stayed among the waiting tickets for the retention's 90 days, and every join of the level read past it
     * under the level's lock.
     */
    @Test
    void aTicketNotAskedForForAnHourIsDroppedAtTheLevelsNextJoin() {
        java.util.UUID stale = java.util.UUID.randomUUID();
        QuarkusTransaction.requiringNew().run(() -> com.bloceclat.game.RaceTicket.getEntityManager()
                .createNativeQuery("INSERT INTO race_ticket (id, subject, name, level, created_at, seen_at, cancelled) "
                        + "VALUES (:id, 'sub-long-gone', 'long-gone', 'MEDIUM', now() - interval '3 hours', "
                        + "now() - interval '2 hours', false)")
                .setParameter("id", stale).executeUpdate());
        String joiner = Tokens.player("joins-after-" + java.util.UUID.randomUUID());
        var joined = given().auth().oauth2(joiner).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "MEDIUM")).when().post("/api/matches").then()
                .extract();
        assertTrue(joined.statusCode() == 201 || joined.statusCode() == 202, joined.asString());
        assertEquals(true, QuarkusTransaction.requiringNew().call(() -> com.bloceclat.game.RaceTicket
                .<com.bloceclat.game.RaceTicket>findById(stale).cancelled), "dropped");
        if (joined.statusCode() == 202) {
            given().auth().oauth2(joiner).when().delete("/api/matches/queue/" + joined.path("ticket")).then()
                    .statusCode(204);
        }
    }

    /**
     * A player waits on one level at a time: joining another level leaves the queue of the first. Before, a player
     * could hold a ticket on each of the five levels, each checked against their open games alone, and the matches
     * made later took them up to five games past their limit.
     */
    @Test
    void aPlayerWaitsOnOneLevelAtATime() {
        String hana = Tokens.player("racer-h");
        String ivan = Tokens.player("racer-i");
        String first = given().auth().oauth2(hana).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "MEDIUM"))
                .when().post("/api/matches").then().statusCode(202).extract().path("ticket");
        String second = given().auth().oauth2(hana).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(202).extract().path("ticket");
        given().auth().oauth2(hana).when().get("/api/matches/queue/" + first).then().statusCode(404);
        given().auth().oauth2(hana).when().get("/api/matches/queue/" + second).then().statusCode(200)
                .body("waiting", equalTo(true));
        // nobody is paired with the ticket she left
        given().auth().oauth2(ivan).contentType(ContentType.JSON).body(Map.of("mode", "ONLINE_RACE", "level", "MEDIUM"))
                .when().post("/api/matches").then().statusCode(202).body("waiting", equalTo(true));
        String id = given().auth().oauth2(ivan).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract().path("id");
        given().auth().oauth2(hana).when().get("/api/matches/queue/" + second).then()
                .body("waiting", equalTo(false)).body("matchId", equalTo(id));
    }

    /** Plays the first legal placement for the game as the API shows it; answers the game's status after it. */
    private static String playFirstLegal(Play.Started g, int moveNumber) {
        var game = g.as().spec().when().get("/api/games/" + g.id()).then().extract();
        int[] m = firstLegal(game.path("board"), game.path("pieces"));
        return Play.move(g, moveNumber, m[0], m[1], m[2]).statusCode(200).extract().path("game.status");
    }

    @Test
    void twoPlayersShowNoSeedNorReplayOfTheFirstGameWhileTheSecondPlays() {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "MEDIUM"))
                .when().post("/api/matches").then().statusCode(201).extract();
        String id = match.path("id");
        String token = match.path("gameToken");
        String first = match.path("games[0].id");
        String second = match.path("games[1].id");
        Play.Started one = new Play.Started(first, Play.As.guest(token), null);
        playFirstLegal(one, 1);
        given().header("X-Game-Token", token).when().post("/api/games/" + first + "/resign").then().statusCode(200)
                .body("status", equalTo("RESIGNED")).body("seed", nullValue());

        // seat 0 has ended, seat 1 plays on the same seed: nothing tells it
        given().header("X-Game-Token", token).when().get("/api/matches/" + id).then().statusCode(200)
                .body("status", equalTo("PLAYING")).body("seed", nullValue())
                .body("games[0].status", equalTo("RESIGNED")).body("games[0].seed", nullValue())
                .body("games[1].seed", nullValue());
        given().header("X-Game-Token", token).when().get("/api/games/" + first).then().statusCode(200)
                .body("seed", nullValue());
        given().header("X-Game-Token", token).when().get("/api/games/" + first + "/replay").then().statusCode(409)
                .body("detail", equalTo("The replay of a match's game is served once every seat of the match has "
                        + "ended: it carries the match's seed, which tells the pieces still to come of the seat "
                        + "still playing."));
        Play.Started two = new Play.Started(second, Play.As.guest(token), null);
        playFirstLegal(two, 1);
        given().header("X-Game-Token", token).when().get("/api/games/" + second).then().body("seed", nullValue());

        // once every seat has ended, the seed and the replays are there
        given().header("X-Game-Token", token).when().post("/api/games/" + second + "/resign").then().statusCode(200);
        var end = given().header("X-Game-Token", token).when().get("/api/matches/" + id).then()
                .body("status", equalTo("FINISHED")).body("seed", notNullValue()).extract();
        long seed = ((Number) end.path("seed")).longValue();
        assertEquals(seed, ((Number) end.path("games[0].seed")).longValue());
        assertEquals(seed, ((Number) end.path("games[1].seed")).longValue());
        String replay = given().header("X-Game-Token", token).when().get("/api/games/" + first + "/replay").then()
                .statusCode(200).extract().asString();
        assertEquals(seed, Replay.fromJson(replay).seed());
    }

    @Test
    void theAiWaitsAtTheRoundBoundaryForThePersonAndPlaysOnOnceThePersonMovesOrEnds() {
        var match = versusAi(null, "EASY", 3);
        String id = match.path("id");
        String token = match.path("gameToken");
        Play.Started me = new Play.Started(match.path("games[0].id"), Play.As.guest(token), null);
        // the person idles in round 0: the AI places two pieces of it, then waits with its third (placing it would
        // deal round 1, which the person has not been dealt)
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().header("X-Game-Token", token)
                .when().get("/api/matches/" + id).then().body("games[1].nextMoveNumber", equalTo(3)));
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                given().header("X-Game-Token", token).when().get("/api/matches/" + id).then()
                        .body("games[1].round", equalTo(0)).body("games[1].nextMoveNumber", equalTo(3))
                        .body("games[0].round", equalTo(0)));
        given().when().get("/q/metrics").then().statusCode(200).body(containsString("bloc_ai_waiting"));

        // the person completes round 0: the AI completes it too, and waits again at the end of round 1
        for (int n = 1; n <= 3; n++) {
            playFirstLegal(me, n);
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().header("X-Game-Token", token)
                .when().get("/api/matches/" + id).then().body("games[1].nextMoveNumber", equalTo(6)));
        await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                given().header("X-Game-Token", token).when().get("/api/matches/" + id).then()
                        .body("games[1].round", equalTo(1)).body("games[1].nextMoveNumber", equalTo(6)));
        given().header("X-Game-Token", token).when().get("/api/matches/" + id).then().body("seed", nullValue())
                .body("games[1].seed", nullValue());

        // the person ends: the AI is no longer held at the boundary (it beats the person's score, at once or by
        // playing on, or ends): the match finishes, and shows its seed
        given().header("X-Game-Token", token).when().post("/api/games/" + me.id() + "/resign").then()
                .statusCode(200);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().header("X-Game-Token", token)
                .when().get("/api/matches/" + id).then().body("status", equalTo("FINISHED"))
                .body("games[1].status", not(equalTo("PLAYING"))).body("seed", notNullValue()));
    }

    /**
     * docs/game-service.md "Versus AI": the gauge {@code bloc_ai_waiting} ({@code /q/metrics}) counts the AI games
     * parked waiting for their person at a round's end; the other AI gauges the metrics list names are served too.
     * The gauge is the replica's whole: other tests' AI games may wait as well, so it is at least this one.
     */
    @Test
    void theGaugeOfWaitingAiGamesCountsAnAiWaitingForItsPerson() {
        String metrics = PrometheusText.scrape();
        for (String gauge : List.of("bloc_ai_in_flight", "bloc_ai_in_flight_limit", "bloc_ai_games",
                "bloc_ai_waiting")) {
            assertTrue(PrometheusText.has(metrics, gauge), gauge + " served");
        }
        var match = versusAi(null, "EASY", 3);
        String id = match.path("id");
        String token = match.path("gameToken");
        try {
            // the person idles in round 0: the AI places two pieces, then waits with its third
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> given().header("X-Game-Token", token)
                    .when().get("/api/matches/" + id).then().body("games[1].nextMoveNumber", equalTo(3)));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> PrometheusText.value("bloc_ai_waiting") >= 1);
        } finally {
            given().header("X-Game-Token", token).when().post("/api/games/" + match.path("games[0].id") + "/resign")
                    .then().statusCode(200);
        }
    }

    /** The first legal placement for the board and pieces the API shows. */
    private static int[] firstLegal(List<String> board, List<Map<String, Object>> pieces) {
        long b = Board.parse(board.toArray(String[]::new));
        for (Map<String, Object> p : pieces) {
            if (Boolean.TRUE.equals(p.get("placed"))) {
                continue;
            }
            @SuppressWarnings("unchecked")
            com.bloceclat.engine.Piece piece = com.bloceclat.engine.Piece
                    .ofRows(((List<String>) p.get("rows")).toArray(String[]::new));
            for (int row = 0; row < 8; row++) {
                for (int col = 0; col < 8; col++) {
                    if (com.bloceclat.engine.Rules.illegalReason(b, piece, row, col) == null) {
                        return new int[] {(Integer) p.get("slot"), row, col};
                    }
                }
            }
        }
        throw new AssertionError("nothing fits, yet the game is playing");
    }
}
