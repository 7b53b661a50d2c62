package com.bloceclat.leaderboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.bloceclat.leaderboard.service.RefusedRetention.Policy;
import com.bloceclat.leaderboard.service.RefusedRetention;
import com.bloceclat.testsupport.PrometheusText;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Sort;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Issue 13: the refused trail has a retention and a row cap, pruned by the Quarkus scheduler. The passes are run here
 * directly, as of a chosen instant (no sleeps, no waiting for the scheduler); rows are put in the real table with the
 * times a pass judges by. Each test's rows are on a topic of its own; assertions look at those.
 */
@QuarkusTest
class RefusedRetentionTest {

    @Inject
    RefusedRetention retention;

    @Inject
    Scheduler scheduler;

    static void refused(String topic, long offset, Instant at) {
        QuarkusTransaction.requiringNew().run(() -> RefusedMessage.storeOnce(topic, 0, offset, "k-" + offset,
                "unsigned: not a signed envelope (a JSON object)", "{}", null, at.atOffset(ZoneOffset.UTC)));
    }

    static List<Long> offsets(String topic) {
        return QuarkusTransaction.requiringNew().call(() -> RefusedMessage.<RefusedMessage>list("topic",
                Sort.ascending("kafkaOffset"), topic).stream().map(r -> r.kafkaOffset).toList());
    }

    static final String PRUNED = "leaderboard_refused_pruned_total";
    static final String[] EXPIRED = {"why", "expired"};
    static final String[] CAP = {"why", "cap"};

    @Test
    void rowsRefusedLongerAgoThanTheRetentionAreDeletedTheOthersStay() {
        String topic = "retention-" + UUID.randomUUID();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        // read before the rows exist: whichever pass deletes them (this test's, or the scheduler's) counts them after
        double expiredBefore = PrometheusText.value(PRUNED, EXPIRED);
        refused(topic, 1, now.minus(Duration.ofDays(400)));
        refused(topic, 2, now.minus(Duration.ofDays(30)).minusSeconds(1));
        refused(topic, 3, now.minus(Duration.ofDays(30)).plusSeconds(1));
        refused(topic, 4, now.minus(Duration.ofDays(1)));
        refused(topic, 5, now);

        RefusedRetention.Pruned pruned = retention.prune(now, retention.policy());
        assertEquals(List.of(3L, 4L, 5L), offsets(topic));
        // (other classes' rows are all recent: only these two were past the retention, unless a pass of the
        // scheduler took them first)
        assertEquals(0, pruned.overCap());
        // counted (docs: leaderboard_refused_pruned_total{why="expired"}): at least these two, and all this pass took
        double expired = PrometheusText.value(PRUNED, EXPIRED) - expiredBefore;
        assertTrue(expired >= 2 && expired >= pruned.expired(), "counted as expired: " + expired + ", " + pruned);

        // A second pass as of 30 days later takes the rest but the one refused "now".
        retention.prune(now.plus(Duration.ofDays(30)), retention.policy());
        assertEquals(List.of(5L), offsets(topic));
    }

    @Test
    void beyondTheRowCapTheOldestGoFirst() {
        String topic = "cap-" + UUID.randomUUID();
        // Refused "in the future", so that these are the newest rows of the table whatever other classes left.
        Instant later = Instant.now().plus(Duration.ofDays(3650)).truncatedTo(ChronoUnit.MILLIS);
        double capBefore = PrometheusText.value(PRUNED, CAP);
        for (int i = 1; i <= 5; i++) {
            refused(topic, i, later.plusSeconds(i));
        }
        // Two rows at the very same instant: the one with the larger id is the newer.
        refused(topic, 6, later.plusSeconds(10));
        refused(topic, 7, later.plusSeconds(10));

        RefusedRetention.Pruned pruned = retention.prune(later, new Policy(Duration.ofDays(36500), 4));
        assertEquals(List.of(4L, 5L, 6L, 7L), offsets(topic));
        assertEquals(0, pruned.expired());
        // counted (docs: leaderboard_refused_pruned_total{why="cap"}): at least these three, and all this pass took
        double cap = PrometheusText.value(PRUNED, CAP) - capBefore;
        assertTrue(cap >= 3 && cap >= pruned.overCap(), "counted as beyond the cap: " + cap + ", " + pruned);

        retention.prune(later, new Policy(Duration.ofDays(36500), 1));
        assertEquals(List.of(7L), offsets(topic));
        retention.prune(later, new Policy(Duration.ofDays(36500), 0));
        assertEquals(List.of(), offsets(topic));
    }

    @Test
    void theConfiguredPolicyIsThirtyDaysAndAHundredThousandRowsRunByTheScheduler() {
        Policy policy = retention.policy();
        assertEquals(Duration.ofDays(30), policy.retention());
        assertEquals(100_000, policy.maxRows());
        assertEquals(Instant.parse("2026-11-01T12:00:00Z"), policy.cutoff(Instant.parse("2026-12-01T12:00:00Z")));
        assertNotNull(scheduler.getScheduledJob(RefusedRetention.JOB), "scheduled by the Quarkus scheduler");
        assertThrows(IllegalArgumentException.class, () -> new Policy(Duration.ofDays(-1), 10));
        assertThrows(IllegalArgumentException.class, () -> new Policy(Duration.ofDays(1), -1));
    }
}
