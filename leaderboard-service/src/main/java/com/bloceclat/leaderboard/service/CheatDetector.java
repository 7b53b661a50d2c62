package com.bloceclat.leaderboard.service;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.random.RandomGenerator;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.bloceclat.common.jobs.JobFailures;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.IllegalMoveException;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.replay.Event;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.bloceclat.leaderboard.AuditAction;
import com.bloceclat.leaderboard.GameAudit;
import com.bloceclat.leaderboard.Outcome;
import com.bloceclat.leaderboard.config.LeaderboardConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;

/**
 * Flags records played as the engine plays. For each round the player completed without a hint or an undo, it asks
 * the full-strength AI ({@code hint} mode, seed {@link #SEED}) what it would have played from the round's start
 * (board, streak, miss, level, the round's three pieces) and compares its placements with the player's, as a multiset
 * of (piece, row, col): the order of play does not count. A record with at least {@code min-rounds} compared rounds of
 * which a share of at least {@code threshold} match is suspicious: a person does not pick the engine's exact
 * placements for nine rounds in ten over twenty rounds, when each round offers hundreds to thousands of sequences.
 *
 * <p>Off the request path: every {@code interval} (the Quarkus scheduler), one pass at a time per replica takes the
 * records not measured yet, {@code batch-size} at a time, locked with {@code FOR UPDATE SKIP LOCKED} (replicas share
 * the queue, never measure a game twice at once), measures them, stores the figures and writes the flag to the audit
 * trail, all in one transaction per batch. A record compares at most {@code max-compared-rounds} rounds, drawn at
 * random from a longer one, so a batch's work is bounded whatever its records' lengths. The Kafka consumer never
 * waits for it. Records shorter than {@code min-rounds} cannot be flagged and are not measured.
 */
@ApplicationScoped
public class CheatDetector {

    /** The solver's seed for its sampled next rounds: the solver protocol's default, so what a player gets. */
    public static final long SEED = 0;
    /** The audit trail's actor for the detector's flags. */
    public static final String ACTOR = "cheat-detector";
    /** The scheduler's identity of the worker's pass. */
    public static final String JOB = "cheat-detector";

    private static final Logger LOG = Logger.getLogger(CheatDetector.class);

    @Inject
    LeaderboardConfig config;

    @Inject
    MeterRegistry metrics;

    Clock clock = Clock.systemUTC();

    /** Draws which rounds of a long record are compared: unknown while the game is played. */
    private final RandomGenerator random = new SecureRandom();

    /** Set when this replica stops: a pass ends after its current batch. */
    private volatile boolean stopping;

    /**
     * How a game's rounds compare with the AI's.
     *
     * @param compared rounds completed without a hint or an undo
     * @param matched  of those, rounds whose placements are exactly the AI's
     */
    public record Agreement(int compared, int matched) {
        /** matched / compared; 0 when nothing was compared. */
        public double share() {
            return compared == 0 ? 0 : (double) matched / compared;
        }
    }

    /** A measured game: its agreement, whether it is suspicious, and whether it has just become so. */
    public record Check(Agreement agreement, boolean suspicious, boolean newlyFlagged) {
    }

    /** Every complete, unassisted round of {@code replay} compared with the AI's answer (tests and benchmarks). */
    public static Agreement measure(Replay replay) {
        return measure(replay, Integer.MAX_VALUE, null);
    }

    /**
     * Replays the game with {@link Game#apply} (the engine's one fold over events, cheap) to find its complete,
     * unassisted rounds, then compares at most {@code maxCompared} of them, drawn at random when there are more, with
     * the full-strength AI's answer from the same start (the costly part: a search each). The draw bounds the work a
     * record of any length asks for (a 20,000-round record once cost the worker minutes a pass, every pass), and is
     * not known while the game is played, so no stretch of rounds can be kept out of the sample. Stops at the first
     * illegal event (a validated replay has none).
     */
    public static Agreement measure(Replay replay, int maxCompared, RandomGenerator random) {
        List<PlayedRound> rounds = unassistedRounds(replay);
        if (rounds.size() > maxCompared) {
            List<PlayedRound> all = rounds;
            rounds = random.ints(0, all.size()).distinct().limit(maxCompared).mapToObj(all::get).toList();
        }
        int matched = 0;
        for (PlayedRound r : rounds) {
            if (r.placements().equals(sorted(aiPlacements(r.board(), r.pieces(), r.streak(), r.miss(), replay)))) {
                matched++;
            }
        }
        return new Agreement(rounds.size(), matched);
    }

    /** A round as the player completed it, unassisted: its start and the player's placements (sorted keys). */
    private record PlayedRound(long board, Piece[] pieces, int streak, int miss, List<String> placements) {
    }

    private static List<PlayedRound> unassistedRounds(Replay replay) {
        Game game = new Game(replay.seed(), replay.level());
        List<PlayedRound> rounds = new ArrayList<>();
        // The round being played: its start, and whether a hint or an undo came in it.
        long board = game.board();
        int streak = game.streak();
        int miss = game.miss();
        Piece[] pieces = game.pieces();
        boolean assisted = false;
        try {
            for (Event event : replay.events()) {
                if (game.gameOver()) {
                    break;
                }
                Game.Step step = game.apply(event);
                assisted |= step.assisting();
                if (step.move() == null || !step.move().roundCompleted()) {
                    continue; // the round goes on (the last one, if never completed, is not compared)
                }
                if (!assisted) {
                    rounds.add(new PlayedRound(board, pieces, streak, miss, sorted(keys(step.standing()))));
                }
                board = game.board();
                streak = game.streak();
                miss = game.miss();
                pieces = game.pieces();
                assisted = false;
            }
        } catch (IllegalMoveException e) {
            // Not a valid replay past this point (an illegal move, or an event of another round): what was played
            // so far stands.
        }
        return rounds;
    }

    private static List<String> keys(List<Game.Move> moves) {
        List<String> keys = new ArrayList<>(moves.size());
        for (Game.Move move : moves) {
            keys.add(key(move.piece(), move.row(), move.col()));
        }
        return keys;
    }

    private static List<String> aiPlacements(long board, Piece[] pieces, int streak, int miss, Replay replay) {
        List<Piece> list = Arrays.asList(pieces);
        Solution solution = Solver.solve(new SolveRequest(board, list, streak, miss, replay.level(), Mode.HINT,
                SolveRequest.MAX_STRENGTH, SEED, 0));
        List<String> keys = new ArrayList<>(3);
        for (Solution.Placement p : solution.best().placements()) {
            keys.add(key(list.get(p.piece()), p.row(), p.col()));
        }
        return keys;
    }

    private static String key(Piece piece, int row, int col) {
        return piece.name() + "@" + row + "," + col;
    }

    private static List<String> sorted(List<String> keys) {
        return keys.stream().sorted().toList();
    }

    /**
     * Measures a game and stores the figures on its audit row, in the caller's transaction. Only records of at least
     * {@code min-rounds} rounds are measured; for any other game the figures are cleared and null is returned.
     */
    public Check measureAndStore(GameAudit audit, OffsetDateTime now) {
        LeaderboardConfig.Suspicion settings = config.suspicion();
        if (audit.outcome != Outcome.RECORD || audit.rounds < settings.minRounds()) {
            audit.suspicionCheckedAt = null;
            audit.aiAgreement = null;
            audit.comparedRounds = null;
            audit.suspicious = false;
            return null;
        }
        Agreement agreement;
        try {
            agreement = measure(Replay.fromJson(audit.replay), settings.maxComparedRounds(), random);
        } catch (RuntimeException e) {
            LOG.warnf("Game %s: the cheat detector could not measure it (%s)", audit.gameId, e.toString());
            agreement = new Agreement(0, 0);
        }
        boolean suspicious = agreement.compared() >= settings.minRounds()
                && agreement.share() >= settings.threshold();
        boolean newly = suspicious && !audit.suspicious;
        audit.suspicionCheckedAt = now;
        audit.aiAgreement = (float) agreement.share();
        audit.comparedRounds = agreement.compared();
        audit.suspicious = suspicious;
        return new Check(agreement, suspicious, newly);
    }

    /** Writes the flag of a game that has just become suspicious to the audit trail. */
    public void logFlag(GameAudit audit, Check check, OffsetDateTime now) {
        if (check != null && check.newlyFlagged()) {
            AuditAction.log(audit.gameId, AuditAction.Kind.FLAGGED_SUSPICIOUS, ACTOR, now, describe(check));
            LOG.infof("Game %s flagged suspicious: %s", audit.gameId, describe(check));
        }
    }

    /** "24 of 25 rounds played as the full-strength AI (0.96): suspicious". */
    public String describe(Check check) {
        Agreement a = check.agreement();
        return a.matched() + " of " + a.compared() + " rounds played as the full-strength AI ("
                + String.format(Locale.ROOT, "%.2f", a.share()) + ")"
                + (check.suspicious() ? ": suspicious (threshold " + config.suspicion().threshold() + " over at least "
                        + config.suspicion().minRounds() + " rounds)" : "");
    }

    void start(@Observes StartupEvent event) {
        if (!config.suspicion().enabled()) {
            LOG.info("Cheat detector disabled on this replica (bloc.leaderboard.suspicion.enabled=false)");
        }
    }

    void stop(@Observes ShutdownEvent event) {
        stopping = true;
    }

    /**
     * The worker: every {@code interval}, by the Quarkus scheduler, one pass at a time on this replica ({@code SKIP}: a
     * pass still measuring when the next is due is not joined by another).
     */
    @Scheduled(identity = JOB, every = "${bloc.leaderboard.suspicion.interval:5s}",
            delayed = "${bloc.leaderboard.suspicion.interval:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void scheduled() {
        if (config.suspicion().enabled()) {
            pass();
        }
    }

    /** Measures batches until the queue is empty (or this replica is stopping); a failed pass is retried later. */
    public void pass() {
        try {
            int size = config.suspicion().batchSize();
            while (!stopping && batch(size) == size) {
                // the queue may hold more
            }
        } catch (RuntimeException e) {
            JobFailures.count(metrics, JOB);
            LOG.warnf("Cheat detector pass failed (%s); the next pass retries", e.toString());
        }
    }

    /** Measures up to {@code size} records not measured yet, in one transaction; returns how many. */
    int batch(int size) {
        return QuarkusTransaction.requiringNew().timeout(600).call(() -> {
            @SuppressWarnings("unchecked")
            List<UUID> ids = GameAudit.getEntityManager().createNativeQuery("""
                    SELECT game_id FROM game_audit
                    WHERE outcome = 'RECORD' AND suspicion_checked_at IS NULL AND rounds >= :minRounds
                    ORDER BY processed_at LIMIT :size
                    FOR UPDATE SKIP LOCKED
                    """, UUID.class)
                    .setParameter("minRounds", config.suspicion().minRounds())
                    .setParameter("size", size)
                    .getResultList();
            for (UUID id : ids) {
                GameAudit audit = GameAudit.findById(id);
                OffsetDateTime now = OffsetDateTime.now(clock);
                logFlag(audit, measureAndStore(audit, now), now);
            }
            return ids.size();
        });
    }
}
