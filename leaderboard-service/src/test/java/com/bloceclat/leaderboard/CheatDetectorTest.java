package com.bloceclat.leaderboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.SelfPlay;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.bloceclat.leaderboard.service.CheatDetector;
import com.bloceclat.leaderboard.service.CheatDetector.Agreement;

/** The agreement computation alone, on games played here by the engine (no service). */
class CheatDetectorTest {

    @Test
    void theFullStrengthAiAgreesWithItselfOnEveryRound() {
        Replay replay = Games.played(11, Level.MEDIUM, 22).replay();
        assertEquals(22, replay.claimedRounds());
        Agreement agreement = CheatDetector.measure(replay);
        assertEquals(new Agreement(22, 22), agreement);
        assertEquals(1.0, agreement.share());
    }

    @Test
    void theOrderOfPlayWithinARoundDoesNotCount() {
        Game game = new Game(12, Level.MEDIUM);
        int reversed = 0;
        while (game.round() < 15) {
            List<Solution.Placement> ai = ai(game);
            Game trial = game.copy();
            boolean quiet = true;
            for (Solution.Placement p : ai) {
                quiet &= trial.place(p.piece(), p.row(), p.col()).outcome().lines() == 0;
            }
            List<Solution.Placement> order = new ArrayList<>(ai);
            if (quiet) {
                // Quiet placements commute: the same three placements in the reverse order are legal and end alike.
                Collections.reverse(order);
                reversed += order.equals(ai) ? 0 : 1;
            }
            for (Solution.Placement p : order) {
                game.place(p.piece(), p.row(), p.col());
            }
        }
        assertTrue(reversed > 0, "no round was played in another order");
        assertEquals(new Agreement(15, 15), CheatDetector.measure(game.replay()));
    }

    @Test
    void roundsWithAHintOrAnUndoAndTheLastIncompleteRoundAreNotCompared() {
        Game game = new Game(13, Level.MEDIUM);
        for (int round = 0; round < 8; round++) {
            List<Solution.Placement> ai = ai(game);
            if (round == 2) {
                game.hintShown();
            }
            for (Solution.Placement p : ai) {
                game.place(p.piece(), p.row(), p.col());
                if (round == 5 && game.round() == 5) {
                    game.undo();
                    game.place(p.piece(), p.row(), p.col());
                }
            }
        }
        Solution.Placement first = ai(game).get(0);
        game.place(first.piece(), first.row(), first.col());
        Agreement agreement = CheatDetector.measure(game.replay());
        assertEquals(new Agreement(6, 6), agreement);
    }

    @Test
    void aWeakPlayerRarelyPlaysTheAisRound() {
        Game game = new Game(14, Level.EASY);
        while (!game.gameOver() && game.round() < 30) {
            SelfPlay.playRound(game, 1, 14L * 31 + game.round());
        }
        Agreement agreement = CheatDetector.measure(game.replay());
        assertTrue(agreement.compared() >= 20, agreement.toString());
        assertTrue(agreement.share() < 0.5, agreement.toString());

        Agreement quick = CheatDetector.measure(Games.quick(14, Level.EASY, 30).replay());
        assertTrue(quick.share() < 0.5, quick.toString());
        assertEquals(0.0, new Agreement(0, 0).share());
    }

    /** The full-strength AI's placements for the whole current round (all three slots unplaced). */
    private static List<Solution.Placement> ai(Game game) {
        Piece[] pieces = game.pieces();
        return Solver.solve(new SolveRequest(game.board(), Arrays.asList(pieces), game.streak(), game.miss(),
                game.level(), Mode.HINT, SolveRequest.MAX_STRENGTH, CheatDetector.SEED, 0)).best().placements();
    }
}
