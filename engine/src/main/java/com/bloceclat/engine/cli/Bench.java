package com.bloceclat.engine.cli;

import com.bloceclat.engine.solver.BenchPositions;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code bench}: solver latency percentiles on the fixed position set, one thread. */
final class Bench {
    private static final int WARMUP_PASSES = 3;

    private Bench() {
    }

    static int run(Map<String, String> opts, PrintStream out) {
        int count = Main.intOpt(opts, "positions", 1000, 1, 1_000_000);
        Mode mode = Mode.parse(opts.getOrDefault("mode", "maxLines"));
        int strength = Main.intOpt(opts, "strength", 5, 1, 5);
        List<SolveRequest> positions = BenchPositions.generate(count, mode, strength);
        for (int pass = 0; pass < WARMUP_PASSES; pass++) {
            positions.forEach(Solver::solve);
        }
        long[] nanos = new long[count];
        long nodes = 0;
        long total = 0;
        for (int i = 0; i < count; i++) {
            long t0 = System.nanoTime();
            Solution s = Solver.solve(positions.get(i));
            nanos[i] = System.nanoTime() - t0;
            nodes += s.nodes();
            total += nanos[i];
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        out.printf(Locale.ROOT, "mode=%s strength=%d positions=%d (after %d warm-up passes, one thread)%n",
                mode.wire(), strength, count, WARMUP_PASSES);
        out.printf(Locale.ROOT, "ms: mean %.3f, p50 %.3f, p90 %.3f, p99 %.3f, max %.3f%n", total / 1e6 / count,
                pct(sorted, 0.50), pct(sorted, 0.90), pct(sorted, 0.99), sorted[count - 1] / 1e6);
        out.printf(Locale.ROOT, "nodes: %d, %.1f million per second%n", nodes, nodes / (total / 1e9) / 1e6);
        return 0;
    }

    private static double pct(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * p) - 1)] / 1e6;
    }
}
