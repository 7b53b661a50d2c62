package com.bloceclat.leaderboard;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.SelfPlay;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.leaderboard.service.CheatDetector;

/**
 * The cheat detector's cost per game, on one thread (so per core): 100-round records played by the strength-4 AI
 * (all orders and placements, a little noise: a strong player who is not the engine) on EASY, MEDIUM and HARD, each
 * measured by {@link CheatDetector#measure} after a warm-up pass. Arguments: games (default 30), rounds (100).
 */
public final class DetectorBench {

    private DetectorBench() {
    }

    public static void main(String[] args) {
        int games = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        Level[] levels = {Level.EASY, Level.MEDIUM, Level.HARD};
        List<Replay> pool = new ArrayList<>();
        for (long seed = 1; pool.size() < games; seed++) {
            Game game = new Game(seed, levels[(int) (seed % levels.length)]);
            while (!game.gameOver() && game.round() < rounds) {
                SelfPlay.playRound(game, 4, seed * 31 + game.round());
            }
            if (game.round() == rounds) {
                pool.add(game.replay());
            }
        }
        for (Replay replay : pool.subList(0, Math.min(5, pool.size()))) {
            CheatDetector.measure(replay); // warm-up
        }
        long t0 = System.nanoTime();
        int compared = 0;
        int matched = 0;
        for (Replay replay : pool) {
            CheatDetector.Agreement agreement = CheatDetector.measure(replay);
            compared += agreement.compared();
            matched += agreement.matched();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "%d games of %d rounds in %.1f s: %.2f games/s on one thread, %.1f ms a game, "
                + "%.2f ms a round; strength 4 played the AI's round in %d of %d rounds (%.2f)%n", pool.size(), rounds,
                seconds, pool.size() / seconds, seconds * 1000 / pool.size(), seconds * 1000 / compared, matched,
                compared, (double) matched / compared);
    }
}
