package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.containsStringIgnoringCase;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.hamcrest.Matcher;
import org.junit.jupiter.api.Test;

import com.bloceclat.leaderboard.service.AuditRetention;
import com.bloceclat.leaderboard.service.CheatDetector;
import com.bloceclat.leaderboard.service.ClockAheadRecovery;
import com.bloceclat.leaderboard.service.RefusedRetention;
import com.bloceclat.testsupport.PrometheusText;

import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class PlatformTest {

    /** Not one messaging channel named: none is part of startup or readiness. */
    private static final Matcher<String> NO_CHANNEL = not(anyOf(
            containsString("game-finished"), containsString("bloc-canary")));

    /** Kafka is not on a request's path (reads need only the database): readiness and startup leave it out. */
    @Test
    void liveAndReadyWithDatabaseCheckedAndKafkaOnlyInLiveness() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.name", hasItem("SmallRye Reactive Messaging - liveness check"))
                .body(containsString("game-finished"));
        // the messaging checks of startup and readiness stay, with no channel in them
        given().when().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"))
                .body(NO_CHANNEL);
        given().when().get("/q/health/ready").then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", hasItem("database"))
                .body("checks.name", not(hasItem(containsStringIgnoringCase("kafka"))))
                .body(NO_CHANNEL);
    }

    @Test
    void metricsOpenApiAndSwaggerUiAreServed() {
        given().when().get("/api/leaderboards/info").then().statusCode(200);
        given().when().get("/q/metrics").then()
                .statusCode(200)
                .body(containsString("uri=\"/api/leaderboards/info\""))
                // with Kafka out of readiness, the client's metrics are the one signal of a broker that is away
                // (docs/leaderboard-service.md "Faults"): the consumers' connection count is served
                .body(containsString("kafka_consumer_connection_count"));
        given().accept("application/json").when().get("/q/openapi").then()
                .statusCode(200)
                .body("paths", hasKey("/api/leaderboards/me"))
                .body("paths", hasKey("/api/leaderboards/admin/canary/{id}"))
                .body("paths", hasKey("/api/leaderboards/{level}"))
                .body("paths", hasKey("/api/leaderboards/{level}/me"))
                .body("paths", hasKey("/api/leaderboards/me/games"))
                .body("paths", hasKey("/api/leaderboards/admin/audits/{gameId}/strike"))
                .body("paths", hasKey("/api/leaderboards/{level}/daily"))
                .body("paths", hasKey("/api/leaderboards/{level}/daily/me"))
                .body("paths", hasKey("/api/leaderboards/admin/audits/refused"));
        given().when().get("/q/swagger-ui/").then().statusCode(200);
    }

    /**
     * docs/platform.md: every scheduled job's failure counter is registered when the service starts, so that its first
     * failure is an increase an alert rule sees (a counter born at its first failure is not one to {@code increase()}).
     */
    @Inject
    Scheduler scheduler;

    @Test
    void everyScheduledJobsFailureCounterIsServedFromTheStart() {
        String metrics = PrometheusText.scrape();
        // every job the scheduler runs here (one added later is not forgotten), and those the tests' settings turn off
        Set<String> jobs = new TreeSet<>(List.of(AuditRetention.JOB, RefusedRetention.JOB, CheatDetector.JOB,
                ClockAheadRecovery.JOB));
        scheduler.getScheduledJobs().forEach(trigger -> jobs.add(trigger.getId()));
        for (String job : jobs) {
            assertTrue(metrics.lines().anyMatch(l -> l.startsWith("bloc_job_failures_total{")
                    && l.contains("job=\"" + job + "\"")), job + " in " + metrics);
        }
        // and the clock-ahead recovery's games that failed, which platform.md has an alert rule on (it was born at
        // its first failure, which such a rule's increase() cannot see)
        assertTrue(metrics.lines().anyMatch(l -> l.startsWith("leaderboard_clock_ahead_rejudged_total{")
                && l.contains("outcome=\"FAILED\"")), metrics);
    }

    @Test
    void publicInfoNamesTheService() {
        given().when().get("/api/leaderboards/info").then()
                .statusCode(200)
                .body("service", equalTo("leaderboard-service"));
    }

    /**
     * A dead letter is on every in-sync replica before its message is acknowledged (acks=all): the connector's
     * default, 1, would let a broker's loss lose a message that was neither judged nor kept. The test broker is one
     * node, so only the configuration can show it.
     */
    @Test
    void messagesAreSentWithAcksFromEveryInSyncReplica() {
        for (String channel : List.of("game-finished-dlq", "bloc-canary-dlq")) {
            assertEquals("all", ConfigProvider.getConfig()
                    .getValue("mp.messaging.outgoing." + channel + ".acks", String.class), channel);
        }
    }
}
