package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.Rules;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SolverTest {

    /** Naive reference: every order and every placement, no pruning, rules applied one by one. */
    private static final class BruteForce {
        int bestPlaced = -1;
        int bestLines = -1;
        int bestPoints = -1;
        final Set<Long> bestBoards = new HashSet<>();

        void run(long board, List<Piece> pieces, boolean[] used, int streak, int miss, int placed, int lines, int points) {
            boolean any = false;
            for (int i = 0; i < pieces.size(); i++) {
                if (used[i]) {
                    continue;
                }
                Piece p = pieces.get(i);
                for (int r = 0; r + p.height() <= 8; r++) {
                    for (int c = 0; c + p.width() <= 8; c++) {
                        if (Rules.illegalReason(board, p, r, c) != null) {
                            continue;
                        }
                        any = true;
                        Rules.Outcome o = Rules.place(board, streak, miss, p, r, c);
                        used[i] = true;
                        run(o.board(), pieces, used, o.streak(), o.miss(), placed + 1, lines + o.lines(), points + o.points());
                        used[i] = false;
                    }
                }
            }
            if (!any) {
                if (placed > bestPlaced || placed == bestPlaced && (lines > bestLines || lines == bestLines && points > bestPoints)) {
                    bestPlaced = placed;
                    bestLines = lines;
                    bestPoints = points;
                    bestBoards.clear();
                }
                if (placed == bestPlaced && lines == bestLines && points == bestPoints) {
                    bestBoards.add(board);
                }
            }
        }
    }

    /** A board with about {@code density} of its cells filled and no full line. */
    static long randomBoard(Random rnd, double density) {
        long b = 0;
        for (int i = 0; i < 64; i++) {
            if (rnd.nextDouble() < density) {
                b |= 1L << i;
            }
        }
        return b & ~Board.fullLinesMask(b);
    }

    @Test
    void maxLinesMatchesBruteForceWithEveryAlternative() {
        Random rnd = new Random(2026);
        for (int t = 0; t < 120; t++) {
            long board = randomBoard(rnd, 0.35 + 0.3 * rnd.nextDouble());
            List<Piece> pieces = List.of(Pieces.get(rnd.nextInt(Pieces.COUNT)), Pieces.get(rnd.nextInt(Pieces.COUNT)),
                    Pieces.get(rnd.nextInt(Pieces.COUNT)));
            int streak = rnd.nextInt(10);
            int miss = rnd.nextInt(3);
            BruteForce bf = new BruteForce();
            bf.run(board, pieces, new boolean[3], streak, miss, 0, 0, 0);
            Solution s = Solver.solve(SolveRequest.of(board, pieces, streak, miss, Level.HARD, Mode.MAX_LINES));
            String where = Board.text(board) + "\n" + pieces;
            assertEquals(bf.bestPlaced, s.best().placements().size(), where);
            assertEquals(bf.bestLines, s.best().lines(), where);
            assertEquals(bf.bestPoints, s.best().points(), where);
            assertEquals(bf.bestBoards.size() - 1, s.alternativesTotal(), where);
            assertEquals(Math.min(100, s.alternativesTotal()), s.alternatives().size());
            Set<Long> seen = new HashSet<>();
            seen.add(s.best().board());
            for (Solution.Sequence alt : s.alternatives()) {
                assertEquals(s.best().lines(), alt.lines());
                assertEquals(s.best().points(), alt.points());
                assertTrue(bf.bestBoards.contains(alt.board()));
                assertTrue(seen.add(alt.board()), "alternatives end on different boards");
            }
        }
    }

    @Test
    void threeDotsOnAnEmptyBoardHaveEveryThreeCellBoardAsAlternative() {
        Piece dot = Pieces.require("DOT");
        Solution s = Solver.solve(SolveRequest.of(0, List.of(dot, dot, dot), 0, 0, Level.HARD, Mode.MAX_LINES));
        assertEquals(3, s.best().points());
        assertEquals(64 * 63 * 62 / 6 - 1, s.alternativesTotal());
        assertEquals(100, s.alternatives().size());
        assertTrue(s.complete());
    }

    /** Every sequence any mode answers is legal and its figures are what the rules give. */
    @Test
    void everyAnswerIsLegalAndAddsUp() {
        Random rnd = new Random(5);
        for (int t = 0; t < 150; t++) {
            long board = randomBoard(rnd, 0.6 * rnd.nextDouble());
            int n = 1 + rnd.nextInt(3);
            List<Piece> pieces = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                pieces.add(Pieces.get(rnd.nextInt(Pieces.COUNT)));
            }
            for (Mode mode : Mode.values()) {
                int strength = 1 + t % 5;
                SolveRequest req = new SolveRequest(board, pieces, t % 9, t % 3, Level.values()[t % 5], mode, strength, t, 0);
                Solution s = Solver.solve(req);
                long b = assertAddsUp(req, s);
                Set<Integer> used = new HashSet<>();
                s.best().placements().forEach(p -> used.add(p.piece()));
                if (used.size() < n) {
                    for (int i = 0; i < n; i++) {
                        assertTrue(used.contains(i) || !pieces.get(i).fits(b), "a piece left out fits nowhere");
                    }
                }
                if (mode == Mode.MAX_LINES) {
                    assertNotNull(s.alternatives());
                } else {
                    assertNull(s.alternatives());
                }
                assertTrue(s.nodes() > 0 || s.best().placements().isEmpty());
            }
        }
    }

    /**
     * The best sequence is legal (each piece once, every placement allowed) and its figures are what the rules give;
     * answers the board it ends on.
     */
    static long assertAddsUp(SolveRequest req, Solution s) {
        long b = req.board();
        int streak = req.streak();
        int miss = req.miss();
        int points = 0;
        int lines = 0;
        Set<Integer> used = new HashSet<>();
        for (Solution.Placement p : s.best().placements()) {
            assertTrue(used.add(p.piece()), "each piece once");
            Rules.Outcome o = Rules.place(b, streak, miss, req.pieces().get(p.piece()), p.row(), p.col());
            b = o.board();
            streak = o.streak();
            miss = o.miss();
            points += o.points();
            lines += o.lines();
        }
        assertEquals(b, s.best().board());
        assertEquals(points, s.best().points());
        assertEquals(lines, s.best().lines());
        assertEquals(streak, s.best().streak());
        assertEquals(miss, s.best().miss());
        assertEquals(used.size() < req.pieces().size(), s.best().gameOver());
        return b;
    }

    /** Once the budget has run out the search stops and answers the best it found so far, marked incomplete. */
    @Test
    void aSearchOutOfTimeAnswersTheBestSoFar() {
        long[] now = {0};
        Search search = new Search(() -> now[0] += 1_000_000); // every look at the clock: a millisecond later
        Random rnd = new Random(12);
        List<Piece> small = List.of(Pieces.require("DOT"), Pieces.require("I2H"), Pieces.require("L3A"));
        for (int t = 0; t < 20; t++) {
            long board = t == 0 ? 0 : randomBoard(rnd, 0.3 * rnd.nextDouble());
            for (Mode mode : Mode.values()) {
                SolveRequest req = new SolveRequest(board, small, 0, 0, Level.MEDIUM, mode, 5, t, 1);
                Solution s = search.solve(req);
                assertFalse(s.complete(), mode + " on board " + t);
                assertFalse(s.best().placements().isEmpty(), mode + " on board " + t);
                assertAddsUp(req, s);
            }
        }
    }

    @Test
    void aCrowdedBoardsLookAheadOutOfTimeAtAnyLookAtTheClockAnswersTheBestSoFar() {
        // A crowded board takes the wider look-ahead (Search.CROWDED): the deadline passes at the search's
        // n-th look at the clock, for every n from its first check to its last, and the answer is still a
        // legal sequence of all three pieces, marked incomplete.
        Random rnd = new Random(33);
        List<Piece> small = List.of(Pieces.require("DOT"), Pieces.require("I2H"), Pieces.require("L3A"));
        int boards = 0;
        for (int t = 0; boards < 4; t++) {
            long board = randomBoard(rnd, 0.5);
            if (Long.bitCount(board) < Search.CROWDED || Long.bitCount(board) > 40) {
                continue;
            }
            SolveRequest req = new SolveRequest(board, small, 0, 0, Level.HARD, Mode.AI, 5, t, 1);
            int[] reads = {0};
            Solution unhurried = new Search(() -> {
                reads[0]++;
                return 0;
            }).solve(req);
            if (unhurried.best().placements().size() < 3) {
                continue;
            }
            boards++;
            assertTrue(unhurried.complete());
            // Read 1 starts the clock and the last read times the answer; every read between is a check.
            assertTrue(reads[0] > 6, "the look-ahead checks the clock between candidates: " + reads[0]);
            for (int late = 2; late < reads[0]; late++) {
                int[] n = {0};
                int from = late;
                Solution s = new Search(() -> ++n[0] >= from ? 1_000_000_000L : 0).solve(req);
                assertFalse(s.complete(), "late from read " + from + " of " + reads[0]);
                assertEquals(3, s.best().placements().size(), "late from read " + from);
                assertAddsUp(req, s);
            }
        }
    }

    /**
     * SOLVER-PROTOCOL.md: an answer places "all of them whenever some order fits them all", at every
     * strength; weak strengths, which prune orders and placements, must look again before giving up.
     */
    @Test
    void everyStrengthPlacesEveryPieceWheneverSomeOrderFitsThemAll() {
        // Only the order I3V, I5H, I5H fits: a vertical bar into the notch clears the row first.
        long notch = Board.parse(new String[] {
            "########", "########", "########", "########", "########", ".#######", "........", "........"});
        List<Piece> notchPieces = List.of(Pieces.require("I5H"), Pieces.require("I5H"), Pieces.require("I3V"));
        for (Mode mode : Mode.values()) {
            Solution s = Solver.solve(SolveRequest.of(notch, notchPieces, 0, 0, Level.HARD, mode));
            assertEquals(3, s.best().placements().size(), mode.toString());
            assertFalse(s.best().gameOver(), mode.toString());
        }
        // docs/solver.md's example: strength 1 took I2H (the dealt order) and had no room left for I3H.
        long checker = Board.parse(new String[] {
            "...#####", ".#.#.#.#", "#.#.#.#.", ".#.#.#.#", "#.#.#.#.", ".#.#.#.#", "#.#.#.#.", ".#.#.#.#"});
        checker &= ~Board.fullLinesMask(checker);
        assertPlacesAllWhenSomeOrderDoes(checker, List.of(Pieces.require("I2H"), Pieces.require("I3H")), Level.HARD);
        Random rnd = new Random(31);
        for (int t = 0; t < 300; t++) {
            long board = randomBoard(rnd, 0.45 + 0.3 * rnd.nextDouble());
            List<Piece> pieces = List.of(Pieces.get(rnd.nextInt(Pieces.COUNT)), Pieces.get(rnd.nextInt(Pieces.COUNT)),
                    Pieces.get(rnd.nextInt(Pieces.COUNT)));
            assertPlacesAllWhenSomeOrderDoes(board, pieces, Level.values()[t % Level.values().length]);
        }
    }

    private static void assertPlacesAllWhenSomeOrderDoes(long board, List<Piece> pieces, Level level) {
        BruteForce bf = new BruteForce();
        bf.run(board, pieces, new boolean[pieces.size()], 0, 0, 0, 0, 0);
        for (int strength = 1; strength <= SolveRequest.MAX_STRENGTH; strength++) {
            for (long seed = 1; seed <= 3; seed++) {
                SolveRequest req = new SolveRequest(board, pieces, 0, 0, level, Mode.AI, strength, seed, 0);
                Solution s = Solver.solve(req);
                String where = "strength " + strength + " seed " + seed + "\n" + Board.text(board) + "\n" + pieces;
                assertEquals(bf.bestPlaced, s.best().placements().size(), where);
                assertEquals(bf.bestPlaced < pieces.size(), s.best().gameOver(), where);
                assertAddsUp(req, s);
            }
        }
    }

    @Test
    void answersAreReproducible() {
        Random rnd = new Random(9);
        for (int t = 0; t < 40; t++) {
            long board = randomBoard(rnd, 0.4);
            List<Piece> pieces = List.of(Pieces.get(rnd.nextInt(Pieces.COUNT)), Pieces.get(rnd.nextInt(Pieces.COUNT)),
                    Pieces.get(rnd.nextInt(Pieces.COUNT)));
            for (int strength = 1; strength <= 5; strength++) {
                SolveRequest req = new SolveRequest(board, pieces, 0, 0, Level.EXPERT, Mode.AI, strength, 77, 0);
                assertEquals(Solver.solve(req).best(), Solver.solve(req).best());
            }
        }
    }

    @Test
    void hintIsFullStrength() {
        Random rnd = new Random(4);
        for (int t = 0; t < 20; t++) {
            long board = randomBoard(rnd, 0.4);
            List<Piece> pieces = List.of(Pieces.get(rnd.nextInt(Pieces.COUNT)), Pieces.get(rnd.nextInt(Pieces.COUNT)));
            Solution hint = Solver.solve(new SolveRequest(board, pieces, 1, 1, Level.MEDIUM, Mode.HINT, 1, 3, 0));
            Solution ai5 = Solver.solve(new SolveRequest(board, pieces, 1, 1, Level.MEDIUM, Mode.AI, 5, 3, 0));
            assertEquals(ai5.best(), hint.best());
        }
    }

    @Test
    void aBlockedPositionAnswersGameOverWithNoPlacement() {
        Solution s = Solver.solve(SolveRequest.of(0xAA55AA55AA55AA55L, List.of(Pieces.require("O9")), 0, 0,
                Level.HARD, Mode.AI));
        assertTrue(s.best().gameOver());
        assertTrue(s.best().placements().isEmpty());
    }
}
