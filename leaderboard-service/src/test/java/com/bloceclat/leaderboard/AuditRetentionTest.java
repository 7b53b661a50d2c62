package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Level;
import com.bloceclat.leaderboard.config.LeaderboardConfig;
import com.bloceclat.leaderboard.service.AuditRetention;
import com.bloceclat.testsupport.PrometheusText;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The audits of games that are not records are deleted once their game finished more than the retention ago, with
 * their admins' actions; a record's audit stays. The pass runs here directly with a retention of two days, over audits
 * made three days old by hand (the scheduler's passes keep 90 days); every other audit of this run is younger. Its
 * games are DIABOLICAL ones: LeaderboardResourceTest counts the EASY records.
 */
@QuarkusTest
class AuditRetentionTest {

    @Inject
    AuditRetention retention;

    @Inject
    Scheduler scheduler;

    @Inject
    LeaderboardConfig config;

    static final String PRUNED = "leaderboard_audits_pruned_total";

    @Test
    void anOldAuditOfAGameThatIsNotARecordGoesWithItsActionsARecordsStays() {
        double prunedBefore = PrometheusText.value(PRUNED);
        GameFinished guest = Games.finished(null, Games.quick(Games.freshSeed(), Level.DIABOLICAL, 2).replay());
        GameFinished record = Games.finished(Games.player("kept-" + UUID.randomUUID()),
                Games.quick(Games.freshSeed(), Level.DIABOLICAL, 2).replay());
        GameFinished young = Games.finished(null, Games.quick(Games.freshSeed(), Level.DIABOLICAL, 2).replay());
        // a struck record: off the boards, but the audit is the evidence of why (leaderboard-service.md: "a record's
        // audit is never deleted, struck or not")
        GameFinished struck = Games.finished(Games.player("struck-" + UUID.randomUUID()),
                Games.quick(Games.freshSeed(), Level.DIABOLICAL, 2).replay());
        Games.publish(guest, record, young, struck);
        await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                () -> GameAudit.findById(guest.gameId()) != null && GameRecord.findById(record.gameId()) != null
                        && GameAudit.findById(young.gameId()) != null && GameRecord.findById(struck.gameId()) != null));
        // an admin's action on the guest game: its trail goes with it
        given().auth().oauth2(Tokens.admin("root")).when()
                .post(AdminAuditResourceTest.AUDITS + "/" + guest.gameId() + "/revalidate").then().statusCode(200);
        given().auth().oauth2(Tokens.admin("root")).contentType("application/json").body("{\"reason\":\"cheat\"}")
                .when().post(AdminAuditResourceTest.AUDITS + "/" + struck.gameId() + "/strike").then().statusCode(200);
        for (UUID id : new UUID[] {guest.gameId(), record.gameId(), struck.gameId()}) {
            QuarkusTransaction.requiringNew().run(() -> GameAudit.getEntityManager().createNativeQuery(
                    "UPDATE game_audit SET finished_at = now() - interval '3 days' WHERE game_id = :id")
                    .setParameter("id", id).executeUpdate());
        }

        int pruned = retention.prune(Instant.now(), Duration.ofDays(2));
        // counted (docs: leaderboard_audits_pruned_total): at least the guest's, and all this pass deleted
        double counted = PrometheusText.value(PRUNED) - prunedBefore;
        assertTrue(counted >= 1 && counted >= pruned, "counted: " + counted + ", pruned: " + pruned);

        QuarkusTransaction.requiringNew().run(() -> {
            assertNull(GameAudit.findById(guest.gameId()), "a guest's game, not a record");
            assertEquals(0, AuditAction.of(guest.gameId()).size());
            assertNotNull(GameAudit.findById(record.gameId()), "a record's audit stays");
            assertNotNull(GameRecord.findById(record.gameId()));
            assertNotNull(GameAudit.findById(young.gameId()), "finished within the retention");
            assertNotNull(GameAudit.findById(struck.gameId()), "a struck record's audit stays");
            assertTrue(AuditAction.of(struck.gameId()).stream().anyMatch(a -> a.kind == AuditAction.Kind.STRIKE),
                    "with its strike");
        });
        given().auth().oauth2(Tokens.admin("root")).when()
                .get(AdminAuditResourceTest.AUDITS + "/" + guest.gameId()).then().statusCode(404);
    }

    /** An audit a re-validation holds (its row locked) is left to the next pass, which never waits for it. */
    @Test
    void anAuditBeingRevalidatedIsLeftToTheNextPass() throws Exception {
        GameFinished guest = Games.finished(null, Games.quick(Games.freshSeed(), Level.DIABOLICAL, 2).replay());
        Games.publish(guest);
        await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                () -> GameAudit.findById(guest.gameId()) != null));
        QuarkusTransaction.requiringNew().run(() -> GameAudit.getEntityManager().createNativeQuery(
                "UPDATE game_audit SET finished_at = now() - interval '3 days' WHERE game_id = :id")
                .setParameter("id", guest.gameId()).executeUpdate());
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> revalidation = CompletableFuture.runAsync(() -> QuarkusTransaction.requiringNew()
                .run(() -> {
                    GameAudit.getEntityManager().createNativeQuery(
                            "SELECT game_id FROM game_audit WHERE game_id = :id FOR UPDATE")
                            .setParameter("id", guest.gameId()).getResultList();
                    locked.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
        try {
            assertTrue(locked.await(10, TimeUnit.SECONDS));
            CompletableFuture.supplyAsync(() -> retention.prune(Instant.now(), Duration.ofDays(2)))
                    .get(10, TimeUnit.SECONDS);
            assertNotNull(QuarkusTransaction.requiringNew().call(() -> GameAudit.findById(guest.gameId())));
        } finally {
            release.countDown();
            revalidation.get(10, TimeUnit.SECONDS);
        }
        retention.prune(Instant.now(), Duration.ofDays(2));
        assertNull(QuarkusTransaction.requiringNew().call(() -> GameAudit.findById(guest.gameId())));
    }

    @Test
    void theConfiguredRetentionIsNinetyDaysRunByTheScheduler() {
        assertEquals(Duration.ofDays(90), config.audits().retention());
        assertNotNull(scheduler.getScheduledJob(AuditRetention.JOB), "scheduled by the Quarkus scheduler");
        assertThrows(IllegalArgumentException.class, () -> retention.prune(Instant.now(), Duration.ZERO));
    }
}
