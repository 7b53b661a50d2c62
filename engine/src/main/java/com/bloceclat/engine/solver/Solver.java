package com.bloceclat.engine.solver;

/**
 * The solver: {@code maxLines} (exhaustive, with every equally good alternative), the AI at
 * strengths 1–5 and hints. Thread-safe: each thread searches with its own reusable tables.
 */
public final class Solver {
    private static final ThreadLocal<Search> SEARCH = ThreadLocal.withInitial(Search::new);

    private Solver() {
    }

    public static Solution solve(SolveRequest request) {
        return SEARCH.get().solve(request);
    }
}
