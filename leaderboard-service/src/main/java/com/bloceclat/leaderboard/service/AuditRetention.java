package com.bloceclat.leaderboard.service;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.leaderboard.GameAudit;
import com.bloceclat.leaderboard.config.LeaderboardConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;

/**
 * Keeps the audits bounded in time: every game-finished leaves an audit with its replay and the validator's trace (up
 * to megabytes for a long game), a guest's and a resigned one's too, and nothing deleted them. Guarantees, after a
 * pass as of {@code now}, R being {@code bloc.leaderboard.audits.retention} (90 days):
 * <ul>
 * <li>no audit of a game that is not a record (no {@code game_record} row: a guest's, an assisted, a chosen-seed, a
 * rejected, a duplicate, a practice game) whose game finished (its signed {@code finishedAt}) more than R before is
 * left, nor its admins' actions;</li>
 * <li>a record's audit is never deleted, struck or not: it is what the record stands on (its replay, its trace, the
 * re-validations and strikes).</li>
 * </ul>
 * An audit being re-validated is skipped (its row is locked: {@code FOR UPDATE SKIP LOCKED}), and one a pass has
 * locked makes a re-validation wait, then find no game (404). A message of a pruned game delivered again (only an
 * operator's replay of the topic, long after its retention) is judged again as new. Run by the Quarkus scheduler every
 * {@code prune-every} (1h) on each replica ({@code SKIP}); two replicas' passes skip each other's rows. Deletes go
 * {@code batch-size} audits a transaction, along the index {@code game_audit_prunable}. A pass that fails is logged,
 * and the next pass does its work.
 */
@ApplicationScoped
public class AuditRetention {

    private static final Logger LOG = Logger.getLogger(AuditRetention.class);

    /** The scheduler's identity of the pass. */
    public static final String JOB = "audit-retention";

    @Inject
    LeaderboardConfig config;

    @Inject
    MeterRegistry registry;

    Clock clock = Clock.systemUTC();

    @Scheduled(identity = JOB, every = "${bloc.leaderboard.audits.prune-every:1h}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        try {
            prune(clock.instant(), config.audits().retention());
        } catch (RuntimeException e) {
            JobFailures.count(registry, JOB);
            LOG.warnf("Audits not pruned this time (%s); the next pass does it", e.toString());
        }
    }

    /** One pass as of {@code now}: deletes the audits of games that are not records finished before now − retention. */
    public int prune(Instant now, Duration retention) {
        if (retention.isNegative() || retention.isZero()) {
            throw new IllegalArgumentException("a retention is positive: " + retention);
        }
        OffsetDateTime cutoff = now.minus(retention).atOffset(ZoneOffset.UTC);
        int batch = config.audits().batchSize();
        int total = 0;
        int deleted;
        do {
            deleted = QuarkusTransaction.requiringNew().call(() -> {
                @SuppressWarnings("unchecked")
                List<UUID> ids = GameAudit.getEntityManager().createNativeQuery("SELECT game_id FROM game_audit a "
                        + "WHERE outcome <> 'RECORD' AND finished_at < :cutoff "
                        + "AND NOT EXISTS (SELECT 1 FROM game_record r WHERE r.game_id = a.game_id) "
                        + "ORDER BY finished_at LIMIT :batch FOR UPDATE SKIP LOCKED")
                        .setParameter("cutoff", cutoff).setParameter("batch", batch).getResultList();
                if (ids.isEmpty()) {
                    return 0;
                }
                GameAudit.getEntityManager().createNativeQuery("DELETE FROM audit_action WHERE game_id IN (:ids)")
                        .setParameter("ids", ids).executeUpdate();
                GameAudit.getEntityManager().createNativeQuery("DELETE FROM game_audit WHERE game_id IN (:ids)")
                        .setParameter("ids", ids).executeUpdate();
                return ids.size();
            });
            total += deleted;
        } while (deleted == batch);
        if (total > 0) {
            registry.counter("leaderboard.audits.pruned").increment(total);
            LOG.infof("Audits pruned: %d of games that are not records, finished before %s (retention %s)", total,
                    cutoff, retention);
        }
        return total;
    }
}
