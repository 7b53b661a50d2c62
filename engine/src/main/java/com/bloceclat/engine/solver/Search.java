package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.SplitMix64;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One thread's search state, reused across requests (tables are cleared by generation, not
 * reallocated). Depth-first over every order and placement of the round's pieces; transpositions
 * (the same board, pieces left, streak state and totals reached another way) are expanded once.
 */
final class Search {
    private static final int MAX_ALTERNATIVES = 100;
    private static final int TIME_CHECK_MASK = 1023;
    /** Leaves ranked below all placed pieces: fewer pieces placed is always worse. */
    private static final double BLOCKED = -1e6;
    private static final double PER_PIECE_PLACED = 1e4;

    private final LongPairSet visited = new LongPairSet(1 << 15);
    private final LongSet finals = new LongSet(1 << 16);
    private final int[] finalOrder = new int[MAX_ALTERNATIVES + 1];
    /** By strength, then level: the strengths weigh the board differently (StrengthProfile). */
    private final Evaluator[][] evaluators = new Evaluator[SolveRequest.MAX_STRENGTH][Level.values().length];

    // The request being searched.
    private Piece[] pieces;
    private int count;
    private long[] shapes = new long[3];
    private int[] cells = new int[3];
    /** The first slot with the same shape: equal pieces are interchangeable. */
    private int[] same = new int[3];
    private Mode mode;
    private StrengthProfile profile;
    private Evaluator eval;
    private SplitMix64 noise;
    private long deadline;
    private boolean aborted;
    private long nodes;

    // maxLines best so far.
    private int bestPlaced;
    private int bestLines;
    private int bestPoints;
    private int bestPath;
    private int finalCount;

    // ai: the top candidates after a round.
    /** Candidates that full strength examines one piece further. */
    private static final int CANDIDATES = 12;
    /** Next rounds sampled from the level's distribution to compare the candidates on. */
    static final int SAMPLES = 64;
    /** Samples every candidate is played on before the race keeps the best {@link #RACE_KEEP}. */
    private static final int RACE_SAMPLES = 16;
    private static final int RACE_KEEP = 4;
    /**
     * Filled cells from which a round's board counts as crowded: the look-ahead then samples
     * {@link #CROWDED_FACTOR} times as many next rounds (and races on as many times more). Deaths come
     * from crowded boards, where a candidate's risk is a rare deal that 64 samples catch or miss by chance;
     * on HARD this took the tuning games at the 2,000-round cap from 77.5% to 85.8% (docs/benchmarks.md,
     * issue 16) for about a third more time a round, since most rounds start on open boards.
     */
    static final int CROWDED = 24;
    static final int CROWDED_FACTOR = 8;
    private final TopK top = new TopK(CANDIDATES);
    /** Nanoseconds, for the time budget: {@link System#nanoTime()} but in tests. */
    private final LongSupplier clock;
    private final NextRounds next = new NextRounds();

    Search() {
        this(System::nanoTime);
    }

    Search(LongSupplier clock) {
        this.clock = clock;
    }

    Solution solve(SolveRequest req) {
        long t0 = clock.getAsLong();
        setUp(req, t0);
        search(0, req.board(), (1 << count) - 1, req.streak(), req.miss(), 0, 0, 0, -1);
        int path = mode == Mode.MAX_LINES ? bestPath : chooseAi(req);
        if (path >>> 24 < count && profile.prunes() && !aborted) {
            // SOLVER-PROTOCOL.md: every piece placed whenever some order fits them all. A weak strength that
            // pruned that order looks again at every order and placement, with its own evaluation and noise,
            // before it gives up; only a round it cannot finish otherwise plays differently.
            profile = profile.unpruned();
            visited.clear();
            top.clear();
            search(0, req.board(), (1 << count) - 1, req.streak(), req.miss(), 0, 0, 0, -1);
            int again = chooseAi(req);
            if (again >>> 24 > path >>> 24) {
                path = again; // out of time before it found more, the first answer stands
            }
        }
        Solution.Sequence best = replay(req, path);
        List<Solution.Sequence> alternatives = null;
        int total = 0;
        if (mode == Mode.MAX_LINES) {
            alternatives = new ArrayList<>(MAX_ALTERNATIVES);
            for (int i = 0; i < Math.min(finalCount, finalOrder.length); i++) {
                if (finalOrder[i] != bestPath && alternatives.size() < MAX_ALTERNATIVES) {
                    alternatives.add(replay(req, finalOrder[i]));
                }
            }
            total = Math.max(0, finals.size() - 1);
        }
        long micros = (clock.getAsLong() - t0) / 1000;
        return new Solution(best, alternatives, total, nodes, micros, !aborted);
    }

    private void setUp(SolveRequest req, long t0) {
        pieces = req.pieces().toArray(new Piece[0]);
        count = pieces.length;
        for (int i = 0; i < count; i++) {
            shapes[i] = pieces[i].shape();
            cells[i] = pieces[i].cells();
            same[i] = i;
            for (int j = 0; j < i; j++) {
                if (shapes[j] == shapes[i]) {
                    same[i] = j;
                    break;
                }
            }
        }
        mode = req.mode();
        int strength = mode == Mode.AI ? req.strength() : SolveRequest.MAX_STRENGTH;
        int profileStrength = mode == Mode.MAX_LINES ? SolveRequest.MAX_STRENGTH : strength;
        profile = StrengthProfile.of(profileStrength);
        Evaluator[] byLevel = evaluators[profileStrength - 1];
        int level = req.level().ordinal();
        if (byLevel[level] == null) {
            byLevel[level] = new Evaluator(req.level(), profile.transition(), profile.learnedValue());
        }
        eval = byLevel[level];
        noise = new SplitMix64(SplitMix64.mix64(req.seed() ^ SplitMix64.mix64(req.board())) + strength);
        deadline = req.timeMs() > 0 ? t0 + req.timeMs() * 1_000_000L : Long.MAX_VALUE;
        aborted = false;
        nodes = 0;
        visited.clear();
        finals.clear();
        finalCount = 0;
        bestPlaced = -1;
        bestLines = -1;
        bestPoints = -1;
        bestPath = 0;
        top.clear();
    }

    /** Pieces left, as a multiset of shapes: slot i counts in the 2-bit field of its first equal slot. */
    private int remainingKey(int rem) {
        int key = 0;
        for (int i = 0; i < count; i++) {
            if ((rem & (1 << i)) != 0) {
                key += 1 << (2 * same[i]);
            }
        }
        return key;
    }

    /**
     * @param quietSlot the slot of the last placement when it cleared nothing, else -1: consecutive
     *                  placements that clear nothing commute (same final board, same score), so each
     *                  such run is searched in slot order only
     */
    private void search(int depth, long board, int rem, int streak, int miss, int lines, int points, int path,
                        int quietSlot) {
        boolean placedAny = false;
        for (int i = 0; i < count && !aborted; i++) {
            if ((rem & (1 << i)) == 0 || (same[i] != i && (rem & (1 << same[i])) != 0)) {
                continue;
            }
            long fit = pieces[i].fitAnchors(board);
            if (fit == 0) {
                continue;
            }
            placedAny = true;
            if (profile.beam() > 0) {
                fit = beam(fit, i, board, streak, miss);
            }
            int nextRem = rem & ~(1 << i);
            long shape = shapes[i];
            while (fit != 0) {
                int a = Long.numberOfTrailingZeros(fit);
                fit &= fit - 1;
                if ((++nodes & TIME_CHECK_MASK) == 0 && clock.getAsLong() > deadline) {
                    aborted = true;
                    return;
                }
                long after = board | (shape << a);
                long rows = Board.fullRowBits(after);
                long cols = Board.fullColBits(after);
                int n = Long.bitCount(rows) + Long.bitCount(cols);
                if (n == 0 && i < quietSlot) {
                    continue; // the same placements in slot order were (or will be) searched
                }
                // Clearing as Board.fullLinesMask (from the row and column bits at hand); streak, miss and points
                // from Rules, the one place the scoring is written (SolverTest checks the search against it).
                long nb = n == 0 ? after : after & ~(rows * Board.ROW0 | cols * Board.COL0);
                int ns = Rules.nextStreak(streak, miss, n);
                int nm = Rules.nextMiss(miss, n);
                int pts = Rules.points(cells[i], n, ns, nb == 0);
                int nextPath = path | (i | a << 2) << (8 * depth);
                if (nextRem == 0) {
                    leaf(depth + 1, nb, ns, nm, lines + n, points + pts, nextPath);
                } else {
                    long key = (long) (points + pts) << 32 | (long) Math.min(ns, 0x3FFFF) << 14 | (long) nm << 12
                            | (long) (lines + n) << 6 | remainingKey(nextRem);
                    if (visited.add(nb, key)) {
                        search(depth + 1, nb, nextRem, ns, nm, lines + n, points + pts, nextPath,
                                n == 0 ? i : -1);
                    }
                }
            }
            if (profile.fixedOrder()) {
                break; // weak players take the first dealt piece that fits
            }
        }
        if (!placedAny && !aborted) {
            leaf(depth, board, streak, miss, lines, points, path);
        }
    }

    /** Lower strengths keep only the few placements that look best after this piece alone. */
    private long beam(long fit, int slot, long board, int streak, int miss) {
        int width = profile.beam();
        if (Long.bitCount(fit) <= width) {
            return fit;
        }
        long[] anchors = new long[Long.bitCount(fit)];
        int k = 0;
        for (long f = fit; f != 0; f &= f - 1) {
            int a = Long.numberOfTrailingZeros(f);
            long after = board | (shapes[slot] << a);
            long nb = after & ~Board.fullLinesMask(after);
            double v = eval.board(nb, streak, miss) + profile.noise() * (noise.nextDouble() - 0.5);
            // Sort key: value in the high bits (order-preserving), anchor in the low 6 bits.
            long bits = Double.doubleToLongBits(v);
            bits ^= (bits >> 63) & Long.MAX_VALUE;
            anchors[k++] = (bits & ~63L) | a;
        }
        java.util.Arrays.sort(anchors);
        long kept = 0;
        for (int j = anchors.length - 1; j >= anchors.length - width; j--) {
            kept |= 1L << (anchors[j] & 63);
        }
        return kept;
    }

    private void leaf(int placed, long board, int streak, int miss, int lines, int points, int path) {
        int fullPath = path | placed << 24;
        if (mode == Mode.MAX_LINES) {
            if (placed > bestPlaced || placed == bestPlaced
                    && (lines > bestLines || lines == bestLines && points > bestPoints)) {
                bestPlaced = placed;
                bestLines = lines;
                bestPoints = points;
                bestPath = fullPath;
                finals.clear();
                finalCount = 0;
            } else if (placed != bestPlaced || lines != bestLines || points != bestPoints) {
                return;
            }
            if (finals.add(board) && finalCount < finalOrder.length) {
                finalOrder[finalCount++] = fullPath;
            }
            return;
        }
        double v = placed * PER_PIECE_PLACED + (placed < count ? BLOCKED : 0)
                + Evaluator.POINTS * points + profile.boardWeight() * eval.board(board, streak, miss);
        if (profile.noise() > 0) {
            v += profile.noise() * (noise.nextDouble() - 0.5);
        }
        top.offer(v, board, streak, miss, points, fullPath, placed == count);
    }

    /**
     * Full strength weighs the best candidates by the risk of a next round with a piece that fits
     * nowhere and by how sampled next rounds would go; lower strengths take the best leaf. The
     * candidates race: all are played on the first {@link #RACE_SAMPLES} samples, and only the
     * {@link #RACE_KEEP} best so far on all of them; both counts times {@link #CROWDED_FACTOR} on a
     * crowded board.
     */
    private int chooseAi(SolveRequest req) {
        if (top.size() == 0) {
            return 0;
        }
        if (!profile.lookahead()) {
            return top.path(top.bestIndex());
        }
        int factor = Long.bitCount(req.board()) >= CROWDED ? CROWDED_FACTOR : 1;
        int samples = SAMPLES * factor;
        int raceSamples = RACE_SAMPLES * factor;
        next.reset(req.level(), eval, req.seed() ^ SplitMix64.mix64(req.board()), samples);
        int[] order = top.bestFirst();
        int n = 0;
        for (int k : order) {
            if (top.complete(k)) {
                order[n++] = k;
            }
        }
        if (n == 0) {
            return top.path(top.bestIndex());
        }
        double[] fixed = new double[n];
        double[] partial = new double[n];
        int examined = 0;
        for (int c = 0; c < n; c++) {
            if (c > 0 && clock.getAsLong() > deadline) {
                aborted = true; // out of time: the candidates examined so far decide
                break;
            }
            int k = order[c];
            fixed[c] = Evaluator.POINTS * top.points(k) + Evaluator.DEATH * eval.risk(top.board(k));
            partial[c] = next.sum(top.board(k), top.streak(k), top.miss(k), 0, raceSamples, 0);
            examined++;
        }
        Integer[] rank = new Integer[examined];
        for (int c = 0; c < examined; c++) {
            rank[c] = c;
        }
        java.util.Arrays.sort(rank, (x, y) -> Double.compare(fixed[y] + partial[y] / raceSamples,
                fixed[x] + partial[x] / raceSamples));
        int best = rank[0];
        int[] finalists = new int[Math.min(RACE_KEEP, examined)];
        for (int r = 0; r < finalists.length; r++) {
            finalists[r] = rank[r];
        }
        java.util.Arrays.sort(finalists); // the static order breaks ties
        double bestValue = Double.NEGATIVE_INFINITY;
        for (int c : finalists) {
            if (aborted || bestValue > Double.NEGATIVE_INFINITY && clock.getAsLong() > deadline) {
                aborted = true;
                break;
            }
            int k = order[c];
            double v = fixed[c] + next.sum(top.board(k), top.streak(k), top.miss(k), raceSamples, samples,
                    partial[c]) / samples;
            if (v > bestValue) {
                bestValue = v;
                best = c;
            }
        }
        return top.path(order[best]);
    }

    /** Rebuilds a sequence from its encoded path with the rules themselves. */
    private Solution.Sequence replay(SolveRequest req, int path) {
        int placed = path >>> 24;
        long board = req.board();
        int streak = req.streak();
        int miss = req.miss();
        int points = 0;
        int lines = 0;
        List<Solution.Placement> out = new ArrayList<>(placed);
        for (int d = 0; d < placed; d++) {
            int step = (path >>> (8 * d)) & 0xFF;
            int slot = step & 3;
            int a = step >>> 2;
            Rules.Outcome o = Rules.place(board, streak, miss, pieces[slot], a / 8, a % 8);
            board = o.board();
            streak = o.streak();
            miss = o.miss();
            points += o.points();
            lines += o.lines();
            out.add(new Solution.Placement(slot, a / 8, a % 8));
        }
        return new Solution.Sequence(List.copyOf(out), points, lines, streak, miss, board, placed < count);
    }
}
