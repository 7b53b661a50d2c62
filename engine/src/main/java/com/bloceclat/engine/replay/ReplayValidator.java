package com.bloceclat.engine.replay;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.IllegalMoveException;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Re-simulates a replay from its seed and compares every claimed figure. The answer is either the
 * verified result or the valid prefix plus the first error, in words a person can act on.
 *
 * <p>Each event is applied with {@link Game#apply(Event)}, the fold live play's state is built with; this class only
 * words the errors and the trace, and checks the claims.
 */
public final class ReplayValidator {
    private ReplayValidator() {
    }

    /** Parses and validates; a replay that cannot be parsed is invalid with no valid prefix. */
    public static Result validate(String json, boolean withTrace) {
        Replay replay;
        try {
            replay = Replay.fromJson(json);
        } catch (ReplayFormatException e) {
            return Result.failure(e.getMessage(), 0, 0, 0, false, List.of());
        }
        return validate(replay, withTrace);
    }

    public static Result validate(Replay replay) {
        return validate(replay, false);
    }

    public static Result validate(Replay replay, boolean withTrace) {
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

        Result run() {
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
            return new Result(true, null, validEvents, game.score(), game.round(), game.assisted(), game.gameOver(),
                    game.placements(), trace == null ? List.of() : List.copyOf(trace));
        }

        private String apply(int index, Event event) {
            if (event == null) {
                return "event " + index + " is empty";
            }
            Words words = event.accept(new Wording(index, moves + 1));
            if (game.gameOver()) {
                return words.at() + ": after game over";
            }
            if (event.round() != game.round()) {
                return "event " + index + ": says round " + event.round() + " but round " + game.round()
                        + " is being played";
            }
            int scoreBefore = game.score();
            Game.Step step;
            try {
                step = game.apply(event);
            } catch (IllegalMoveException e) {
                return words.name() + ": " + e.getMessage();
            }
            if (step.assisting() && !replay.assisted()) {
                return words.name() + " but game marked unassisted";
            }
            if (trace != null) {
                trace.add(event.accept(new Tracing(index, scoreBefore, step)));
            }
            Game.Move move = step.move();
            if (move == null) {
                return null;
            }
            moves++;
            return move.roundCompleted() ? checkRound(game.round()) : null;
        }

        /** How the errors name an event: {@code at} where the game was over, {@code name} for any other error. */
        private record Words(String at, String name) {
        }

        private static final class Wording implements Event.Visitor<Words> {
            private final int index;
            private final int move;

            Wording(int index, int move) {
                this.index = index;
                this.move = move;
            }

            @Override
            public Words place(Event.Place p) {
                return new Words("move " + move, "move " + move);
            }

            @Override
            public Words hint(Event.Hint h) {
                return new Words("event " + index, "hint at event " + index);
            }

            @Override
            public Words undo(Event.Undo u) {
                return new Words("event " + index, "undo at event " + index);
            }
        }

        /** The trace line of an applied event. */
        private final class Tracing implements Event.Visitor<String> {
            private final int index;
            private final int scoreBefore;
            private final Game.Step step;

            Tracing(int index, int scoreBefore, Game.Step step) {
                this.index = index;
                this.scoreBefore = scoreBefore;
                this.step = step;
            }

            @Override
            public String place(Event.Place p) {
                Game.Move move = step.move();
                Rules.Outcome o = move.outcome();
                return "event " + index + ": round " + p.round() + " slot " + p.slot() + " " + move.piece().name()
                        + " at (" + p.row() + "," + p.col() + "): +" + o.cellPoints() + " cells"
                        + (o.lines() > 0 ? ", " + o.lines() + " line(s) ×" + o.multiplier() + " +" + o.linePoints() : "")
                        + (o.cleanBonus() > 0 ? ", clean board +" + o.cleanBonus() : "")
                        + "; score " + scoreBefore + " → " + game.score()
                        + (move.gameOver() ? "; game over" : "");
            }

            @Override
            public String hint(Event.Hint h) {
                return "event " + index + ": hint shown in round " + h.round();
            }

            @Override
            public String undo(Event.Undo u) {
                return "event " + index + ": undo in round " + u.round() + "; score " + game.score();
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

        private Result fail(String error) {
            return Result.failure(error, validEvents, game == null ? 0 : game.score(), game == null ? 0 : game.round(),
                    game != null && game.assisted(), trace == null ? List.of() : List.copyOf(trace));
        }
    }

    /**
     * The verdict.
     *
     * @param valid       true when every event is legal and every claim matches
     * @param error       the first error, null when valid
     * @param validEvents how many events replayed legally before the error (all of them when valid)
     * @param score       the score re-simulated over the valid prefix
     * @param rounds      completed rounds over the valid prefix
     * @param assisted    whether a hint or undo occurred in the valid prefix
     * @param gameOver    whether the game had ended (a valid replay may also end by resignation)
     * @param placements  placements standing at the end
     * @param trace       one line per valid event, when asked for
     */
    public record Result(boolean valid, String error, int validEvents, int score, int rounds, boolean assisted,
                         boolean gameOver, int placements, List<String> trace) {
        static Result failure(String error, int validEvents, int score, int rounds, boolean assisted, List<String> trace) {
            return new Result(false, error, validEvents, score, rounds, assisted, false, 0, trace);
        }
    }
}
