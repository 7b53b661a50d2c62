package com.bloceclat.engine;

import com.bloceclat.engine.replay.Event;
import com.bloceclat.engine.replay.Replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One game in progress: the authoritative state machine used by the game service, the replay
 * validator, the leaderboard's cheat detector and self-play. Not thread-safe.
 *
 * <p>Undo takes back placements of the current round only (never across a deal, never after game
 * over), as docs/rules.md says.
 *
 * <p>Live play calls {@link #place}, {@link #hintShown} and {@link #undo}; whoever re-plays recorded events calls
 * {@link #apply(Event)}, the one fold over events: it checks the event's round and calls the same three methods, so a
 * replayed game is in exactly the state the live one was in after the same events.
 */
public final class Game {
    /** No cap on the number of rounds. */
    public static final int NO_CAP = 0;

    private final long seed;
    private final Level level;
    private final Deal deal;
    private final int roundCap;

    private long board;
    private int score;
    private int streak;
    private int miss;
    private int round;
    private Piece[] pieces;
    private final boolean[] placed = new boolean[3];
    private boolean gameOver;
    private boolean assisted;
    private int placements;
    private final List<Event> events = new ArrayList<>();
    /** Each round's pieces as dealt; an array is never changed once added, so copies of the game share them. */
    private final List<Piece[]> dealt = new ArrayList<>();
    /** Snapshots before each placement of the current round, for undo: board, score, streak, miss, slot. */
    private final long[][] undoStack = new long[3][];
    /** The placements standing in the current round (the first {@code undoDepth}); kept after the round's last one. */
    private final Move[] roundMoves = new Move[3];
    private int undoDepth;
    private final Event.Visitor<Step> applier = new Applier();

    public Game(long seed, Level level) {
        this(seed, level, Deal.seeded(seed, level), NO_CAP);
    }

    public Game(long seed, Level level, Deal deal, int roundCap) {
        this.seed = seed;
        this.level = level;
        this.deal = deal;
        this.roundCap = roundCap;
        this.board = deal.startBoard();
        dealRound();
    }

    /** A copy of {@code other}: the two games share nothing mutable. */
    private Game(Game other) {
        this.seed = other.seed;
        this.level = other.level;
        this.deal = other.deal;
        this.roundCap = other.roundCap;
        this.board = other.board;
        this.score = other.score;
        this.streak = other.streak;
        this.miss = other.miss;
        this.round = other.round;
        this.pieces = other.pieces.clone();
        System.arraycopy(other.placed, 0, this.placed, 0, this.placed.length);
        this.gameOver = other.gameOver;
        this.assisted = other.assisted;
        this.placements = other.placements;
        // events are immutable and dealt rounds never change: a copy shares them (a reference copy, not a deep one)
        this.events.addAll(other.events);
        this.dealt.addAll(other.dealt);
        for (int i = 0; i < other.undoDepth; i++) {
            this.undoStack[i] = other.undoStack[i].clone();
        }
        System.arraycopy(other.roundMoves, 0, this.roundMoves, 0, this.roundMoves.length);
        this.undoDepth = other.undoDepth;
    }

    /**
     * An independent copy of this game in its current state (undo history of the round included): playing on one
     * never changes the other. Cheaper than replaying the events on a new game.
     */
    public Game copy() {
        return new Game(this);
    }

    private void dealRound() {
        undoDepth = 0;
        if (roundCap != NO_CAP && round >= roundCap) {
            pieces = new Piece[0];
            gameOver = true;
            return;
        }
        pieces = deal.round(round);
        dealt.add(pieces.clone());
        Arrays.fill(placed, false);
        gameOver = !anyRemainingFits();
    }

    private boolean anyRemainingFits() {
        for (int i = 0; i < pieces.length; i++) {
            if (!placed[i] && pieces[i].fits(board)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Places the piece of {@code slot} with its top-left corner at (row, col).
     *
     * @throws IllegalMoveException with a reason a person can act on
     */
    public Move place(int slot, int row, int col) {
        if (gameOver) {
            throw new IllegalMoveException("the game is over");
        }
        if (slot < 0 || slot > 2) {
            throw new IllegalMoveException("slot must be 0, 1 or 2, got " + slot);
        }
        if (placed[slot]) {
            throw new IllegalMoveException("the piece in slot " + slot + " of round " + round + " is already placed");
        }
        Piece piece = pieces[slot];
        String reason = Rules.illegalReason(board, piece, row, col);
        if (reason != null) {
            throw new IllegalMoveException(piece.name() + " at (" + row + "," + col + ") " + reason);
        }
        int standing = undoDepth;
        undoStack[undoDepth++] = new long[] {board, score, streak, miss, slot};
        Rules.Outcome outcome = Rules.place(board, streak, miss, piece, row, col);
        int placedRound = round;
        board = outcome.board();
        score += outcome.points();
        streak = outcome.streak();
        miss = outcome.miss();
        placed[slot] = true;
        placements++;
        events.add(new Event.Place(placedRound, slot, row, col));
        boolean roundDone = placed[0] && placed[1] && placed[2];
        if (roundDone) {
            round++;
            dealRound();
        } else {
            gameOver = !anyRemainingFits();
        }
        Move move = new Move(placedRound, slot, piece, row, col, outcome, roundDone, gameOver);
        roundMoves[standing] = move;
        return move;
    }

    /** Takes back the last placement of this round. @throws IllegalMoveException when there is none */
    public void undo() {
        if (gameOver) {
            throw new IllegalMoveException("the game is over: nothing can be undone");
        }
        if (undoDepth == 0) {
            throw new IllegalMoveException("nothing to undo in round " + round);
        }
        long[] s = undoStack[--undoDepth];
        board = s[0];
        score = (int) s[1];
        streak = (int) s[2];
        miss = (int) s[3];
        placed[(int) s[4]] = false;
        placements--;
        assisted = true;
        events.add(new Event.Undo(round));
    }

    /** Records that a hint was shown: the game is assisted from now on. */
    public void hintShown() {
        if (gameOver) {
            throw new IllegalMoveException("the game is over: no hint");
        }
        assisted = true;
        events.add(new Event.Hint(round));
    }

    /**
     * Applies one recorded event as live play applied it: a placement is {@link #place}, a hint {@link #hintShown},
     * an undo {@link #undo}. Exhaustive over the event types ({@link Event.Visitor}): there is no default case.
     *
     * @return what the event did
     * @throws IllegalMoveException when the event cannot happen here: it names another round than the one being
     *                              played, the game is over, or the move itself is illegal (the reason says which)
     */
    public Step apply(Event event) {
        Objects.requireNonNull(event, "event");
        if (event.round() != round) {
            throw new IllegalMoveException("says round " + event.round() + " but round " + round + " is being played");
        }
        return event.accept(applier);
    }

    private final class Applier implements Event.Visitor<Step> {
        @Override
        public Step place(Event.Place p) {
            int before = undoDepth;
            Move move = Game.this.place(p.slot(), p.row(), p.col());
            return new Step(p, move, List.of(Arrays.copyOf(roundMoves, before + 1)), false);
        }

        @Override
        public Step hint(Event.Hint h) {
            hintShown();
            return new Step(h, null, standing(), true);
        }

        @Override
        public Step undo(Event.Undo u) {
            Game.this.undo();
            return new Step(u, null, standing(), true);
        }

        private List<Move> standing() {
            return List.of(Arrays.copyOf(roundMoves, undoDepth));
        }
    }

    public long seed() {
        return seed;
    }

    public Level level() {
        return level;
    }

    public long board() {
        return board;
    }

    public int score() {
        return score;
    }

    public int streak() {
        return streak;
    }

    public int miss() {
        return miss;
    }

    /** The current round; equals the number of completed rounds. */
    public int round() {
        return round;
    }

    public boolean gameOver() {
        return gameOver;
    }

    public boolean assisted() {
        return assisted;
    }

    /** Placements standing (undone ones excluded). */
    public int placements() {
        return placements;
    }

    /** The round's three pieces (placed ones included). */
    public Piece[] pieces() {
        return pieces.clone();
    }

    public boolean placed(int slot) {
        return placed[slot];
    }

    /** The pieces not yet placed this round, in slot order, with null for placed slots. */
    public Piece[] remaining() {
        Piece[] r = new Piece[pieces.length];
        for (int i = 0; i < pieces.length; i++) {
            r[i] = placed[i] ? null : pieces[i];
        }
        return r;
    }

    public List<Event> events() {
        return List.copyOf(events);
    }

    /** The id of the piece dealt in {@code slot} of {@code round} (a round dealt so far). */
    public String dealtId(int round, int slot) {
        return dealt.get(round)[slot].name();
    }

    /** The pieces dealt in each round so far. */
    public List<List<String>> dealtIds() {
        List<List<String>> out = new ArrayList<>(dealt.size());
        for (Piece[] r : dealt) {
            out.add(Arrays.stream(r).map(Piece::name).toList());
        }
        return out;
    }

    /** The replay of the game so far, claiming the current score and completed rounds. */
    public Replay replay() {
        return new Replay(Rules.RULES_VERSION, seed, level, events(), dealtIds(), score, round, assisted);
    }

    /**
     * What one applied event did.
     *
     * @param event     the event
     * @param move      the placement it made, for a placement; null for a hint or an undo
     * @param standing  the placements standing in the event's round after it, in the order played (for the
     *                  placement that completes a round: that round's placements)
     * @param assisting true for a hint or an undo (the game is assisted from now on)
     */
    public record Step(Event event, Move move, List<Move> standing, boolean assisting) {
    }

    /**
     * One placement and what it did.
     *
     * @param roundCompleted true when this placement completed the round (the next one is dealt)
     * @param gameOver       true when the game ended after it
     */
    public record Move(int round, int slot, Piece piece, int row, int col, Rules.Outcome outcome,
                       boolean roundCompleted, boolean gameOver) {
    }
}
