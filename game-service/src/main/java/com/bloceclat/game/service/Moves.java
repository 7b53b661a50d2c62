package com.bloceclat.game.service;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.ClientErrorException;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.IllegalMoveException;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.Views.MoveView;

/**
 * Placements, in every mode (solo, versus AI, two players, online race): numbered by the client, so a move sent
 * twice is answered again (one of the game's last {@link Rebuilt#RECENT} placements; an older one is refused) and never
 * applied twice, and a move out of order is refused with the next number. No move reads the game's past events but
 * those a stale cached state lacks.
 */
@ApplicationScoped
class Moves {

    @Inject
    GameLog log;

    @Inject
    GameStore store;

    @Inject
    GameViews views;

    @Inject
    GameConfig.Limits limits;

    /** Places the piece of {@code slot} at ({@code row}, {@code col}) as move {@code moveNumber}. */
    MoveView move(UUID id, Requester requester, int moveNumber, int slot, int row, int col) {
        GameEntity g = log.locked(id, requester);
        Rebuilt now = log.current(g);
        if (moveNumber == now.lastMoveNumber() + 1) {
            // the next move (move numbers only grow, so it cannot have been played): no more events to read than
            // the state's, none when this replica holds the game at the locked row's count
            return place(g, now, moveNumber, slot, row, col);
        }
        if (moveNumber < 1 || moveNumber > now.lastMoveNumber() + 1) {
            throw outOfOrder(moveNumber, now); // no such move was played: nothing to read
        }
        Game.Move played = now.recent(moveNumber);
        if (played != null && now.undoneMoves.contains(moveNumber)) {
            // answered as repeated, it told of a piece no longer on the board it showed
            throw Refusals.conflict("Move " + moveNumber + " was undone; the next move number is "
                    + (now.lastMoveNumber() + 1) + ".");
        }
        if (played != null) {
            // a recent placement sent again (an answer lost on the way): the state knows it, no event is read
            if (played.slot() != slot || played.row() != row || played.col() != col) {
                throw alreadyPlayed(moveNumber, played.slot(), played.row(), played.col(), now);
            }
            return new MoveView(true, Views.happened(moveNumber, played), views.of(g, now));
        }
        // older than the last few: answering what it did would replay the game up to it under the game's lock, one
        // game's events for one request; a client that sends a move again sends its last one, so it is refused
        throw Refusals.conflict("Move " + moveNumber + " was played before the last " + Rebuilt.RECENT
                + " placements; the next move number is " + (now.lastMoveNumber() + 1) + ": read the game for its "
                + "state.");
    }

    private static ClientErrorException outOfOrder(int moveNumber, Rebuilt now) {
        return Refusals.conflict("Move number " + moveNumber + " is out of order: the next move number is "
                + (now.lastMoveNumber() + 1) + ".");
    }

    private static ClientErrorException alreadyPlayed(int moveNumber, int slot, int row, int col, Rebuilt now) {
        return Refusals.conflict("Move " + moveNumber + " was already played, as slot " + slot + " at (" + row + ","
                + col + "); the next move number is " + (now.lastMoveNumber() + 1) + ".");
    }

    /** Plays move {@code moveNumber} (the next one) on {@code r}, the game's current state, and stores it. */
    private MoveView place(GameEntity g, Rebuilt r, int moveNumber, int slot, int row, int col) {
        Refusals.ifFinished(store, g);
        Refusals.ifNotYourTurn(store, g);
        Refusals.ifAtCap(limits, g, null, 0);
        Game.Move m;
        try {
            m = placed(g, r, moveNumber, slot, row, col);
        } catch (IllegalMoveException e) {
            throw Refusals.conflict("Illegal move: " + e.getMessage() + ".");
        }
        return new MoveView(false, Views.happened(moveNumber, m), views.of(g, r));
    }

    /**
     * Applies and appends a placement on a game whose row this transaction has locked, {@code r} its current state:
     * the player's move and the AI's ({@link AiTurns}).
     *
     * @throws IllegalMoveException when the engine refuses it (nothing is written)
     */
    Game.Move placed(GameEntity g, Rebuilt r, int moveNumber, int slot, int row, int col) {
        Game.Move m = r.game.place(slot, row, col);
        r.placed(m, moveNumber);
        GameEvent event = new GameEvent();
        event.type = GameEvent.Type.PLACE;
        event.round = m.round();
        event.slot = slot;
        event.row = row;
        event.col = col;
        event.moveNumber = moveNumber;
        log.append(g, r, event);
        return m;
    }
}
