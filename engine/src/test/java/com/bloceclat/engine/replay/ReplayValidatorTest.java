package com.bloceclat.engine.replay;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.SelfPlay;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every kind of tampering is rejected with its reason; honest replays are accepted. */
class ReplayValidatorTest {
    private static Replay honest;

    @BeforeAll
    static void playAGame() {
        honest = replayOf(42, Level.HARD, 12);
        assertEquals(12, honest.claimedRounds());
        assertTrue(ReplayValidator.validate(honest).valid(), ReplayValidator.validate(honest).error());
    }

    /** The replay of the first {@code rounds} rounds (or to the end) as the full-strength AI plays them. */
    static Replay replayOf(long seed, Level level, int rounds) {
        Game game = new Game(seed, level);
        while (!game.gameOver() && game.round() < rounds) {
            SelfPlay.playRound(game, 5, seed);
        }
        return game.replay();
    }

    private static Replay with(UnaryOperator<List<Event>> events) {
        return new Replay(honest.rulesVersion(), honest.seed(), honest.level(), events.apply(new ArrayList<>(honest.events())),
                honest.rounds(), honest.claimedScore(), honest.claimedRounds(), honest.assisted());
    }

    private static void rejected(Replay r, String expectedStart) {
        ReplayValidator.Result res = ReplayValidator.validate(r);
        assertFalse(res.valid(), "tampered replay accepted");
        assertTrue(res.error().startsWith(expectedStart), "error was: " + res.error());
    }

    private static int firstPlacementOfRound(List<Event> events, int round) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof Event.Place p && p.round() == round) {
                return i;
            }
        }
        throw new IllegalStateException();
    }

    @Test
    void honestReplayIsAccepted() {
        ReplayValidator.Result r = ReplayValidator.validate(honest.toJson(), true);
        assertTrue(r.valid());
        assertEquals(honest.claimedScore(), r.score());
        assertEquals(honest.events().size(), r.trace().size());
    }

    @Test
    void theStartBoardIsTheSeedsAndNotPartOfTheJson() {
        assertEquals(List.of(Board.rows(new Game(42, Level.HARD).board())), honest.startBoard());
        assertFalse(honest.toJson().contains("start"), honest.toJson());
        String viewersCopy = honest.toJson().replaceFirst("\\{", "{\"start\":[\"########\"],");
        assertEquals(honest, Replay.fromJson(viewersCopy));
    }

    @Test
    void illegalCellOverlap() {
        // Put the second placement of round 0 where the first one went.
        Replay r = with(ev -> {
            Event.Place first = (Event.Place) ev.get(0);
            Event.Place second = (Event.Place) ev.get(1);
            ev.set(1, new Event.Place(0, second.slot(), first.row(), first.col()));
            return ev;
        });
        ReplayValidator.Result res = ReplayValidator.validate(r);
        assertFalse(res.valid());
        assertTrue(res.error().startsWith("move 2: "), res.error());
        assertTrue(res.error().endsWith("overlaps a filled cell") || res.error().endsWith("does not fit on the board"),
                res.error());
        assertEquals(1, res.validEvents(), "the valid prefix is the first move");
    }

    @Test
    void placementOffTheBoard() {
        rejected(with(ev -> {
            Event.Place p = (Event.Place) ev.get(0);
            ev.set(0, new Event.Place(0, p.slot(), 7, 7 + 1));
            return ev;
        }), "move 1: ");
    }

    /** A cell number far off the board must not wrap onto it: {@code col + width} overflowed, and the shift wraps. */
    @Test
    void placementFarOffTheBoardDoesNotWrapOntoIt() {
        for (int[] cell : new int[][] {{0, Integer.MAX_VALUE}, {Integer.MAX_VALUE, 0}, {Integer.MAX_VALUE - 1, 2},
                {Integer.MIN_VALUE, 0}}) {
            rejected(with(ev -> {
                Event.Place p = (Event.Place) ev.get(0);
                ev.set(0, new Event.Place(0, p.slot(), cell[0], cell[1]));
                return ev;
            }), "move 1: ");
        }
    }

    @Test
    void wrongSlot() {
        rejected(with(ev -> {
            Event.Place p = (Event.Place) ev.get(0);
            ev.set(0, new Event.Place(0, 3, p.row(), p.col()));
            return ev;
        }), "move 1: slot must be 0, 1 or 2, got 3");
    }

    @Test
    void pieceUsedTwice() {
        rejected(with(ev -> {
            Event.Place p = (Event.Place) ev.get(0);
            Event.Place q = (Event.Place) ev.get(1);
            ev.set(1, new Event.Place(0, p.slot(), q.row(), q.col()));
            return ev;
        }), "move 2: the piece in slot");
    }

    @Test
    void wrongPieces() {
        List<List<String>> rounds = new ArrayList<>(honest.rounds());
        List<String> r4 = new ArrayList<>(rounds.get(4));
        r4.set(0, r4.get(0).equals("DOT") ? "I2H" : "DOT");
        rounds.set(4, r4);
        Replay r = new Replay(1, honest.seed(), honest.level(), honest.events(), rounds, honest.claimedScore(),
                honest.claimedRounds(), false);
        rejected(r, "round 4 pieces differ from the seed's");
    }

    @Test
    void wrongSeedChangesRoundZero() {
        Replay r = new Replay(1, honest.seed() + 1, honest.level(), honest.events(), honest.rounds(),
                honest.claimedScore(), honest.claimedRounds(), false);
        ReplayValidator.Result res = ReplayValidator.validate(r);
        assertFalse(res.valid());
    }

    @Test
    void movesAfterGameOver() {
        Replay full = replayOf(5, Level.DIABOLICAL, Integer.MAX_VALUE);
        ReplayValidator.Result ok = ReplayValidator.validate(full);
        assertTrue(ok.valid() && ok.gameOver(), ok.error());
        List<Event> events = new ArrayList<>(full.events());
        events.add(new Event.Place(full.claimedRounds(), 0, 0, 0));
        rejected(new Replay(1, full.seed(), full.level(), events, full.rounds(), full.claimedScore(), full.claimedRounds(),
                false), "move " + (full.events().size() + 1) + ": after game over");
    }

    @Test
    void scoreOffByOne() {
        rejected(new Replay(1, honest.seed(), honest.level(), honest.events(), honest.rounds(), honest.claimedScore() + 1,
                honest.claimedRounds(), false), "claimed score " + (honest.claimedScore() + 1) + ", replay scores "
                + honest.claimedScore());
    }

    @Test
    void roundsOffByOne() {
        rejected(new Replay(1, honest.seed(), honest.level(), honest.events(), honest.rounds(), honest.claimedScore(),
                honest.claimedRounds() + 1, false), "claimed " + (honest.claimedRounds() + 1) + " completed rounds");
    }

    @Test
    void hiddenHint() {
        Replay r = with(ev -> {
            ev.add(3, new Event.Hint(1));
            return ev;
        });
        rejected(r, "hint at event 4 but game marked unassisted");
    }

    @Test
    void hiddenUndo() {
        Replay r = with(ev -> {
            int i = firstPlacementOfRound(ev, 2);
            ev.add(i + 1, new Event.Undo(2));
            ev.add(i + 2, ev.get(i));
            return ev;
        });
        int undoEvent = firstPlacementOfRound(honest.events(), 2) + 2;
        rejected(r, "undo at event " + undoEvent + " but game marked unassisted");
    }

    @Test
    void declaredUndoIsAcceptedAsAssisted() {
        List<Event> ev = new ArrayList<>(honest.events());
        int i = firstPlacementOfRound(ev, 2);
        ev.add(i + 1, new Event.Undo(2));
        ev.add(i + 2, ev.get(i));
        Replay r = new Replay(1, honest.seed(), honest.level(), ev, honest.rounds(), honest.claimedScore(),
                honest.claimedRounds(), true);
        ReplayValidator.Result res = ReplayValidator.validate(r);
        assertTrue(res.valid(), res.error());
        assertTrue(res.assisted());
    }

    @Test
    void undoWithNothingToUndo() {
        List<Event> ev = new ArrayList<>(honest.events());
        ev.add(0, new Event.Undo(0));
        rejected(new Replay(1, honest.seed(), honest.level(), ev, honest.rounds(), honest.claimedScore(),
                honest.claimedRounds(), true), "undo at event 1: nothing to undo in round 0");
    }

    @Test
    void assistedClaimWithoutAssistance() {
        rejected(new Replay(1, honest.seed(), honest.level(), honest.events(), honest.rounds(), honest.claimedScore(),
                honest.claimedRounds(), true), "game marked assisted but the replay has no hint or undo");
    }

    @Test
    void eventForTheWrongRound() {
        rejected(with(ev -> {
            Event.Place p = (Event.Place) ev.get(0);
            ev.set(0, new Event.Place(1, p.slot(), p.row(), p.col()));
            return ev;
        }), "event 1: says round 1 but round 0 is being played");
    }

    @Test
    void unknownRulesVersion() {
        rejected(new Replay(3, honest.seed(), honest.level(), honest.events(), honest.rounds(), honest.claimedScore(),
                honest.claimedRounds(), false), "unknown rules version 3");
    }

    @Test
    void truncatedJson() {
        String json = honest.toJson();
        ReplayValidator.Result res = ReplayValidator.validate(json.substring(0, json.length() / 2), false);
        assertFalse(res.valid());
        assertTrue(res.error().startsWith("the replay is not valid JSON"), res.error());
        assertEquals(0, res.validEvents());
    }

    @Test
    void unknownLevelAndMissingFields() {
        ReplayValidator.Result bad = ReplayValidator.validate(honest.toJson().replace("\"HARD\"", "\"IMPOSSIBLE\""), false);
        assertFalse(bad.valid());
        assertTrue(bad.error().contains("IMPOSSIBLE"), bad.error());
        assertFalse(ReplayValidator.validate("{\"rulesVersion\":1,\"seed\":1,\"level\":\"EASY\"}", false).valid());
        assertFalse(ReplayValidator.validate("null", false).valid());
    }

    @Test
    void fewerRoundsListedThanDealt() {
        List<List<String>> rounds = new ArrayList<>(honest.rounds());
        rounds.remove(rounds.size() - 1);
        rejected(new Replay(1, honest.seed(), honest.level(), honest.events(), rounds, honest.claimedScore(),
                honest.claimedRounds(), false), "the replay lists " + rounds.size() + " rounds of pieces");
    }

    @Test
    void unknownPieceIdInRounds() {
        List<List<String>> rounds = new ArrayList<>(honest.rounds());
        rounds.set(0, List.of("NOPE", "DOT", "DOT"));
        rejected(new Replay(1, honest.seed(), honest.level(), honest.events(), rounds, honest.claimedScore(),
                honest.claimedRounds(), false), "round 0 pieces differ from the seed's");
        assertTrue(Pieces.byId("NOPE") == null);
    }
}
