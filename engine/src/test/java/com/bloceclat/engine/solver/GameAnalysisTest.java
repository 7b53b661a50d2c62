package com.bloceclat.engine.solver;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayFormatException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GameAnalysisTest {
    private static final long SEED = 20261201L;

    /** Plays the full-strength AI's first placement in every position, as the analysis asks it. */
    private static Game playLikeTheAi(long seed, Level level, int rounds) {
        Game game = new Game(seed, level);
        while (!game.gameOver() && game.round() < rounds) {
            GamePosition position = GamePosition.of(game, Mode.HINT, SolveRequest.MAX_STRENGTH,
                    GameAnalysis.seedFor(seed, game.events().size()));
            Solution.Placement p = Solver.solve(position.request()).best().placements().get(0);
            game.place(position.slotOf(p), p.row(), p.col());
        }
        return game;
    }

    @Test
    void aGamePlayedLikeTheAiLosesNothing() {
        Game game = playLikeTheAi(SEED, Level.MEDIUM, 6);
        GameAnalysis.Result r = GameAnalysis.analyse(game.replay(), GameAnalysis.Options.all());
        assertEquals(game.placements(), r.moves().size());
        for (GameAnalysis.MoveAnalysis m : r.moves()) {
            assertEquals(0, m.loss(), "move " + m.move());
            assertFalse(m.fatal());
            assertEquals(m.played().row(), m.ai().row());
            assertEquals(m.played().col(), m.ai().col());
            assertEquals(m.played().piece(), m.ai().piece());
        }
        assertEquals(-1, r.nextRound());
        assertTrue(r.complete());
    }

    @Test
    void aDeliberatelyBadMoveHasALoss() {
        // The first piece of the game goes where the static evaluation likes it least; the rest like the AI.
        Game game = new Game(SEED, Level.MEDIUM);
        Evaluator eval = new Evaluator(Level.MEDIUM, StrengthProfile.of(SolveRequest.MAX_STRENGTH).transition());
        Piece piece = game.remaining()[0];
        double worst = Double.POSITIVE_INFINITY;
        int worstAnchor = -1;
        for (long f = piece.fitAnchors(game.board()); f != 0; f &= f - 1) {
            int a = Long.numberOfTrailingZeros(f);
            Rules.Outcome o = Rules.place(game.board(), 0, 0, piece, a / 8, a % 8);
            double v = eval.board(o.board(), o.streak(), o.miss());
            if (v < worst) {
                worst = v;
                worstAnchor = a;
            }
        }
        game.place(0, worstAnchor / 8, worstAnchor % 8);
        GameAnalysis.Result r = GameAnalysis.analyse(game.replay(), GameAnalysis.Options.all());
        GameAnalysis.MoveAnalysis first = r.moves().get(0);
        assertEquals(1, first.move());
        assertEquals(0, first.event());
        assertEquals(worstAnchor / 8, first.played().row());
        assertNotNull(first.ai());
        assertTrue(first.ai().row() != first.played().row() || first.ai().col() != first.played().col()
                || first.ai().slot() != first.played().slot());
        assertTrue(first.loss() > 0, "loss " + first.loss());
        assertTrue(first.loss() <= GameAnalysis.MAX_LOSS);
        assertEquals(first.board(), List.of(game.replay().startBoard().toArray(new String[0])));
        assertEquals(3, first.remaining().stream().filter(p -> p != null).count());
    }

    @Test
    void pagesFollowOneAnother() {
        Game game = playLikeTheAi(SEED + 1, Level.EASY, 5);
        Replay replay = game.replay();
        GameAnalysis.Result page1 = GameAnalysis.analyse(replay, new GameAnalysis.Options(0, 2, 0, 0));
        assertEquals(2, page1.nextRound());
        assertEquals(2, page1.rounds().size());
        GameAnalysis.Result page2 = GameAnalysis.analyse(replay, new GameAnalysis.Options(2, 50, 0, 0));
        assertEquals(-1, page2.nextRound());
        assertEquals(page1.totalRounds(), page2.totalRounds());
        assertEquals(page1.moves().size() + 1, page2.moves().get(0).move());
        assertEquals(game.placements(), page1.moves().size() + page2.moves().size());
        assertEquals(2, page2.rounds().get(0).round());
    }

    @Test
    void everyRoundSaysWhetherItCouldHaveClearedMore() {
        Game game = playLikeTheAi(SEED + 2, Level.HARD, 8);
        GameAnalysis.Result r = GameAnalysis.analyse(game.replay(), GameAnalysis.Options.all());
        assertFalse(r.rounds().isEmpty());
        for (GameAnalysis.RoundAnalysis round : r.rounds()) {
            assertTrue(round.lines() <= round.maxLines(), "round " + round.round());
            assertEquals(round.maxLines() > round.lines(), round.couldClearMore());
            assertFalse(round.best().isEmpty());
        }
    }

    @Test
    void undonePlacementsAreNotAnalysed() {
        Game game = new Game(SEED, Level.MEDIUM);
        Piece p = game.remaining()[0];
        int a = Long.numberOfTrailingZeros(p.fitAnchors(game.board()));
        game.place(0, a / 8, a % 8);
        game.undo();
        game.place(0, a / 8, a % 8);
        GameAnalysis.Result r = GameAnalysis.analyse(game.replay(), GameAnalysis.Options.all());
        assertEquals(1, r.moves().size());
        assertEquals(2, r.moves().get(0).event());
    }

    @Test
    void anInvalidReplayIsRefusedWithItsReason() {
        Game game = playLikeTheAi(SEED, Level.MEDIUM, 1);
        Replay good = game.replay();
        Replay bad = new Replay(good.rulesVersion(), good.seed(), good.level(), good.events(), good.rounds(),
                good.claimedScore() + 1, good.claimedRounds(), good.assisted());
        ReplayFormatException e = assertThrows(ReplayFormatException.class,
                () -> GameAnalysis.analyse(bad, GameAnalysis.Options.all()));
        assertTrue(e.getMessage().contains("claimed score"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new GameAnalysis.Options(0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new GameAnalysis.Options(-1, 1, 0, 0));
    }

    @Test
    void theTotalBudgetEndsThePageAtARoundAndSaysWhereToGoOn() {
        Game game = playLikeTheAi(SEED + 3, Level.EASY, 4);
        long[] now = {0};
        // Every clock reading is a second later: the budget of 1 ms is spent after the first round.
        GameAnalysis.Result r = GameAnalysis.analyse(game.replay(), new GameAnalysis.Options(0, 50, 0, 1),
                () -> now[0] += 1_000_000_000L);
        assertFalse(r.complete());
        assertEquals(1, r.rounds().size());
        assertEquals(1, r.nextRound());
        assertNotEquals(0, r.moves().size());
    }
}
