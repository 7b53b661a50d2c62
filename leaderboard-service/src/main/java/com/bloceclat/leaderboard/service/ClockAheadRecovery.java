package com.bloceclat.leaderboard.service;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

import org.jboss.logging.Logger;

import com.bloceclat.common.db.DatabaseFaults;
import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.leaderboard.GameAudit;
import com.bloceclat.leaderboard.Outcome;
import com.bloceclat.leaderboard.config.LeaderboardConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;

/**
 * Judges again, once its time has come, a game rejected only because game-service's clock ran ahead: its signed
 * {@code finishedAt} was more than {@code bloc.leaderboard.clock-skew} after leaderboard-service's now
 * ({@link RecordPolicy}, "claims: finishedAt … is in the future"). Its claims are signed, so only a wrong clock dates
 * them so (a forger cannot sign); judged at their receipt they were REJECTED, and only an admin's re-validation,
 * which nothing prompted, gave the player the record the game earns. Guarantees, for each pass as of {@code now}:
 * <ul>
 * <li>every such game whose {@code finishedAt} is no longer in the future (at most {@code now + clock-skew}) is
 * re-validated ({@link AuditService#revalidate}, actor {@value #ACTOR}: the same judgement as an admin's, kept in its
 * audit trail, measured by the cheat detector if it becomes a record), each in a transaction of its own;</li>
 * <li>no other game is judged again: a game rejected for any other reason (its replay, its other claims) keeps its
 * verdict;</li>
 * <li>a game whose time has not come is left for a later pass; one whose new verdict is again "in the future" (this
 * replica's clock behind the one that judged it) is left too, never taken twice by one pass.</li>
 * </ul>
 * Run by the Quarkus scheduler every {@code bloc.leaderboard.clock-ahead.every} (1m) on each replica ({@code SKIP}).
 * Each game is judged in a transaction of its own under its row's lock, and only if it still is such a rejection: two
 * replicas' passes, or a pass and an admin's re-validation, judge it once. A game of another rules version since
 * ({@link Verdict#unjudgeable}) is left as it was. Found along the partial index {@code game_audit_ahead} (V8), whose
 * predicate is the query's own. A pass that fails is counted ({@code JobFailures}) and logged; the next does its work.
 * A game whose judging fails for any reason but the database away (a fault of its own, a lock conflict with other
 * work on it) is counted {@code FAILED}, logged and left for the next pass; the pass goes on with the others, so one
 * such game holds back no other. One that keeps failing, or of another rules version, is looked at again by every
 * pass, a warning each time for a failure: alert on {@code outcome="FAILED"}. Counted in
 * {@code leaderboard_clock_ahead_rejudged_total{outcome}} (the new outcome, or {@code TAKEN}, {@code UNJUDGEABLE},
 * {@code FAILED}).
 */
@ApplicationScoped
public class ClockAheadRecovery {

    private static final Logger LOG = Logger.getLogger(ClockAheadRecovery.class);

    /** The scheduler's identity of the pass. */
    public static final String JOB = "clock-ahead-recovery";

    /** Its games' outcomes, {@code leaderboard_clock_ahead_rejudged_total{outcome}}. */
    public static final String REJUDGED = "leaderboard.clock.ahead.rejudged";

    /** The outcome of a game whose judging failed, registered at zero (an alert rule's increase sees the first). */
    public static final String FAILED = "FAILED";

    /** Who the audit trail says re-validated the game. */
    public static final String ACTOR = "leaderboard-service: finishedAt no longer in the future";

    @Inject
    LeaderboardConfig config;

    @Inject
    AuditService audits;

    @Inject
    MeterRegistry registry;

    Clock clock = Clock.systemUTC();

    @Scheduled(identity = JOB, every = "${bloc.leaderboard.clock-ahead.every:1m}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        try {
            pass();
        } catch (RuntimeException e) {
            JobFailures.count(registry, JOB);
            LOG.warnf("Games rejected for a clock ahead not judged again this time (%s); the next pass does it",
                    e.toString());
        }
    }

    private static final String TAKEN = "TAKEN";

    private static final String UNJUDGEABLE = "UNJUDGEABLE";

    /**
     * How the reason of such a rejection reads, as a LIKE pattern: the index's predicate word for word, and
     * {@link RecordPolicy#inTheFuture}'s twin in SQL.
     */
    static final String AHEAD = "claims: finishedAt % is in the future %";

    /** One pass as of this replica's clock: the number of games judged again. */
    public int pass() {
        Instant latest = clock.instant().plus(config.clockSkew());
        int batch = config.clockAhead().batchSize();
        Set<UUID> taken = new HashSet<>();
        List<UUID> ids;
        do {
            ids = QuarkusTransaction.requiringNew().call(() -> due(latest, batch, taken));
            for (UUID id : ids) {
                taken.add(id);
                String outcome;
                try {
                    outcome = QuarkusTransaction.requiringNew().call(() -> rejudge(id));
                    if (!outcome.equals(TAKEN) && !outcome.equals(UNJUDGEABLE)) { // those two: every pass, no news
                        LOG.infof("Game %s, rejected for a finishedAt in the future, judged again now its time has "
                                + "come: %s", id, outcome);
                    }
                } catch (RuntimeException e) {
                    if (DatabaseFaults.unavailable(e)) {
                        throw e; // the database away: the pass ends, the next one takes the game again
                    }
                    // anything else, a lock conflict with another's work on this game included: the next pass
                    // tries it again; a fault of this game's own keeps it from nobody else's
                    outcome = FAILED;
                    LOG.warnf("Game %s, rejected for a finishedAt in the future, not judged again this time: %s", id,
                            e.toString());
                }
                registry.counter(REJUDGED, "outcome", outcome).increment();
            }
        } while (ids.size() == batch);
        return taken.size();
    }

    /** The next {@code batch} games, oldest first, rejected only for a finishedAt in the future up to {@code latest}. */
    private static List<UUID> due(Instant latest, int batch, Set<UUID> taken) {
        @SuppressWarnings("unchecked")
        List<UUID> ids = GameAudit.getEntityManager().createNativeQuery("SELECT game_id FROM game_audit "
                + "WHERE outcome = 'REJECTED' AND reason LIKE '" + AHEAD + "' AND finished_at <= :latest "
                + "ORDER BY finished_at LIMIT :batch")
                .setParameter("latest", latest.atOffset(ZoneOffset.UTC))
                .setParameter("batch", batch + taken.size()).getResultList();
        // those a pass took and left (its verdict again in the future) come first: skipped, never taken twice
        return ids.stream().filter(id -> !taken.contains(id)).limit(batch).toList();
    }

    /**
     * One game re-validated under its lock, if it is still such a rejection (an admin's re-validation or another
     * replica's pass may have judged it meanwhile); its outcome after, or what kept it as it was.
     */
    private String rejudge(UUID id) {
        GameAudit audit = GameAudit.findById(id, LockModeType.PESSIMISTIC_WRITE);
        if (audit == null || audit.outcome != Outcome.REJECTED || !RecordPolicy.inTheFuture(audit.reason)) {
            return TAKEN;
        }
        if (Verdict.unjudgeable(audit.replay) != null) {
            return UNJUDGEABLE; // another rules version since: left as it was judged (AuditService.revalidate)
        }
        return audits.revalidate(id, ACTOR).outcome.name();
    }
}
