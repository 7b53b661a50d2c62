package com.bloceclat.engine.replay;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.IllegalMoveException;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * ReplayValidator as it was before {@code Game.apply(Event)}: its own place / hint / undo dispatch (the last branch
 * taking any other event as an undo). Kept word for word, only to show that the validator on {@code Game.apply}
 * gives the same verdicts ({@link GameApplyTest}).
 */
final class FormerReplayValidator {
    private FormerReplayValidator() {
    }

    /** Parses and validates; a replay that cannot be parsed is invalid with no valid prefix. */
    static ReplayValidator.Result validate(String json, boolean withTrace) {
        Replay replay;
        try {
            replay = Replay.fromJson(json);
        } catch (ReplayFormatException e) {
            return ReplayValidator.Result.failure(e.getMessage(), 0, 0, 0, false, List.of());
        }
        return validate(replay, withTrace);
    }

    static ReplayValidator.Result validate(Replay replay) {
        return validate(replay, false);
    }

    static ReplayValidator.Result validate(Replay replay, boolean withTrace) {
        return new Run(replay, withTrace).run();
    }

    private static final class Run {
        private final Replay replay;
        private final List<String> trace;
        private Game game;
        private int moves;
        private int validEvents;

        Run(Replay replay, boolean withTrace) {
            this.replay = replay;
            this.trace = withTrace ? new ArrayList<>() : null;
        }

        ReplayValidator.Result run() {
            if (replay.rulesVersion() != Rules.RULES_VERSION) {
                return fail("unknown rules version " + replay.rulesVersion() + " (this engine plays version "
                        + Rules.RULES_VERSION + ")");
            }
            game = new Game(replay.seed(), replay.level());
            String mismatch = checkRound(0);
            if (mismatch != null) {
                return fail(mismatch);
            }
            List<Event> events = replay.events();
            for (int i = 0; i < events.size(); i++) {
                String error = apply(i + 1, events.get(i));
                if (error != null) {
                    return fail(error);
                }
                validEvents = i + 1;
            }
            int dealt = game.dealtIds().size();
            if (replay.rounds().size() != dealt) {
                return fail("the replay lists " + replay.rounds().size() + " rounds of pieces, the game dealt " + dealt);
            }
            if (replay.claimedScore() != game.score()) {
                return fail("claimed score " + replay.claimedScore() + ", replay scores " + game.score());
            }
            if (replay.claimedRounds() != game.round()) {
                return fail("claimed " + replay.claimedRounds() + " completed rounds, replay completes " + game.round());
            }
            if (replay.assisted() && !game.assisted()) {
                return fail("game marked assisted but the replay has no hint or undo");
            }
            return new ReplayValidator.Result(true, null, validEvents, game.score(), game.round(), game.assisted(), game.gameOver(),
                    game.placements(), trace == null ? List.of() : List.copyOf(trace));
        }

        private String apply(int index, Event event) {
            if (event == null) {
                return "event " + index + " is empty";
            }
            if (game.gameOver()) {
                return (event instanceof Event.Place ? "move " + (moves + 1) : "event " + index)
                        + ": after game over";
            }
            if (event.round() != game.round()) {
                return "event " + index + ": says round " + event.round() + " but round " + game.round()
                        + " is being played";
            }
            if (event instanceof Event.Place p) {
                return place(index, p);
            }
            if (event instanceof Event.Hint) {
                game.hintShown();
                if (!replay.assisted()) {
                    return "hint at event " + index + " but game marked unassisted";
                }
                note("event " + index + ": hint shown in round " + event.round());
                return null;
            }
            try {
                game.undo();
            } catch (IllegalMoveException e) {
                return "undo at event " + index + ": " + e.getMessage();
            }
            if (!replay.assisted()) {
                return "undo at event " + index + " but game marked unassisted";
            }
            note("event " + index + ": undo in round " + event.round() + "; score " + game.score());
            return null;
        }

        private String place(int index, Event.Place p) {
            moves++;
            int scoreBefore = game.score();
            Game.Move move;
            try {
                move = game.place(p.slot(), p.row(), p.col());
            } catch (IllegalMoveException e) {
                return "move " + moves + ": " + e.getMessage();
            }
            if (trace != null) {
                Rules.Outcome o = move.outcome();
                note("event " + index + ": round " + p.round() + " slot " + p.slot() + " " + move.piece().name()
                        + " at (" + p.row() + "," + p.col() + "): +" + o.cellPoints() + " cells"
                        + (o.lines() > 0 ? ", " + o.lines() + " line(s) ×" + o.multiplier() + " +" + o.linePoints() : "")
                        + (o.cleanBonus() > 0 ? ", clean board +" + o.cleanBonus() : "")
                        + "; score " + scoreBefore + " → " + game.score()
                        + (move.gameOver() ? "; game over" : ""));
            }
            if (move.roundCompleted()) {
                return checkRound(game.round());
            }
            return null;
        }

        private void note(String line) {
            if (trace != null) {
                trace.add(line);
            }
        }

        /** Compares the replay's pieces for round k (when listed) with the seed's. */
        private String checkRound(int k) {
            if (k >= replay.rounds().size()) {
                return null;
            }
            List<String> claimed = replay.rounds().get(k);
            List<String> dealt = Arrays.stream(game.pieces()).map(Piece::name).toList();
            if (!claimed.equals(dealt)) {
                return "round " + k + " pieces differ from the seed's: replay has " + claimed + ", the seed deals " + dealt;
            }
            return null;
        }

        private ReplayValidator.Result fail(String error) {
            return ReplayValidator.Result.failure(error, validEvents, game == null ? 0 : game.score(), game == null ? 0 : game.round(),
                    game != null && game.assisted(), trace == null ? List.of() : List.copyOf(trace));
        }
    }
}
