package com.bloceclat.game.service;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Event;
import com.bloceclat.game.GameEvent;

/** A game rebuilt from its events, with the move numbers standing in its current round (for undo). */
final class Rebuilt {

    final Game game;
    final Deque<Integer> standingThisRound = new ArrayDeque<>();
    Game.Move lastMove;
    int lastMoveNumber;

    Rebuilt(Game game) {
        this.game = game;
    }

    /**
     * Replays {@code events} on a new engine game through the engine's one fold over events ({@link Game#apply}):
     * the one way a game's state is known.
     */
    static Rebuilt of(long seed, Level level, List<GameEvent> events) {
        Rebuilt r = new Rebuilt(new Game(seed, level));
        for (GameEvent e : events) {
            Event replayed = replayEvent(e);
            if (replayed != null) {
                r.applied(r.game.apply(replayed), e.moveNumber);
            }
        }
        return r;
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
        lastMove = move;
        lastMoveNumber = moveNumber;
        standingThisRound.push(moveNumber);
        if (move.roundCompleted()) {
            standingThisRound.clear();
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
        c.lastMove = lastMove;
        c.lastMoveNumber = lastMoveNumber;
        return c;
    }
}
