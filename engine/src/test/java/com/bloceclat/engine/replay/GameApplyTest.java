package com.bloceclat.engine.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import com.bloceclat.engine.SelfPlay;

/**
 * {@link Game#apply(Event)} is the one fold over replay events: on a corpus of games played with hints and undos (by
 * the AI and at random), and on tampered copies of them, it builds the live game's state, and the validator built on
 * it gives word for word the verdicts and traces of the former validator with its own dispatch.
 */
class GameApplyTest {

    /** A game played live (place, hintShown, undo), its replay and its final state. */
    private record Played(Replay replay, String finalState) {
    }

    private static String state(Game g) {
        return g.board() + " " + g.score() + " " + g.streak() + " " + g.miss() + " " + g.round() + " " + g.gameOver()
                + " " + g.assisted() + " " + g.placements() + " " + Arrays.toString(g.remaining()) + " "
                + g.dealtIds();
    }

    private static int[] randomMove(Game game, Random rnd) {
        List<int[]> moves = new ArrayList<>();
        Piece[] remaining = game.remaining();
        for (int s = 0; s < remaining.length; s++) {
            if (remaining[s] != null) {
                for (long f = remaining[s].fitAnchors(game.board()); f != 0; f &= f - 1) {
                    int a = Long.numberOfTrailingZeros(f);
                    moves.add(new int[] {s, a / 8, a % 8});
                }
            }
        }
        return moves.get(rnd.nextInt(moves.size()));
    }

    /**
     * Games 1..n: every fourth plays its rounds as the strength-1 AI (SelfPlay), the others at random; all take hints
     * and undos at random points, and some end by game over, others part-way.
     */
    static List<Played> corpus(int n) {
        List<Played> out = new ArrayList<>();
        for (long seed = 1; seed <= n; seed++) {
            Level level = Level.values()[(int) (seed % Level.values().length)];
            Random rnd = new Random(seed);
            Game game = new Game(seed, level);
            boolean ai = seed % 4 == 0;
            int rounds = seed % 3 == 0 ? Integer.MAX_VALUE : 3 + rnd.nextInt(20);
            while (!game.gameOver() && game.round() < rounds) {
                double x = rnd.nextDouble();
                if (x < 0.05) {
                    game.hintShown();
                } else if (x < 0.15) {
                    try {
                        game.undo();
                    } catch (IllegalMoveException e) {
                        // nothing placed yet in this round
                    }
                } else if (ai) {
                    SelfPlay.playRound(game, 1, seed);
                } else {
                    int[] m = randomMove(game, rnd);
                    game.place(m[0], m[1], m[2]);
                }
            }
            out.add(new Played(game.replay(), state(game)));
        }
        return out;
    }

    /** A copy of the replay changed in one way, as a cheat or a broken client would. */
    private static Replay tampered(Replay r, Random rnd) {
        List<Event> ev = new ArrayList<>(r.events());
        boolean assisted = r.assisted();
        int score = r.claimedScore();
        int i = ev.isEmpty() ? 0 : rnd.nextInt(ev.size());
        int round = ev.isEmpty() ? 0 : ev.get(i).round() + rnd.nextInt(3) - 1;
        switch (rnd.nextInt(8)) {
            case 0 -> {
                if (!ev.isEmpty()) {
                    ev.set(i, new Event.Place(ev.get(i).round(), rnd.nextInt(4), rnd.nextInt(10) - 1, rnd.nextInt(10) - 1));
                }
            }
            case 1 -> ev.add(i, new Event.Undo(round));
            case 2 -> ev.add(i, new Event.Hint(round));
            case 3 -> {
                if (!ev.isEmpty()) {
                    ev.remove(i);
                }
            }
            case 4 -> {
                if (i + 1 < ev.size()) {
                    ev.add(i + 1, ev.remove(i));
                }
            }
            case 5 -> {
                if (!ev.isEmpty()) {
                    ev.add(i, ev.get(i));
                }
            }
            case 6 -> assisted = !assisted;
            default -> score += rnd.nextInt(3) - 1;
        }
        return new Replay(r.rulesVersion(), r.seed(), r.level(), ev, r.rounds(), score, r.claimedRounds(), assisted);
    }

    /** The state after each prefix of the events under {@code fold}, "refused" from the first event it refuses. */
    private static List<String> states(Replay r, boolean withApply) {
        Game game = new Game(r.seed(), r.level());
        List<String> out = new ArrayList<>();
        for (Event event : r.events()) {
            try {
                if (withApply) {
                    game.apply(event);
                } else {
                    formerDispatch(game, event);
                }
            } catch (IllegalMoveException e) {
                out.add("refused");
                break;
            }
            out.add(state(game));
        }
        return out;
    }

    /** The dispatch the validator and the cheat detector each had (round check, then place / hint / else undo). */
    private static void formerDispatch(Game game, Event event) {
        if (game.gameOver() || event.round() != game.round()) {
            throw new IllegalMoveException("refused");
        }
        if (event instanceof Event.Place p) {
            game.place(p.slot(), p.row(), p.col());
        } else if (event instanceof Event.Hint) {
            game.hintShown();
        } else {
            game.undo();
        }
    }

    @Test
    void applyingAGamesEventsRebuildsTheLiveGame() {
        List<Played> corpus = corpus(60);
        int hints = 0;
        int undos = 0;
        for (Played p : corpus) {
            Game rebuilt = new Game(p.replay().seed(), p.replay().level());
            for (Event e : p.replay().events()) {
                Game.Step step = rebuilt.apply(e);
                assertEquals(e, step.event());
                assertEquals(!(e instanceof Event.Place), step.assisting());
                hints += e instanceof Event.Hint ? 1 : 0;
                undos += e instanceof Event.Undo ? 1 : 0;
            }
            assertEquals(p.finalState(), state(rebuilt), "seed " + p.replay().seed());
            assertEquals(p.replay(), rebuilt.replay());
            ReplayValidator.Result result = ReplayValidator.validate(p.replay());
            assertTrue(result.valid(), result.error());
            assertEquals(p.replay().claimedScore(), result.score());
        }
        assertTrue(hints > 20 && undos > 20, "the corpus has " + hints + " hints and " + undos + " undos");
        assertTrue(corpus.stream().anyMatch(p -> p.finalState().contains(" true ")), "no game ended by game over");
    }

    @Test
    void theValidatorOnApplyGivesTheFormerValidatorsVerdictsAndTraces() {
        Random rnd = new Random(14);
        int refused = 0;
        int checked = 0;
        for (Played p : corpus(60)) {
            List<Replay> variants = new ArrayList<>(List.of(p.replay()));
            for (int k = 0; k < 8; k++) {
                variants.add(tampered(p.replay(), rnd));
            }
            for (Replay r : variants) {
                ReplayValidator.Result now = ReplayValidator.validate(r, true);
                assertEquals(FormerReplayValidator.validate(r, true), now, r.toJson());
                assertEquals(states(r, false), states(r, true), r.toJson());
                refused += now.valid() ? 0 : 1;
                checked++;
            }
        }
        assertTrue(refused > checked / 3, refused + " of " + checked + " refused: the tampering changed too little");
    }

    @Test
    void aStepSaysWhichPlacementsStandInTheRound() {
        Game game = new Game(3, Level.EASY);
        Random rnd = new Random(3);
        int[] m = randomMove(game, rnd);
        Game.Step first = game.apply(new Event.Place(0, m[0], m[1], m[2]));
        assertEquals(List.of(first.move()), first.standing());
        assertEquals(List.of(), game.apply(new Event.Undo(0)).standing());
        List<Game.Move> played = new ArrayList<>();
        Game.Step step = null;
        while (game.round() == 0) {
            m = randomMove(game, rnd);
            step = game.apply(new Event.Place(0, m[0], m[1], m[2]));
            played.add(step.move());
            assertEquals(played, step.standing());
        }
        assertTrue(step.move().roundCompleted());
        assertEquals(3, step.standing().size());
        assertEquals(List.of(), game.apply(new Event.Hint(1)).standing());
    }

    @Test
    void anEventOfAnotherRoundOrAfterTheEndIsRefusedWithItsReason() {
        Game game = new Game(8, Level.MEDIUM);
        IllegalMoveException e = assertThrows(IllegalMoveException.class, () -> game.apply(new Event.Hint(1)));
        assertEquals("says round 1 but round 0 is being played", e.getMessage());
        Game over = new Game(5, Level.DIABOLICAL);
        Random rnd = new Random(5);
        while (!over.gameOver()) {
            int[] m = randomMove(over, rnd);
            over.place(m[0], m[1], m[2]);
        }
        int round = over.round();
        assertEquals("the game is over: nothing can be undone",
                assertThrows(IllegalMoveException.class, () -> over.apply(new Event.Undo(round))).getMessage());
        assertThrows(NullPointerException.class, () -> over.apply(null));
    }
}
