package com.bloceclat.engine.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.IllegalMoveException;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.replay.Event;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayFormatException;
import com.bloceclat.engine.replay.ReplayValidator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The analysis of a finished (or resigned) game: for each placement the position before it, the
 * player's move, the full-strength AI's choice there ({@link Mode#HINT}) and the loss; per round
 * whether another order and placement of the same pieces would have cleared more lines
 * ({@link Mode#MAX_LINES}). docs/solver.md "Analysis" says how the loss is measured.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>Only a replay that {@link ReplayValidator} accepts is analysed; any other is refused with its
 *       reason ({@link ReplayFormatException}), before any search.</li>
 *   <li>A move equal to the AI's first placement (same shape, same cell) has loss 0; no loss is negative.</li>
 *   <li>The work is bounded: at most {@link Options#rounds()} rounds from {@link Options#fromRound()}, each
 *       solve with a soft time budget, and no round is started once the whole budget is spent;
 *       {@link Result#nextRound()} says where the next page starts.</li>
 *   <li>Reproducible: the solves are seeded from the replay's seed and the round.</li>
 * </ul>
 * Undone placements are not analysed (the standing ones are, as the replay ends up playing them); a hint
 * changes nothing here.
 */
public final class GameAnalysis {
    /** The largest loss reported: a move that ends the game (or makes it likely to end) when the AI's does not. */
    public static final int MAX_LOSS = 1000;
    public static final int MAX_ROUNDS_PER_PAGE = 50;

    private GameAnalysis() {
    }

    /**
     * Which part of the game to analyse and how long to look.
     *
     * @param fromRound the first round analysed (0-based)
     * @param rounds    how many rounds at most (1..{@link #MAX_ROUNDS_PER_PAGE})
     * @param solveMs   soft time budget of each solve (0: none)
     * @param totalMs   no round is started after this much time (0: none)
     */
    public record Options(int fromRound, int rounds, long solveMs, long totalMs) {
        public Options {
            if (fromRound < 0) {
                throw new IllegalArgumentException("fromRound must be ≥ 0, got " + fromRound);
            }
            if (rounds < 1 || rounds > MAX_ROUNDS_PER_PAGE) {
                throw new IllegalArgumentException("rounds must be 1 to " + MAX_ROUNDS_PER_PAGE + ", got " + rounds);
            }
            if (solveMs < 0 || totalMs < 0) {
                throw new IllegalArgumentException("time budgets must be ≥ 0");
            }
        }

        public static Options all() {
            return new Options(0, MAX_ROUNDS_PER_PAGE, 0, 0);
        }
    }

    /** A placement: {@code slot} of the round's three, top-left corner at (row, col). */
    public record Placement(int slot, String piece, int row, int col) {
    }

    /**
     * One analysed placement.
     *
     * @param move      1-based number of the placement among the game's standing placements
     * @param event     0-based index of its event in the replay's {@code events} (what a viewer steps to)
     * @param board     the board before it, 8 rows of {@code #} and {@code .}
     * @param remaining the round's pieces by slot, null for those already placed
     * @param played    the player's move
     * @param ai        the full-strength AI's first placement in this position
     * @param aiLine    the AI's whole sequence for the rest of the round from here
     * @param loss      what the player's move cost against the AI's, in game points (0..{@link #MAX_LOSS})
     * @param fatal     the player's move left a piece of this round with no room while the AI's did not
     */
    public record MoveAnalysis(int move, int event, int round, List<String> board, List<String> remaining,
                               int score, int streak, int miss, Placement played, Placement ai,
                               List<Placement> aiLine, int loss, boolean fatal) {
    }

    /**
     * One analysed round.
     *
     * @param lines    lines the player's placements of this round cleared
     * @param maxLines the most lines any order and placement of the round's pieces clears
     * @param best     a sequence that clears {@code maxLines} (placing as many pieces as can be placed)
     */
    public record RoundAnalysis(int round, int lines, int maxLines, boolean couldClearMore, List<Placement> best,
                                int loss) {
    }

    /**
     * @param totalRounds rounds the game played (the last may be unfinished: the game ended in it)
     * @param nextRound   the first round not analysed, or -1 when the page reached the end of the game
     * @param complete    false when a time budget cut a solve or the page short
     */
    public record Result(int totalRounds, int fromRound, int nextRound, boolean complete,
                         List<MoveAnalysis> moves, List<RoundAnalysis> rounds) {
    }

    /** @throws ReplayFormatException when the replay is not a valid game, with the validator's reason */
    public static Result analyse(Replay replay, Options options) {
        return analyse(replay, options, System::nanoTime);
    }

    static Result analyse(Replay replay, Options options, LongSupplier clock) {
        ReplayValidator.Result verdict = ReplayValidator.validate(replay);
        if (!verdict.valid()) {
            throw new ReplayFormatException("the replay is not a valid game: " + verdict.error());
        }
        return new Run(replay, options, clock).run();
    }

    /** The placements that stand at the end of each round (undone ones removed), with the game state before each. */
    private record Standing(int event, int round, long board, Piece[] remaining, int score, int streak, int miss,
                            int slot, int row, int col, int lines) {
    }

    /** One round as played: its pieces, the position it was dealt on and the placements that stood. */
    private record RoundPlay(Piece[] dealt, long board, int streak, int miss, List<Standing> placed) {
    }

    private static final class Run {
        private final Replay replay;
        private final Options options;
        private final LongSupplier clock;
        private final Evaluator eval;
        private boolean complete = true;

        Run(Replay replay, Options options, LongSupplier clock) {
            this.replay = replay;
            this.options = options;
            this.clock = clock;
            this.eval = new Evaluator(replay.level(), StrengthProfile.of(SolveRequest.MAX_STRENGTH).transition());
        }

        Result run() {
            List<RoundPlay> byRound = standing();
            int totalRounds = byRound.size();
            long start = clock.getAsLong();
            List<MoveAnalysis> moves = new ArrayList<>();
            List<RoundAnalysis> rounds = new ArrayList<>();
            int moveNumber = 0;
            for (int r = 0; r < Math.min(options.fromRound(), totalRounds); r++) {
                moveNumber += byRound.get(r).placed().size();
            }
            int end = Math.min(totalRounds, options.fromRound() + options.rounds());
            int next = -1;
            for (int r = options.fromRound(); r < end; r++) {
                if (options.totalMs() > 0 && r > options.fromRound()
                        && clock.getAsLong() - start > options.totalMs() * 1_000_000L) {
                    complete = false;
                    next = r;
                    break;
                }
                RoundPlay play = byRound.get(r);
                int roundLoss = 0;
                for (Standing s : play.placed()) {
                    MoveAnalysis m = move(++moveNumber, s);
                    roundLoss += m.loss();
                    moves.add(m);
                }
                rounds.add(round(r, play, roundLoss));
            }
            if (next < 0 && end < totalRounds) {
                next = end;
            }
            return new Result(totalRounds, options.fromRound(), next, complete, List.copyOf(moves), List.copyOf(rounds));
        }

        /** Re-plays the replay; per round, the placements left standing when the round ended. */
        private List<RoundPlay> standing() {
            Game game = new Game(replay.seed(), replay.level());
            List<RoundPlay> out = new ArrayList<>();
            RoundPlay current = new RoundPlay(game.pieces(), game.board(), game.streak(), game.miss(), new ArrayList<>());
            List<Event> events = replay.events();
            for (int i = 0; i < events.size(); i++) {
                Event e = events.get(i);
                if (e instanceof Event.Undo) {
                    game.undo();
                    current.placed().remove(current.placed().size() - 1);
                } else if (e instanceof Event.Hint) {
                    game.hintShown();
                } else if (e instanceof Event.Place p) {
                    long board = game.board();
                    Piece[] remaining = game.remaining();
                    int score = game.score();
                    int streak = game.streak();
                    int miss = game.miss();
                    int round = game.round();
                    Game.Move move;
                    try {
                        move = game.place(p.slot(), p.row(), p.col());
                    } catch (IllegalMoveException ex) {
                        throw new IllegalStateException("a validated replay has an illegal move", ex);
                    }
                    current.placed().add(new Standing(i, round, board, remaining, score, streak, miss, p.slot(),
                            p.row(), p.col(), move.outcome().lines()));
                    if (move.roundCompleted()) {
                        out.add(current);
                        current = new RoundPlay(game.pieces(), game.board(), game.streak(), game.miss(),
                                new ArrayList<>());
                    }
                }
            }
            if (!current.placed().isEmpty()) {
                out.add(current); // the round the game ended in (or was resigned in)
            }
            return out;
        }

        private MoveAnalysis move(int number, Standing s) {
            List<Piece> pieces = new ArrayList<>();
            int[] slotOf = new int[3];
            for (int slot = 0; slot < s.remaining().length; slot++) {
                if (s.remaining()[slot] != null) {
                    slotOf[pieces.size()] = slot;
                    pieces.add(s.remaining()[slot]);
                }
            }
            long seed = seedFor(replay.seed(), s.event());
            Solution ai = solve(s.board(), pieces, s.streak(), s.miss(), Mode.HINT, seed);
            List<Placement> aiLine = new ArrayList<>();
            for (Solution.Placement p : ai.best().placements()) {
                int slot = slotOf[p.piece()];
                aiLine.add(new Placement(slot, s.remaining()[slot].name(), p.row(), p.col()));
            }
            Piece mine = s.remaining()[s.slot()];
            Placement played = new Placement(s.slot(), mine.name(), s.row(), s.col());
            Placement first = aiLine.isEmpty() ? null : aiLine.get(0);
            int loss = 0;
            boolean fatal = false;
            if (first != null && !(s.remaining()[first.slot()].sameShape(mine)
                    && first.row() == s.row() && first.col() == s.col())) {
                Value aiValue = value(ai.best(), 0, pieces.size());
                Rules.Outcome o = Rules.place(s.board(), s.streak(), s.miss(), mine, s.row(), s.col());
                List<Piece> rest = new ArrayList<>(pieces);
                rest.remove(mine);
                Value mineValue;
                if (rest.isEmpty()) {
                    mineValue = new Value(1, 1, POINTS * o.points() + leaf(o.board(), o.streak(), o.miss()));
                } else {
                    Solution after = solve(o.board(), rest, o.streak(), o.miss(), Mode.HINT, seed);
                    Value v = value(after.best(), o.points(), rest.size());
                    mineValue = new Value(v.placed() + 1, v.pieces() + 1, v.value());
                }
                if (mineValue.placed() < aiValue.placed()) {
                    fatal = aiValue.allPlaced();
                    loss = MAX_LOSS;
                } else if (aiValue.placed() == mineValue.placed()) {
                    double units = aiValue.value() - mineValue.value();
                    loss = (int) Math.max(0, Math.min(MAX_LOSS, Math.round(units / POINTS)));
                }
            }
            List<String> remaining = Arrays.stream(s.remaining()).map(p -> p == null ? null : p.name()).toList();
            return new MoveAnalysis(number, s.event(), s.round(), List.of(Board.rows(s.board())),
                    java.util.Collections.unmodifiableList(new ArrayList<>(remaining)), s.score(), s.streak(), s.miss(),
                    played, first, List.copyOf(aiLine), loss, fatal);
        }

        private RoundAnalysis round(int r, RoundPlay play, int loss) {
            int lines = play.placed().stream().mapToInt(Standing::lines).sum();
            Piece[] dealt = play.dealt();
            Solution best = solve(play.board(), Arrays.asList(dealt), play.streak(), play.miss(), Mode.MAX_LINES,
                    replay.seed());
            List<Placement> seq = best.best().placements().stream()
                    .map(p -> new Placement(p.piece(), dealt[p.piece()].name(), p.row(), p.col())).toList();
            int maxLines = best.best().lines();
            return new RoundAnalysis(r, lines, maxLines, maxLines > lines, seq, loss);
        }

        private Solution solve(long board, List<Piece> pieces, int streak, int miss, Mode mode, long seed) {
            Solution s = Solver.solve(new SolveRequest(board, pieces, streak, miss, replay.level(), mode,
                    SolveRequest.MAX_STRENGTH, seed, options.solveMs()));
            if (!s.complete()) {
                complete = false;
            }
            return s;
        }

        private Value value(Solution.Sequence seq, int pointsBefore, int pieces) {
            return new Value(seq.placements().size(), pieces,
                    POINTS * (pointsBefore + seq.points()) + leaf(seq.board(), seq.streak(), seq.miss()));
        }

        /** What the full-strength AI weighs a round's end position by, but for its sampled next rounds. */
        private double leaf(long board, int streak, int miss) {
            return eval.board(board, streak, miss) + Evaluator.DEATH * eval.risk(board);
        }
    }

    private static final double POINTS = Evaluator.POINTS;

    /** The seed of the solves for the placement at replay event {@code event}: the same game, the same answers. */
    static long seedFor(long replaySeed, int event) {
        return replaySeed ^ (0x9E3779B97F4A7C15L * (event + 1));
    }

    private record Value(int placed, int pieces, double value) {
        boolean allPlaced() {
            return placed == pieces;
        }
    }
}
