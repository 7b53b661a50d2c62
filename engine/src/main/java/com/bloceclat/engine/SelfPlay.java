package com.bloceclat.engine;

import com.bloceclat.engine.solver.GamePosition;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Plays whole games on the project's own streams (or on a held-out {@link WeightTable}'s) with the
 * solver, to measure the AI's strength and speed. Game g uses seed {@code firstSeed + g}, so every
 * player meets the same games.
 */
public final class SelfPlay {
    private SelfPlay() {
    }

    /** One game's outcome and the solver time each round took, in nanoseconds. */
    public record GameResult(long seed, int rounds, int score, boolean capped, long[] roundNanos) {
    }

    /**
     * Plays one game.
     *
     * @param strength 1..5 for the AI, or 0 for the plain {@code maxLines} player
     */
    public static GameResult play(long seed, Level level, int strength, int maxRounds) {
        return play(seed, level, Deal.seeded(seed, level), strength, maxRounds);
    }

    /** Plays one game of a held-out weights table (the AI is told the table's level). */
    public static GameResult play(long seed, WeightTable table, int strength, int maxRounds) {
        return play(seed, table.level(), table.deal(seed), strength, maxRounds);
    }

    private static GameResult play(long seed, Level level, Deal deal, int strength, int maxRounds) {
        Game game = new Game(seed, level, deal, maxRounds);
        List<Long> times = new ArrayList<>();
        while (!game.gameOver()) {
            times.add(playRound(game, strength, seed * 31 + game.round()));
        }
        boolean capped = maxRounds != Game.NO_CAP && game.round() >= maxRounds;
        return new GameResult(seed, game.round(), game.score(), capped,
                times.stream().mapToLong(Long::longValue).toArray());
    }

    /**
     * Plays the rest of the current round as the solver says.
     *
     * @param strength 1..5 for the AI, or 0 for the plain {@code maxLines} player
     * @return the solver's time, in nanoseconds
     */
    public static long playRound(Game game, int strength, long noiseSeed) {
        int round = game.round();
        long spent = 0;
        while (!game.gameOver() && game.round() == round) {
            Mode mode = strength == 0 ? Mode.MAX_LINES : Mode.AI;
            GamePosition position = GamePosition.of(game, mode, strength == 0 ? SolveRequest.MAX_STRENGTH : strength,
                    noiseSeed);
            long t0 = System.nanoTime();
            Solution sol = Solver.solve(position.request());
            spent += System.nanoTime() - t0;
            if (sol.best().placements().isEmpty()) {
                throw new IllegalStateException("solver placed nothing on a board where a piece fits");
            }
            for (Solution.Placement p : sol.best().placements()) {
                game.place(position.slotOf(p), p.row(), p.col());
            }
        }
        return spent;
    }

    /**
     * The game of the first seed (1, 2, ...) on which the AI of {@code strength} is still playing after
     * {@code rounds} rounds, stopped there: a long game, the same every run (the engine is deterministic). Tests use it
     * for replays as long as a marathon's.
     */
    public static Game firstGameLasting(Level level, int strength, int rounds) {
        for (long seed = 1; ; seed++) {
            Game g = new Game(seed, level);
            while (!g.gameOver() && g.round() < rounds) {
                playRound(g, strength, seed * 31 + g.round());
            }
            if (!g.gameOver()) {
                return g;
            }
        }
    }

    /** Plays {@code games} games on {@code threads} threads; results in seed order. */
    public static List<GameResult> run(Level level, int strength, int games, int maxRounds, long firstSeed,
                                       int threads) throws Exception {
        return run(level, null, strength, games, maxRounds, firstSeed, threads);
    }

    /**
     * Plays {@code games} games on {@code threads} threads; results in seed order.
     *
     * @param table the pieces' weights, or null for the level's own stream
     */
    public static List<GameResult> run(Level level, WeightTable table, int strength, int games, int maxRounds,
                                       long firstSeed, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<GameResult>> futures = new ArrayList<>();
            for (int g = 0; g < games; g++) {
                long seed = firstSeed + g;
                futures.add(pool.submit(() -> table == null ? play(seed, level, strength, maxRounds)
                        : play(seed, table, strength, maxRounds)));
            }
            List<GameResult> out = new ArrayList<>();
            for (Future<GameResult> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Summary figures of a run. */
    public record Summary(int games, double meanRounds, double medianRounds, double meanScore, double cappedPercent,
                          double deathsPer1000Rounds, double msPerRoundMean, double msPerRoundP99) {
        public static Summary of(List<GameResult> results) {
            int[] rounds = results.stream().mapToInt(GameResult::rounds).sorted().toArray();
            int n = rounds.length;
            double median = n % 2 == 1 ? rounds[n / 2] : (rounds[n / 2 - 1] + rounds[n / 2]) / 2.0;
            long totalRounds = Arrays.stream(rounds).asLongStream().sum();
            long deaths = results.stream().filter(r -> !r.capped()).count();
            long[] times = results.stream().flatMapToLong(r -> Arrays.stream(r.roundNanos())).sorted().toArray();
            double mean = Arrays.stream(times).average().orElse(0) / 1e6;
            double p99 = times.length == 0 ? 0 : times[Math.min(times.length - 1, (int) Math.ceil(times.length * 0.99) - 1)] / 1e6;
            return new Summary(n, totalRounds / (double) n, median,
                    results.stream().mapToInt(GameResult::score).average().orElse(0),
                    100.0 * results.stream().filter(GameResult::capped).count() / n,
                    totalRounds == 0 ? 0 : 1000.0 * deaths / totalRounds, mean, p99);
        }
    }
}
