package com.bloceclat.engine;

import com.bloceclat.engine.replay.Event;
import com.bloceclat.engine.replay.Replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One game in progress: the authoritative state machine used by the game service, the replay
 * validator and self-play. Not thread-safe.
 *
 * <p>Undo takes back placements of the current round only (never across a deal, never after game
 * over), as docs/rules.md says.
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
    private final List<Piece[]> dealt = new ArrayList<>();
    /** Snapshots before each placement of the current round, for undo: board, score, streak, miss, slot. */
    private final long[][] undoStack = new long[3][];
    private int undoDepth;

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
        this.events.addAll(other.events);
        for (Piece[] r : other.dealt) {
            this.dealt.add(r.clone());
        }
        for (int i = 0; i < other.undoDepth; i++) {
            this.undoStack[i] = other.undoStack[i].clone();
        }
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
        return new Move(placedRound, slot, piece, row, col, outcome, roundDone, gameOver);
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
     * One placement and what it did.
     *
     * @param roundCompleted true when this placement completed the round (the next one is dealt)
     * @param gameOver       true when the game ended after it
     */
    public record Move(int round, int slot, Piece piece, int row, int col, Rules.Outcome outcome,
                       boolean roundCompleted, boolean gameOver) {
    }
}
