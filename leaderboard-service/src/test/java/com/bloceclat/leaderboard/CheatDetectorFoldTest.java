package com.bloceclat.leaderboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.IllegalMoveException;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.replay.Event;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.solver.GamePosition;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.bloceclat.leaderboard.service.CheatDetector;
import com.bloceclat.leaderboard.service.CheatDetector.Agreement;

/**
 * {@link CheatDetector#measure} on the engine's {@code Game.apply} measures exactly what its former loop (its own
 * place / hint / else-undo dispatch, kept below word for word) measured: on games played by the full-strength AI with
 * hints, undos and random placements mixed in, and on tampered copies of them.
 */
class CheatDetectorFoldTest {

    /** A game of the AI's rounds, with hints, undos (then the same placement again) and random placements. */
    private static Replay played(long seed, Random rnd) {
        Level level = Level.values()[(int) (seed % Level.values().length)];
        Game game = new Game(seed, level);
        int rounds = 4 + rnd.nextInt(10);
        while (!game.gameOver() && game.round() < rounds) {
            if (rnd.nextDouble() < 0.15) {
                game.hintShown();
            }
            GamePosition position = GamePosition.of(game, Mode.HINT, SolveRequest.MAX_STRENGTH, 0);
            Solution.Placement p = Solver.solve(position.request()).best().placements().get(0);
            int slot = position.slotOf(p);
            double x = rnd.nextDouble();
            if (x < 0.1) {
                int round = game.round();
                game.place(slot, p.row(), p.col());
                if (!game.gameOver() && game.round() == round) {
                    game.undo();
                    game.place(slot, p.row(), p.col());
                }
            } else if (x < 0.2) {
                long fit = game.remaining()[slot].fitAnchors(game.board());
                int anchors = Long.bitCount(fit);
                for (int skip = rnd.nextInt(anchors); skip > 0; skip--) {
                    fit &= fit - 1;
                }
                int a = Long.numberOfTrailingZeros(fit);
                game.place(slot, a / 8, a % 8);
            } else {
                game.place(slot, p.row(), p.col());
            }
        }
        return game.replay();
    }

    private static Replay tampered(Replay r, Random rnd) {
        List<Event> ev = new ArrayList<>(r.events());
        int i = rnd.nextInt(ev.size());
        int round = ev.get(i).round() + rnd.nextInt(3) - 1;
        switch (rnd.nextInt(5)) {
            case 0 -> ev.set(i, new Event.Place(ev.get(i).round(), rnd.nextInt(4), rnd.nextInt(10) - 1,
                    rnd.nextInt(10) - 1));
            case 1 -> ev.add(i, new Event.Undo(round));
            case 2 -> ev.add(i, new Event.Hint(round));
            case 3 -> ev.remove(i);
            default -> ev.add(i, ev.get(i));
        }
        return new Replay(r.rulesVersion(), r.seed(), r.level(), ev, r.rounds(), r.claimedScore(), r.claimedRounds(),
                r.assisted());
    }

    @Test
    void theDetectorOnApplyMeasuresWhatItsFormerLoopMeasured() {
        Random rnd = new Random(14);
        int compared = 0;
        int unmatched = 0;
        int assisted = 0;
        for (long seed = 1; seed <= 12; seed++) {
            Replay honest = played(seed, rnd);
            assisted += honest.assisted() ? 1 : 0;
            for (Replay r : List.of(honest, tampered(honest, rnd), tampered(honest, rnd))) {
                Agreement now = CheatDetector.measure(r);
                assertEquals(formerMeasure(r), now, r.toJson());
                compared += now.compared();
                unmatched += now.compared() - now.matched();
            }
        }
        assertTrue(assisted > 3 && unmatched > 3 && compared - unmatched > 3,
                "a weak corpus: " + assisted + " assisted games, " + compared + " rounds compared, " + unmatched
                        + " unlike the AI");
    }

    // --- CheatDetector.measure as it was before Game.apply ---

    private static Agreement formerMeasure(Replay replay) {
        Game game = new Game(replay.seed(), replay.level());
        List<Event> events = replay.events();
        int compared = 0;
        int matched = 0;
        int i = 0;
        try {
            while (i < events.size() && !game.gameOver()) {
                int round = game.round();
                long board = game.board();
                int streak = game.streak();
                int miss = game.miss();
                Piece[] pieces = game.pieces();
                List<String> played = new ArrayList<>(3);
                boolean assisted = false;
                while (i < events.size() && events.get(i).round() == round && game.round() == round) {
                    Event event = events.get(i++);
                    if (event instanceof Event.Place p) {
                        Game.Move move = game.place(p.slot(), p.row(), p.col());
                        played.add(key(move.piece(), p.row(), p.col()));
                    } else if (event instanceof Event.Hint) {
                        assisted = true;
                        game.hintShown();
                    } else {
                        assisted = true;
                        game.undo();
                        played.remove(played.size() - 1);
                    }
                }
                if (game.round() == round) {
                    break; // the last round, not completed (or events out of order)
                }
                if (!assisted) {
                    compared++;
                    if (sorted(played).equals(sorted(aiPlacements(board, pieces, streak, miss, replay)))) {
                        matched++;
                    }
                }
            }
        } catch (IllegalMoveException e) {
            // Not a valid replay past this point: what was compared so far stands.
        }
        return new Agreement(compared, matched);
    }

    private static List<String> aiPlacements(long board, Piece[] pieces, int streak, int miss, Replay replay) {
        List<Piece> list = Arrays.asList(pieces);
        Solution solution = Solver.solve(new SolveRequest(board, list, streak, miss, replay.level(), Mode.HINT,
                SolveRequest.MAX_STRENGTH, CheatDetector.SEED, 0));
        List<String> keys = new ArrayList<>(3);
        for (Solution.Placement p : solution.best().placements()) {
            keys.add(key(list.get(p.piece()), p.row(), p.col()));
        }
        return keys;
    }

    private static String key(Piece piece, int row, int col) {
        return piece.name() + "@" + row + "," + col;
    }

    private static List<String> sorted(List<String> keys) {
        return keys.stream().sorted().toList();
    }
}
