package com.bloceclat.bench;

import com.bloceclat.engine.solver.BenchPositions;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One solve per invocation, cycling through the fixed 1,000 positions of {@link BenchPositions}
 * (empty to 60% full, three pieces, three 1×1 on an empty board first). SampleTime mode gives the
 * latency distribution, p99 included; one thread, so one core.
 */
@State(Scope.Thread)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@Threads(1)
public class SolverBench {
    @Param({"maxLines", "ai"})
    public String mode;

    private List<SolveRequest> positions;
    private int next;

    @Setup
    public void setUp() {
        positions = BenchPositions.generate(1000, Mode.parse(mode), 5);
    }

    @Benchmark
    public Solution solve() {
        SolveRequest req = positions.get(next);
        next = (next + 1) % positions.size();
        return Solver.solve(req);
    }
}
