package com.bloceclat.game.service;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
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

    /** Replays {@code events} on a new engine game: the one way a game's state is known. */
    static Rebuilt of(long seed, Level level, List<GameEvent> events) {
        Rebuilt r = new Rebuilt(new Game(seed, level));
        for (GameEvent e : events) {
            switch (e.type) {
                case PLACE -> r.placed(r.game.place(e.slot, e.row, e.col), e.moveNumber);
                case UNDO -> r.undone();
                case HINT -> r.game.hintShown();
                case RESIGN -> {
                    // ends the game without changing the engine's state
                }
            }
        }
        return r;
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
