package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.SelfPlay;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.leaderboard.config.LeaderboardConfig;
import com.bloceclat.leaderboard.service.CheatDetector;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ClientProxy;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;

/**
 * The cheat detector end to end: games published on Kafka, measured by the detector's pass, listed for the admins.
 * In production the Quarkus scheduler runs the pass every {@code interval}; the test profile makes that an hour, and
 * the tests run the pass themselves once the games are judged (nothing here waits for a timer).
 */
@QuarkusTest
class SuspicionTest {

    static final String AUDITS = "/api/leaderboards/admin/audits";

    static GameFinished.Player player;
    /** 30 rounds played by the full-strength AI itself. */
    static GameFinished bot;
    /** 30 rounds played by the weakest AI (dealt order, noisy). */
    static GameFinished weak;
    /** 10 rounds played by the full-strength AI: too short to tell. */
    static GameFinished shortBot;
    /** 100 rounds played by the full-strength AI: more than the test profile's max-compared-rounds (40). */
    static GameFinished longBot;

    @BeforeAll
    static void publishGames() {
        player = Games.player("sam-" + UUID.randomUUID());
        Replay botReplay = Games.played(2027, Level.EASY, 30).replay();
        assertEquals(30, botReplay.claimedRounds());
        Game noisy = new Game(15, Level.EASY);
        while (!noisy.gameOver() && noisy.round() < 30) {
            SelfPlay.playRound(noisy, 1, 15L * 31 + noisy.round());
        }
        assertEquals(30, noisy.round());
        bot = Games.finished(player, botReplay);
        weak = Games.finished(player, noisy.replay());
        shortBot = Games.finished(player, Games.played(2028, Level.EASY, 10).replay());
        longBot = Games.finished(player, Games.played(2029, Level.EASY, 100).replay());
        Games.publish(bot, weak, shortBot, longBot);
        await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                () -> GameAudit.count("gameId in ?1", java.util.List.of(bot.gameId(), weak.gameId(),
                        shortBot.gameId(), longBot.gameId())) == 4));
        detector().pass();
        assertTrue(QuarkusTransaction.requiringNew().call(() -> measured(bot.gameId()) && measured(weak.gameId())));
    }

    static CheatDetector detector() {
        return Arc.container().instance(CheatDetector.class).get();
    }

    @Test
    void thePassIsScheduledByTheQuarkusScheduler() {
        org.junit.jupiter.api.Assertions.assertNotNull(Arc.container().instance(Scheduler.class).get()
                .getScheduledJob(CheatDetector.JOB));
    }

    private static boolean measured(UUID id) {
        GameAudit audit = GameAudit.findById(id);
        return audit != null && audit.suspicionCheckedAt != null;
    }

    static RequestSpecification admin() {
        return given().auth().oauth2(Tokens.admin("root"));
    }

    @Test
    void aGamePlayedByTheAiIsFlaggedAndListedAsSuspiciousYetStaysOnTheLeaderboard() {
        admin().queryParam("suspicious", "true").queryParam("size", 100).when().get(AUDITS).then()
                .statusCode(200)
                .body("audits.suspicious", everyItem(equalTo(true)))
                .body("audits.gameId", hasItem(bot.gameId().toString()))
                .body("audits.gameId", not(hasItem(weak.gameId().toString())))
                .body("audits.gameId", not(hasItem(shortBot.gameId().toString())));
        admin().when().get(AUDITS + "/" + bot.gameId()).then()
                .statusCode(200)
                .body("summary.outcome", equalTo("RECORD"))
                .body("summary.suspicious", equalTo(true))
                .body("summary.comparedRounds", equalTo(30))
                .body("summary.aiAgreement", greaterThanOrEqualTo(0.9f))
                .body("summary.suspicionCheckedAt", notNullValue())
                .body("summary.struck", equalTo(false))
                .body("actions.action", contains("FLAGGED_SUSPICIOUS"))
                .body("actions[0].actor", equalTo("cheat-detector"))
                .body("actions[0].detail", startsWith("30 of 30 rounds played as the full-strength AI (1.00): "
                        + "suspicious"));
        // Flagged, not struck: the record stands until an admin strikes it.
        given().when().get("/api/leaderboards/easy/players/" + player.subject()).then().statusCode(200);
    }

    /**
     * A record longer than max-compared-rounds is measured on a random draw of that many rounds: the work a record
     * asks of the worker is bounded (a 20,000-round record cost minutes a pass before, and its batch's transaction
     * timed out and was taken again every pass), and the AI's play is still flagged.
     */
    @Test
    void aLongRecordIsMeasuredOnABoundedDrawOfItsRoundsAndStillFlagged() {
        admin().when().get(AUDITS + "/" + longBot.gameId()).then()
                .statusCode(200)
                .body("summary.comparedRounds", equalTo(40))
                .body("summary.aiAgreement", equalTo(1.0f))
                .body("summary.suspicious", equalTo(true));
    }

    @Test
    void aWeakPlayersRecordIsMeasuredAndNotSuspicious() {
        admin().when().get(AUDITS + "/" + weak.gameId()).then()
                .statusCode(200)
                .body("summary.outcome", equalTo("RECORD"))
                .body("summary.suspicious", equalTo(false))
                .body("summary.comparedRounds", equalTo(30))
                .body("summary.aiAgreement", lessThan(0.5f))
                .body("actions", org.hamcrest.Matchers.hasSize(0));
        admin().queryParam("suspicious", "false").queryParam("outcome", "RECORD").queryParam("size", 100)
                .when().get(AUDITS).then()
                .statusCode(200)
                .body("audits.suspicious", everyItem(equalTo(false)))
                .body("audits.gameId", hasItem(weak.gameId().toString()))
                .body("audits.gameId", not(hasItem(bot.gameId().toString())));
    }

    @Test
    void aShortGameIsNeverMeasuredNorFlagged() {
        detector().pass();
        assertTrue(QuarkusTransaction.requiringNew().call(
                () -> GameAudit.<GameAudit>findById(shortBot.gameId()).suspicionCheckedAt == null));
        admin().when().get(AUDITS + "/" + shortBot.gameId()).then()
                .statusCode(200)
                .body("summary.outcome", equalTo("RECORD"))
                .body("summary.suspicious", equalTo(false))
                .body("summary.aiAgreement", nullValue())
                .body("summary.comparedRounds", nullValue());
        // Re-validation measures too, with the same rule.
        admin().when().post(AUDITS + "/" + shortBot.gameId() + "/revalidate").then()
                .statusCode(200)
                .body("summary.suspicious", equalTo(false))
                .body("summary.comparedRounds", nullValue())
                .body("actions[-1].detail", equalTo("unchanged: RECORD"));
    }

    /**
     * A record whose measure fails (its stored replay no longer reads) is stored as measured with no round compared,
     * and the records after it are measured in the same pass: a failure that escaped the pass would leave every one
     * unmeasured, and the same record would fail it again on every pass after.
     */
    @Test
    void aRecordTheDetectorCannotMeasureIsStoredAsMeasuredAndHoldsBackNoOther() {
        GameFinished unreadable = Games.finished(player, Games.played(2052, Level.EASY, 30).replay());
        GameFinished after = Games.finished(player, Games.played(2053, Level.EASY, 30).replay());
        Games.publish(unreadable, after);
        await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                () -> GameAudit.count("gameId in ?1 and outcome = ?2", java.util.List.of(unreadable.gameId(),
                        after.gameId()), Outcome.RECORD) == 2));
        QuarkusTransaction.requiringNew().run(() -> GameAudit.update("replay = ?1 where gameId = ?2",
                "{\"not\": \"a replay\"}", unreadable.gameId()));
        detector().pass();
        QuarkusTransaction.requiringNew().run(() -> {
            GameAudit failed = GameAudit.findById(unreadable.gameId());
            assertTrue(failed.suspicionCheckedAt != null, "stored as measured");
            assertEquals(0, failed.comparedRounds);
            assertTrue(!failed.suspicious);
            assertTrue(measured(after.gameId()), "the record after it measured in the same pass");
        });
    }

    @Test
    void revalidationMeasuresAgainAndSaysSo() {
        admin().when().post(AUDITS + "/" + bot.gameId() + "/revalidate").then()
                .statusCode(200)
                .body("summary.suspicious", equalTo(true))
                .body("summary.comparedRounds", equalTo(30))
                .body("actions.action", hasItem("REVALIDATE"))
                .body("actions[-1].detail", equalTo("unchanged: RECORD; cheat detector: 30 of 30 rounds played as "
                        + "the full-strength AI (1.00): suspicious (threshold 0.9 over at least 20 rounds)"));
        // Already flagged: no second flag in the trail.
        int flags = admin().when().get(AUDITS + "/" + bot.gameId()).then().extract()
                .<java.util.List<String>>path("actions.action").stream()
                .filter("FLAGGED_SUSPICIOUS"::equals).toList().size();
        assertEquals(1, flags);
        admin().when().post(AUDITS + "/" + weak.gameId() + "/revalidate").then()
                .statusCode(200)
                .body("summary.suspicious", equalTo(false))
                .body("actions[-1].detail", startsWith("unchanged: RECORD; cheat detector: "));
    }

    /**
     * {@code bloc.leaderboard.suspicion.enabled=false} "makes the job's passes do nothing on a replica (re-validation
     * still measures)". The job is {@code CheatDetector.scheduled()}, what the Quarkus scheduler runs as
     * {@value CheatDetector#JOB}; it is run here directly (no test profile, no second application) with the
     * detector's configuration swapped for one that differs from the test profile's only by {@code enabled=false},
     * from before the games are published (so a pass of the scheduler meanwhile does nothing either) to after the
     * re-validation. Then, the configuration back, the same job measures the game left unmeasured.
     */
    @Test
    void disabledTheJobsPassesMeasureNothingYetReValidationStillMeasures() throws Exception {
        GameFinished.Player off = Games.player("off-" + UUID.randomUUID());
        Replay first = Games.played(2031, Level.EASY, 24).replay();
        Replay second = Games.played(2032, Level.EASY, 24).replay();
        assertEquals(24, first.claimedRounds());
        assertEquals(24, second.claimedRounds());
        GameFinished revalidated = Games.finished(off, first);
        GameFinished left = Games.finished(off, second);
        CheatDetector detector = ClientProxy.unwrap(detector());
        LeaderboardConfig configured = config(detector);
        try {
            config(detector, disabled(configured));
            Games.publish(revalidated, left);
            await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                    () -> GameRecord.count("gameId in ?1", java.util.List.of(revalidated.gameId(), left.gameId()))
                            == 2));

            scheduled(detector);
            assertTrue(QuarkusTransaction.requiringNew().call(
                    () -> !measured(revalidated.gameId()) && !measured(left.gameId())),
                    "disabled: the job's pass measured nothing");

            admin().when().post(AUDITS + "/" + revalidated.gameId() + "/revalidate").then()
                    .statusCode(200)
                    .body("summary.comparedRounds", equalTo(24))
                    .body("summary.suspicionCheckedAt", notNullValue())
                    .body("summary.suspicious", equalTo(true))
                    .body("actions.find { it.action == 'REVALIDATE' }.detail",
                            startsWith("unchanged: RECORD; cheat detector: 24 of 24 rounds"))
                    .body("actions.action", hasItem("FLAGGED_SUSPICIOUS"));
        } finally {
            config(detector, configured);
        }
        assertTrue(QuarkusTransaction.requiringNew().call(() -> !measured(left.gameId())));
        scheduled(detector);
        assertTrue(QuarkusTransaction.requiringNew().call(() -> measured(left.gameId())),
                "enabled: the same job measures it");
    }

    /** Runs the detector's job as the Quarkus scheduler does ({@code scheduled()}, package-private). */
    private static void scheduled(CheatDetector detector) throws Exception {
        Method job = CheatDetector.class.getDeclaredMethod("scheduled");
        job.setAccessible(true);
        job.invoke(detector);
    }

    private static LeaderboardConfig config(CheatDetector detector) throws Exception {
        Field field = CheatDetector.class.getDeclaredField("config");
        field.setAccessible(true);
        return (LeaderboardConfig) field.get(detector);
    }

    private static void config(CheatDetector detector, LeaderboardConfig config) throws Exception {
        Field field = CheatDetector.class.getDeclaredField("config");
        field.setAccessible(true);
        field.set(detector, config);
    }

    /** {@code configured} but for {@code bloc.leaderboard.suspicion.enabled=false}. */
    private static LeaderboardConfig disabled(LeaderboardConfig configured) {
        LeaderboardConfig.Suspicion suspicion = configured.suspicion();
        LeaderboardConfig.Suspicion off = proxy(LeaderboardConfig.Suspicion.class, suspicion, "enabled", false);
        return proxy(LeaderboardConfig.class, configured, "suspicion", off);
    }

    /** {@code delegate} but for the method {@code name}, which answers {@code answer}. */
    private static <T> T proxy(Class<T> type, T delegate, String name, Object answer) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, method, args) -> {
            if (method.getName().equals(name) && method.getParameterCount() == 0) {
                return answer;
            }
            try {
                return method.invoke(delegate, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }

    @Test
    void theSuspiciousFilterIsTrueOrFalse() {
        admin().queryParam("suspicious", "maybe").when().get(AUDITS).then()
                .statusCode(400).contentType("application/problem+json")
                .body("detail", equalTo("'suspicious' must be true or false, got 'maybe'"));
        var list = admin().queryParam("suspicious", "TRUE").queryParam("outcome", "REJECTED").when().get(AUDITS)
                .then().statusCode(200).extract().<java.util.List<Object>>path("audits");
        assertTrue(list.isEmpty(), list.toString());
    }
}
