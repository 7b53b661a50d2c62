package com.bloceclat.bench;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.SelfPlay;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayValidator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Replay validation throughput in placements per second on one thread: a 1,000-round EASY game
 * played by the full-strength AI, re-simulated from its seed (pieces re-derived, every move and
 * claim checked).
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class ReplayBench {
    static final int ROUNDS = 1000;
    /** Three placements a round. */
    static final int PLACEMENTS = ROUNDS * 3;

    private Replay replay;

    @Setup
    public void setUp() {
        Game game = new Game(11, Level.EASY);
        while (!game.gameOver() && game.round() < ROUNDS) {
            SelfPlay.playRound(game, 5, 11);
        }
        if (game.round() < ROUNDS) {
            throw new IllegalStateException("the benchmark game ended early, at round " + game.round());
        }
        replay = game.replay();
        if (!ReplayValidator.validate(replay).valid() || replay.events().size() != PLACEMENTS) {
            throw new IllegalStateException("the benchmark replay is not a valid 1,000-round game");
        }
    }

    @Benchmark
    @OperationsPerInvocation(PLACEMENTS)
    public ReplayValidator.Result validate() {
        return ReplayValidator.validate(replay);
    }
}
