package com.bloceclat.game.service;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.game.config.GameConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;

/**
 * Keeps game-service's storage bounded in time: before it nothing deleted a game, so every game ever started stayed
 * with its events, and a client allowed 60 starts a minute could grow the database without end. Guarantees, after a
 * pass as of {@code now}, R being {@code bloc.retention.games} (90 days), "unchanged" meaning a game's
 * {@code updated_at} (its last move, undo, hint or end) is more than R before {@code now}, and but for rows a move or
 * another replica's pass held during the pass (left to the next one):
 * <ul>
 * <li>no solo game created more than R before and unchanged is left, finished or not, nor its events;</li>
 * <li>no match created more than R before whose every game is unchanged is left, nor its games, their events, its race
 * tickets and its private-race invitation (a match's games go with it, never one seat alone);</li>
 * <li>no race ticket or private-race invitation that never became a match and was created (a ticket: and last asked
 * for; an invitation: expired) more than R before is left.</li>
 * </ul>
 * A game being played is never deleted under its player: a pass locks the games it deletes ({@code FOR UPDATE SKIP
 * LOCKED}) and checks their age under the lock, so a move made meanwhile either commits first (the game is young again
 * and stays) or waits for the pass and then finds no game (404). Not touched: players' rows; the outbox (a sent message
 * is deleted when sent; a parked one stays for an operator, and carries all it needs without the game); what
 * leaderboard-service keeps (records and audits, with their replays). Run by the Quarkus scheduler every
 * {@code bloc.retention.prune-every} (1h) on each replica ({@code SKIP}; two replicas' passes skip each other's locked
 * rows and delete nothing twice), {@code bloc.retention.batch-size} (500) games, matches, tickets or invitations per
 * transaction, and no more events per transaction than {@link #EVENTS_PER_TRANSACTION} but for a single game (or a
 * match's games) that has more. A step (solo games, matches, tickets and invitations) that fails (the database away, a
 * transaction past its timeout) is logged, the next step still runs, and the next pass does its work.
 */
@ApplicationScoped
public class GameRetention {

    private static final Logger LOG = Logger.getLogger(GameRetention.class);

    /** The scheduler's identity of the pass. */
    public static final String JOB = "game-retention";

    /**
     * What a pass deletes: what has been unchanged for {@code retention}, {@code batch} games, matches, tickets or
     * invitations a transaction and no more than {@code events} events a transaction but for one game (or one match)
     * that has more.
     */
    public record Policy(Duration retention, int batch, int events) {

        public Policy {
            if (retention.isNegative() || retention.isZero() || batch < 1 || events < 1) {
                throw new IllegalArgumentException("a retention, a batch and an events bound are positive");
            }
        }
    }

    /** Events deleted per transaction, at most, but for one game of more (a game has at most 100,000). */
    static final int EVENTS_PER_TRANSACTION = 100_000;

    @Inject
    GameConfig.Retention config;

    @Inject
    MeterRegistry metrics;

    Clock clock = Clock.systemUTC();

    /** What a pass deleted. */
    public record Pruned(int games, int events, int matches, int tickets, int invitations) {

        Pruned plus(Pruned o) {
            return new Pruned(games + o.games, events + o.events, matches + o.matches, tickets + o.tickets,
                    invitations + o.invitations);
        }

        boolean any() {
            return games + matches + tickets + invitations > 0;
        }
    }

    static final Pruned NONE = new Pruned(0, 0, 0, 0, 0);

    @Scheduled(identity = JOB, every = "${bloc.retention.prune-every:1h}", delayed = "1m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        try {
            prune(clock.instant(), policy());
        } catch (RuntimeException e) {
            JobFailures.count(metrics, JOB);
            LOG.warnf("Games not pruned this time (%s); the next pass does it", e.toString());
        }
    }

    /** The configured policy. */
    public Policy policy() {
        return new Policy(config.games(), config.batchSize(), EVENTS_PER_TRANSACTION);
    }

    /**
     * One pass as of {@code now}: deletes what has been unchanged for longer than the policy's retention. Each of its
     * three steps goes on whatever the one before it did: a step that fails is logged, and the others still run.
     */
    public Pruned prune(Instant now, Policy policy) {
        OffsetDateTime cutoff = now.minus(policy.retention()).atOffset(ZoneOffset.UTC);
        Pruned total = NONE;
        total = total.plus(step("solo games", () -> RetentionSteps.soloGames(cutoff, policy)));
        total = total.plus(step("matches", () -> RetentionSteps.matches(cutoff, policy)));
        total = total.plus(step("race tickets and invitations", () -> RetentionSteps.unmatched(cutoff,
                policy.batch())));
        if (total.any()) {
            metrics.counter("game.retention.deleted", "what", "games").increment(total.games());
            metrics.counter("game.retention.deleted", "what", "events").increment(total.events());
            metrics.counter("game.retention.deleted", "what", "matches").increment(total.matches());
            metrics.counter("game.retention.deleted", "what", "tickets").increment(total.tickets());
            metrics.counter("game.retention.deleted", "what", "invitations").increment(total.invitations());
            LOG.infof("Games unchanged since %s pruned (retention %s): %d solo or match games with %d events, "
                    + "%d matches, %d race tickets, %d private-race invitations", cutoff, policy.retention(), total.games(),
                    total.events(), total.matches(), total.tickets(), total.invitations());
        }
        return total;
    }

    /** Runs {@code transaction} in transactions of its own while it says there is more; a failure ends the step. */
    private Pruned step(String what, Supplier<RetentionSteps.Step> transaction) {
        Pruned total = NONE;
        try {
            RetentionSteps.Step step;
            do {
                step = QuarkusTransaction.requiringNew().call(transaction::get);
                total = total.plus(step.pruned());
            } while (step.more());
        } catch (RuntimeException e) {
            JobFailures.count(metrics, JOB); // the pass goes on: counted here
            LOG.warnf("Retention: %s not pruned this time (%s); the next pass goes on", what, e.toString());
        }
        return total;
    }
}
