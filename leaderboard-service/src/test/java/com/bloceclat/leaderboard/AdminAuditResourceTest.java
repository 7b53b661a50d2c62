package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.hibernate.SessionFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

@QuarkusTest
class AdminAuditResourceTest {

    static final String AUDITS = "/api/leaderboards/admin/audits";

    static Replay honest;
    static GameFinished record;
    static GameFinished rejected;
    static GameFinished.Player gina;

    @BeforeAll
    static void publishGames() {
        honest = Games.played(2026, Level.EXPERT, 5).replay();
        gina = Games.player("gina-" + UUID.randomUUID());
        record = Games.finished(gina, honest);
        Replay lying = new Replay(1, honest.seed(), honest.level(), honest.events(), honest.rounds(),
                honest.claimedScore() + 5, honest.claimedRounds(), false);
        rejected = Games.finished(UUID.randomUUID(), gina, lying.toJson(), Instant.now());
        Games.publish(record, rejected);
        await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                () -> GameAudit.findById(record.gameId()) != null && GameAudit.findById(rejected.gameId()) != null));
    }

    @Inject
    SessionFactory sessionFactory;

    static RequestSpecification admin() {
        return given().auth().oauth2(Tokens.admin("root"));
    }

    @Test
    void anonymousCallersGet401AndPlayers403OnEveryAdminEndpoint() {
        String one = AUDITS + "/" + record.gameId();
        for (String[] call : new String[][] {{"GET", AUDITS}, {"GET", one}, {"POST", one + "/revalidate"},
                {"POST", one + "/strike"}, {"GET", "/api/leaderboards/admin/canary/" + UUID.randomUUID()}}) {
            given().contentType(ContentType.JSON).body("{\"reason\":\"x\"}")
                    .when().request(call[0], call[1]).then().statusCode(401);
            given().auth().oauth2(Tokens.player("bob")).contentType(ContentType.JSON).body("{\"reason\":\"x\"}")
                    .when().request(call[0], call[1]).then()
                    .statusCode(403)
                    .contentType("application/problem+json");
            given().auth().oauth2(Tokens.forged("root")).when().request(call[0], call[1]).then().statusCode(401);
        }
        admin().when().get(AUDITS).then().statusCode(200);
        admin().when().get(one).then().statusCode(200);
    }

    @Test
    void auditsAreListedByOutcomeLevelAndDate() {
        List<String> rejectedIds = admin().queryParam("outcome", "rejected").queryParam("level", "EXPERT")
                .queryParam("size", 100)
                .when().get(AUDITS).then()
                .statusCode(200)
                .body("audits.outcome", everyItem(equalTo("REJECTED")))
                .body("audits.level", everyItem(equalTo("EXPERT")))
                .extract().path("audits.gameId");
        assertTrue(rejectedIds.contains(rejected.gameId().toString()), rejectedIds.toString());
        assertTrue(!rejectedIds.contains(record.gameId().toString()));
        admin().queryParam("outcome", "RECORD").queryParam("size", 100).when().get(AUDITS).then()
                .body("audits.gameId", hasItem(record.gameId().toString()));
        admin().queryParam("from", "2000-01-01").queryParam("to", "2000-01-02").when().get(AUDITS).then()
                .statusCode(200).body("audits", hasSize(0)).body("more", equalTo(false));
        admin().queryParam("from", Instant.now().minusSeconds(3600).toString()).queryParam("size", 1)
                .when().get(AUDITS).then()
                .statusCode(200).body("audits", hasSize(1)).body("more", equalTo(true));

        admin().queryParam("outcome", "CHEATED").when().get(AUDITS).then()
                .statusCode(400).contentType("application/problem+json")
                .body("detail", equalTo("Unknown outcome 'CHEATED'; outcomes are RECORD, VALID_NOT_ELIGIBLE, REJECTED, DUPLICATE"));
        admin().queryParam("from", "last tuesday").when().get(AUDITS).then()
                .statusCode(400).body("detail", startsWith("'from' must be an ISO-8601 date or instant"));
        // a year Instant reads but an offset date cannot hold (it was a 500)
        for (String far : List.of("+1000000000-06-01T00:00:00Z", "-1000000000-01-01T00:00:00Z")) {
            admin().queryParam("from", far).when().get(AUDITS).then()
                    .statusCode(400).body("detail", startsWith("'from' must be an ISO-8601 date or instant"));
            admin().queryParam("to", far).when().get(AUDITS).then().statusCode(400);
        }
        admin().queryParam("level", "NIGHTMARE").when().get(AUDITS).then().statusCode(400);
        admin().queryParam("size", 0).when().get(AUDITS).then().statusCode(400);
    }

    @Test
    void oneAuditCarriesItsReplayAndTheValidatorsTrace() {
        admin().when().get(AUDITS + "/" + rejected.gameId()).then()
                .statusCode(200)
                .body("summary.outcome", equalTo("REJECTED"))
                .body("summary.reason", equalTo("claimed score " + (honest.claimedScore() + 5) + ", replay scores "
                        + honest.claimedScore()))
                .body("summary.player.subject", equalTo(gina.subject()))
                .body("replay.claimedScore", equalTo(honest.claimedScore() + 5))
                .body("replay.seed", equalTo(2026))
                .body("start", equalTo(honest.startBoard()))
                .body("trace", hasSize(honest.events().size() + 1))
                .body("trace[0]", startsWith("event 1: round 0 slot "))
                .body("trace[-1]", startsWith("rejected: claimed score"))
                .body("validEvents", equalTo(honest.events().size()))
                .body("strike", nullValue());
        admin().when().get(AUDITS + "/" + UUID.randomUUID()).then()
                .statusCode(404).contentType("application/problem+json");
        admin().when().get(AUDITS + "/game-1").then()
                .statusCode(400).body("detail", equalTo("Game id must be a UUID, got 'game-1'"));
    }

    /** A body past 16K is refused before it is read: Quarkus's default let 10 MB in, read and parsed. */
    @Test
    void aBodyPast16KIsRefusedBeforeItIsRead() {
        admin().contentType(ContentType.JSON).body("{\"reason\": \"" + "x".repeat(20_000) + "\"}")
                .when().post(AUDITS + "/" + UUID.randomUUID() + "/strike").then().statusCode(413)
                .contentType("application/problem+json");
    }

    @Test
    void strikesOfOneRecordAtOnceAreOneStrikeAndConflicts() throws Exception {
        // Two admins striking at once both got 200 and the later one wrote over the first one's who and why: the
        // record was read and written with no lock.
        GameFinished game = Games.finished(Games.player("ivy-" + UUID.randomUUID()),
                Games.played(98, Level.EXPERT, 3).replay());
        Games.publish(game);
        await().atMost(Duration.ofSeconds(60)).until(
                () -> QuarkusTransaction.requiringNew().call(() -> GameRecord.findById(game.gameId()) != null));
        String path = AUDITS + "/" + game.gameId() + "/strike";
        int admins = 8;
        CyclicBarrier together = new CyclicBarrier(admins);
        ExecutorService pool = Executors.newFixedThreadPool(admins);
        try {
            List<Future<int[]>> answers = new ArrayList<>();
            for (int i = 0; i < admins; i++) {
                int n = i;
                answers.add(pool.submit(() -> {
                    together.await();
                    return new int[] {n, admin().contentType(ContentType.JSON).body("{\"reason\":\"admin " + n + "\"}")
                            .when().post(path).then().extract().statusCode()};
                }));
            }
            List<Integer> struck = new ArrayList<>();
            int conflicts = 0;
            for (Future<int[]> answer : answers) {
                int[] a = answer.get(60, TimeUnit.SECONDS);
                if (a[1] == 200) {
                    struck.add(a[0]);
                } else {
                    assertEquals(409, a[1]);
                    conflicts++;
                }
            }
            assertEquals(1, struck.size(), "one strike, " + struck + " answered 200");
            assertEquals(admins - 1, conflicts);
            GameRecord kept = QuarkusTransaction.requiringNew().call(() -> GameRecord.findById(game.gameId()));
            assertEquals("admin " + struck.get(0), kept.strikeReason);
            long strikes = QuarkusTransaction.requiringNew().call(() -> AuditAction.count(
                    "gameId = ?1 and kind = ?2", game.gameId(), AuditAction.Kind.STRIKE));
            assertEquals(1, strikes, "one STRIKE in the trail");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aStruckRecordLeavesTheLeaderboardAndTheTrailSaysWhy() {
        GameFinished.Player hank = Games.player("hank-" + UUID.randomUUID());
        GameFinished game = Games.finished(hank, Games.played(99, Level.EXPERT, 3).replay());
        Games.publish(game);
        await().atMost(Duration.ofSeconds(60)).until(
                () -> QuarkusTransaction.requiringNew().call(() -> GameRecord.findById(game.gameId()) != null));
        given().when().get("/api/leaderboards/expert/players/" + hank.subject()).then().statusCode(200);
        String path = AUDITS + "/" + game.gameId();

        // blank, and blank but for Unicode spaces (an em space and a no-break space), which @NotBlank lets through
        for (String blank : List.of("  ", "\\u2003", "\\u00a0\\u2003", "\\u200b", "\\ufeff\\u2060")) {
            admin().contentType(ContentType.JSON).body("{\"reason\":\"" + blank + "\"}").when().post(path + "/strike")
                    .then().statusCode(400).contentType("application/problem+json")
                    .body("detail", containsString("reason"));
        }
        // a zero byte PostgreSQL would refuse (it was a 500), and another control character: refused, nothing struck
        for (String bad : List.of("x\\u0000", "x\\u001b[31m")) {
            admin().contentType(ContentType.JSON).body("{\"reason\":\"" + bad + "\"}").when().post(path + "/strike")
                    .then().statusCode(400).contentType("application/problem+json")
                    .body("detail", containsString("control character"));
        }
        // read strictly (service-common's StrictJson): a number is no reason, and a misspelt field is no silent extra
        admin().contentType(ContentType.JSON).body("{\"reason\":5}").when().post(path + "/strike")
                .then().statusCode(400).contentType("application/problem+json")
                .body("detail", equalTo("Field \"reason\" must be text"));
        admin().contentType(ContentType.JSON).body("{\"reason\":\"cheat\",\"note\":\"x\"}").when()
                .post(path + "/strike").then().statusCode(400).contentType("application/problem+json")
                .body("detail", startsWith("Unknown field \"note\""));
        // the mark of a re-validation's strike, which a later re-validation lifts: not an admin's to write
        admin().contentType(ContentType.JSON).body("{\"reason\":\"re-validation: by hand\"}").when()
                .post(path + "/strike").then().statusCode(400).body("detail", containsString("re-validation:"));
        admin().contentType(ContentType.JSON).body("{\"reason\":\"shared account, confirmed by the player\"}")
                .when().post(path + "/strike").then()
                .statusCode(200)
                .body("summary.struck", equalTo(true))
                .body("strike.by", equalTo("root"))
                .body("strike.reason", equalTo("shared account, confirmed by the player"))
                .body("actions.action", contains("STRIKE"));
        admin().contentType(ContentType.JSON).body("{\"reason\":\"again\"}").when().post(path + "/strike").then()
                .statusCode(409).body("detail", startsWith("The record of game " + game.gameId() + " was already struck"));
        admin().contentType(ContentType.JSON).body("{\"reason\":\"not a record\"}")
                .when().post(AUDITS + "/" + rejected.gameId() + "/strike").then()
                .statusCode(409).body("detail", equalTo("Game " + rejected.gameId() + " is not a record (REJECTED)"));

        given().when().get("/api/leaderboards/expert/players/" + hank.subject()).then().statusCode(404);
        // the list says so too, from the columns it shows: no audit loaded whole (its replay and trace are tens of
        // megabytes for a long game: a page of them was more than a replica's heap), no record read apart
        sessionFactory.getStatistics().clear();
        admin().queryParam("outcome", "RECORD").queryParam("level", "EXPERT").queryParam("size", 100).when()
                .get(AUDITS).then().statusCode(200)
                .body("audits.find { it.gameId == '" + game.gameId() + "' }.struck", equalTo(true))
                .body("audits.find { it.gameId == '" + record.gameId() + "' }.struck", equalTo(false))
                .body("audits.find { it.gameId == '" + game.gameId() + "' }.player.subject", equalTo(hank.subject()));
        assertEquals(0, sessionFactory.getStatistics().getEntityStatistics(GameAudit.class.getName()).getLoadCount(),
                "no audit loaded whole");
        assertEquals(0, sessionFactory.getStatistics().getEntityStatistics(GameRecord.class.getName()).getLoadCount(),
                "no record read apart");
        // a re-validation, which finds the replay valid, leaves an admin's strike as it is
        admin().when().post(path + "/revalidate").then().statusCode(200)
                .body("summary.outcome", equalTo("RECORD")).body("summary.struck", equalTo(true));
        given().queryParam("size", 100).when().get("/api/leaderboards/expert").then()
                .body("entries.gameId", not(hasItem(game.gameId().toString())));
        GameRecord kept = QuarkusTransaction.requiringNew().call(() -> GameRecord.findById(game.gameId()));
        assertEquals("shared account, confirmed by the player", kept.strikeReason);
        given().auth().oauth2(Tokens.of(hank.subject(), hank.name(), List.of("player")))
                .when().get("/api/leaderboards/me/games").then()
                .statusCode(200)
                .body("games[0].gameId", equalTo(game.gameId().toString()))
                .body("games[0].outcome", equalTo("RECORD"))
                .body("games[0].struck", equalTo(true));
    }

    @Test
    void revalidationKeepsAnHonestVerdictAndTheTrailGrows() {
        String path = AUDITS + "/" + record.gameId();
        admin().when().post(path + "/revalidate").then()
                .statusCode(200)
                .body("summary.outcome", equalTo("RECORD"))
                .body("summary.struck", equalTo(false))
                .body("actions[-1].action", equalTo("REVALIDATE"))
                .body("actions[-1].detail", equalTo("unchanged: RECORD"))
                .body("actions[-1].actor", equalTo("root"))
                .body("actions[-1].at", notNullValue());
        admin().when().post(AUDITS + "/" + rejected.gameId() + "/revalidate").then()
                .statusCode(200)
                .body("summary.outcome", equalTo("REJECTED"))
                .body("actions[-1].detail", startsWith("unchanged: REJECTED (claimed score"));
        admin().when().post(AUDITS + "/" + UUID.randomUUID() + "/revalidate").then().statusCode(404);
    }

    @Test
    void aRecordThatNoLongerHoldsIsStruckOnRevalidation() {
        GameFinished.Player ivan = Games.player("ivan-" + UUID.randomUUID());
        Replay replay = Games.played(31, Level.EXPERT, 3).replay();
        GameFinished game = record(ivan, replay);
        // The stored replay no longer holds up (as after a fix to the engine that catches what it used to let by).
        storeReplay(game, doctored(replay));

        admin().when().post(AUDITS + "/" + game.gameId() + "/revalidate").then()
                .statusCode(200)
                .body("summary.outcome", equalTo("REJECTED"))
                .body("summary.struck", equalTo(true))
                .body("strike.reason", startsWith("re-validation: REJECTED (claimed score"))
                .body("actions[-1].detail", startsWith("RECORD → REJECTED (claimed score"))
                .body("actions[-1].detail", endsWith("; record struck"));
        given().when().get("/api/leaderboards/expert/players/" + ivan.subject()).then().statusCode(404);

        // The replay holds again (the engine's regression fixed): the re-validation's own strike is lifted, and the
        // record is back on the boards. Before, it stayed struck for good while the audit said RECORD.
        storeReplay(game, replay.toJson());
        admin().when().post(AUDITS + "/" + game.gameId() + "/revalidate").then()
                .statusCode(200)
                .body("summary.outcome", equalTo("RECORD"))
                .body("summary.struck", equalTo(false))
                .body("strike", nullValue())
                .body("actions[-1].detail", startsWith("REJECTED → RECORD"))
                .body("actions[-1].detail", endsWith("; the strike of a re-validation lifted"));
        given().when().get("/api/leaderboards/expert/players/" + ivan.subject()).then().statusCode(200);
    }
    /**
     * An admin may strike a record a re-validation struck, and that strike is theirs: a later re-validation that finds
     * the replay holding again leaves it. Before, the admin's strike was 409 ("already struck"), and the next
     * re-validation put a record the admin had judged a cheat back on the boards.
     */
    @Test
    void anAdminsStrikeOverARevalidationsStrikeStaysWhenTheReplayHoldsAgain() {
        GameFinished.Player judy = Games.player("judy-" + UUID.randomUUID());
        Replay replay = Games.played(7321, Level.EXPERT, 3).replay();
        GameFinished game = record(judy, replay);
        storeReplay(game, doctored(replay));
        String path = AUDITS + "/" + game.gameId();
        admin().when().post(path + "/revalidate").then().statusCode(200)
                .body("strike.reason", startsWith("re-validation: REJECTED"));

        admin().contentType(ContentType.JSON).body("{\"reason\":\"boosted account\"}").when()
                .post(path + "/strike").then().statusCode(200)
                .body("strike.reason", equalTo("boosted account"))
                .body("actions[-1].action", equalTo("STRIKE"));
        storeReplay(game, replay.toJson());
        admin().when().post(path + "/revalidate").then().statusCode(200)
                .body("summary.outcome", equalTo("RECORD"))
                .body("summary.struck", equalTo(true))
                .body("strike.reason", equalTo("boosted account"));
        given().when().get("/api/leaderboards/expert/players/" + judy.subject()).then().statusCode(404);
        // and an admin's strike is struck once: a second is 409
        admin().contentType(ContentType.JSON).body("{\"reason\":\"again\"}").when()
                .post(path + "/strike").then().statusCode(409);
    }

    /** {@code replay} of {@code player} published, once it is a record. */
    private static GameFinished record(GameFinished.Player player, Replay replay) {
        GameFinished game = Games.finished(player, replay);
        Games.publish(game);
        await().atMost(Duration.ofSeconds(60)).until(
                () -> QuarkusTransaction.requiringNew().call(() -> GameRecord.findById(game.gameId()) != null));
        return game;
    }

    /** {@code replay} claiming one point more than it scores: it no longer holds up. */
    private static String doctored(Replay replay) {
        return new Replay(1, replay.seed(), replay.level(), replay.events(), replay.rounds(),
                replay.claimedScore() + 1, replay.claimedRounds(), false).toJson();
    }

    /** The replay stored in the game's audit replaced, as re-validations read it. */
    private static void storeReplay(GameFinished game, String replayJson) {
        QuarkusTransaction.requiringNew().run(
                () -> GameAudit.update("replay = ?1 where gameId = ?2", replayJson, game.gameId()));
    }
}
