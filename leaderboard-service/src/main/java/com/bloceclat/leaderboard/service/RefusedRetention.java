package com.bloceclat.leaderboard.service;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.leaderboard.RefusedMessage;
import com.bloceclat.leaderboard.config.LeaderboardConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;

/**
 * Keeps the refused trail ({@code refused_message}) bounded: a flood of forged or oversized messages cannot grow it
 * without end. Guarantees, after each pass:
 * <ul>
 * <li>no refused message older than {@code bloc.leaderboard.refused.retention} (30 days, by {@code refused_at}) is
 * left;</li>
 * <li>at most {@code bloc.leaderboard.refused.max-rows} (100,000) are left: the newest (by {@code refused_at}, then
 * id); between two passes the table can grow by what arrives meanwhile.</li>
 * </ul>
 * The dead letter of each refused message (game-finished-dlq, the topic's own retention) is untouched. Run by the
 * Quarkus scheduler every {@code bloc.leaderboard.refused.prune-every} (1h) on each replica, one pass at a time
 * ({@code SKIP}); passes of two replicas at once delete the same rows, never more (no row locks are taken to pick
 * them: a row the other pass deleted is skipped by this one's DELETE). Deletes go {@code batch-size} rows per
 * transaction, along the index {@code refused_message_by_time}. A pass that fails (the database away) is logged and
 * the next pass does its work.
 */
@ApplicationScoped
public class RefusedRetention {

    private static final Logger LOG = Logger.getLogger(RefusedRetention.class);

    /** The scheduler's identity of the pass. */
    public static final String JOB = "refused-retention";

    @Inject
    LeaderboardConfig config;

    @Inject
    MeterRegistry registry;

    Clock clock = Clock.systemUTC();

    /** What a pass keeps: rows refused within {@code retention}, at most {@code maxRows} of them. */
    public record Policy(Duration retention, int maxRows) {

        public Policy {
            if (retention.isNegative() || maxRows < 0) {
                throw new IllegalArgumentException("a retention and a row cap are not negative");
            }
        }

        /** Rows refused before this instant are deleted. */
        public Instant cutoff(Instant now) {
            return now.minus(retention);
        }
    }

    /** What a pass deleted: rows past the retention, then rows beyond the cap. */
    public record Pruned(int expired, int overCap) {
    }

    @Scheduled(identity = JOB, every = "${bloc.leaderboard.refused.prune-every:1h}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        try {
            prune(clock.instant(), policy());
        } catch (RuntimeException e) {
            JobFailures.count(registry, JOB);
            LOG.warnf("Refused trail not pruned this time (%s); the next pass does it", e.toString());
        }
    }

    public Policy policy() {
        return new Policy(config.refused().retention(), config.refused().maxRows());
    }

    /** One pass as of {@code now}: deletes what the policy does not keep. */
    public Pruned prune(Instant now, Policy policy) {
        int batch = config.refused().batchSize();
        OffsetDateTime cutoff = policy.cutoff(now).atOffset(ZoneOffset.UTC);
        int expired = 0;
        int deleted;
        do {
            deleted = QuarkusTransaction.requiringNew().call(() -> RefusedMessage.getEntityManager().createNativeQuery("""
                    DELETE FROM refused_message WHERE id IN (
                        SELECT id FROM refused_message WHERE refused_at < :cutoff ORDER BY refused_at LIMIT :batch)
                    """).setParameter("cutoff", cutoff).setParameter("batch", batch).executeUpdate());
            expired += deleted;
        } while (deleted == batch);

        int overCap = 0;
        // The newest row that is not kept: it and every row older than it go.
        @SuppressWarnings("unchecked")
        List<Object[]> boundary = QuarkusTransaction.requiringNew().call(() -> RefusedMessage.getEntityManager()
                .createNativeQuery("""
                        SELECT refused_at, id FROM refused_message ORDER BY refused_at DESC, id DESC
                        OFFSET :keep LIMIT 1
                        """).setParameter("keep", policy.maxRows()).getResultList());
        if (!boundary.isEmpty()) {
            Object at = boundary.get(0)[0];
            long id = ((Number) boundary.get(0)[1]).longValue();
            do {
                deleted = QuarkusTransaction.requiringNew().call(() -> RefusedMessage.getEntityManager()
                        .createNativeQuery("""
                                DELETE FROM refused_message WHERE id IN (
                                    SELECT id FROM refused_message
                                    WHERE refused_at <= :at AND (refused_at < :at OR id <= :id)
                                    ORDER BY refused_at LIMIT :batch)
                                """).setParameter("at", at).setParameter("id", id).setParameter("batch", batch)
                        .executeUpdate());
                overCap += deleted;
            } while (deleted == batch);
        }
        if (expired + overCap > 0) {
            registry.counter("leaderboard.refused.pruned", "why", "expired").increment(expired);
            registry.counter("leaderboard.refused.pruned", "why", "cap").increment(overCap);
            LOG.infof("Refused trail pruned: %d refused before %s (retention %s), %d beyond the newest %d", expired,
                    cutoff, policy.retention(), overCap, policy.maxRows());
        }
        return new Pruned(expired, overCap);
    }
}
