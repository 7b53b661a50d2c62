package com.bloceclat.game.service;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Event;
import com.bloceclat.game.GameEvent;

/**
 * A game rebuilt from its events, with the move numbers standing in its current round (for undo), the hints and undos
 * used and the moves undone (for their caps and a repeated undo, so that neither reads the game's events), and the
 * number of stored events it is the state after.
 */
final class Rebuilt {

    final Game game;
    final Deque<Integer> standingThisRound = new ArrayDeque<>();
    /** How many of the game's stored events this is the state after (a resignation counts, though it changes no state). */
    int eventCount;
    /**
     * The last {@link #RECENT} placements with their move numbers, newest first: a placement sent again is answered
     * from these, so that no request replays the game (docs/game-service.md "Moves").
     */
    final Deque<Numbered> recent = new ArrayDeque<>(RECENT);

    /** A round's worth: more than any client sends without waiting for an answer. */
    static final int RECENT = 3;

    /** A placement and the move number it was sent as. */
    record Numbered(int moveNumber, Game.Move move) {
    }
    int hints;
    /**
     * The move numbers taken back, at most {@code bloc.limits.undos-per-game}; one undo each (a move undone stands no
     * more, so it is never undone again), so their count is the undos used.
     */
    final Set<Integer> undoneMoves = new HashSet<>();

    Rebuilt(Game game) {
        this.game = game;
    }

    /**
     * Replays {@code events} on a new engine game through the engine's one fold over events ({@link Game#apply}):
     * the one way a game's state is known.
     */
    static Rebuilt of(long seed, Level level, List<GameEvent> events) {
        return new Rebuilt(new Game(seed, level)).then(events);
    }

    /**
     * Applies {@code events}, the game's next stored events (numbered from {@link #eventCount} on), as {@link #of}
     * does: a state caught up from an older one is the state replayed from the start.
     */
    Rebuilt then(List<GameEvent> events) {
        for (GameEvent e : events) {
            if (e.seq != eventCount) {
                throw new IllegalStateException("event " + e.seq + " of game " + e.gameId + " applied after "
                        + eventCount + " events");
            }
            Event replayed = replayEvent(e);
            if (replayed != null) {
                applied(game.apply(replayed), e.moveNumber);
            }
            counted(e);
            eventCount++;
        }
        return this;
    }

    /** A stored event as the engine's replay event; null for a resignation, which ends a game but is no such event. */
    static Event replayEvent(GameEvent e) {
        return switch (e.type) {
            case PLACE -> new Event.Place(e.round, e.slot, e.row, e.col);
            case UNDO -> new Event.Undo(e.round);
            case HINT -> new Event.Hint(e.round);
            case RESIGN -> null;
        };
    }

    /** Follows what {@link Game#apply} did: a placement numbered {@code moveNumber}, or the placements left standing. */
    private void applied(Game.Step step, Integer moveNumber) {
        if (step.move() != null) {
            placed(step.move(), moveNumber);
            return;
        }
        while (standingThisRound.size() > step.standing().size()) {
            standingThisRound.pop();
        }
    }

    void placed(Game.Move move, int moveNumber) {
        if (recent.size() == RECENT) {
            recent.removeLast();
        }
        recent.push(new Numbered(moveNumber, move));
        standingThisRound.push(moveNumber);
        if (move.roundCompleted()) {
            standingThisRound.clear();
        }
    }

    /** The move number of the last placement, 0 before the first. */
    int lastMoveNumber() {
        Numbered last = recent.peek();
        return last == null ? 0 : last.moveNumber();
    }

    /** The placement sent as {@code moveNumber}, if it is one of the {@link #RECENT} last; else null. */
    Game.Move recent(int moveNumber) {
        for (Numbered n : recent) {
            if (n.moveNumber() == moveNumber) {
                return n.move();
            }
        }
        return null;
    }

    /** Counts a hint or an undo among the events this state is after (an undo with the move it took back). */
    void counted(GameEvent e) {
        if (e.type == GameEvent.Type.HINT) {
            hints++;
        } else if (e.type == GameEvent.Type.UNDO) {
            undoneMoves.add(e.moveNumber);
        }
    }

    void undone() {
        game.undo();
        standingThisRound.pop();
    }

    /** A copy that may be played on without changing this one. */
    Rebuilt copy() {
        Rebuilt c = new Rebuilt(game.copy());
        c.standingThisRound.addAll(standingThisRound);
        c.recent.addAll(recent);
        c.eventCount = eventCount;
        c.hints = hints;
        c.undoneMoves.addAll(undoneMoves);
        return c;
    }
}
