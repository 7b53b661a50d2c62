package com.bloceclat.game.service;

import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.Views.GameView;

/** Solo: taking back the last placement of the round in progress (never across a deal); marks the game assisted. */
@ApplicationScoped
class Undos {

    @Inject
    GameLog log;

    @Inject
    GameStore store;

    @Inject
    GameViews views;

    @Inject
    GameConfig.Limits limits;

    /** Takes back move {@code moveNumber}, which must be the last placement standing in the current round. */
    GameView undo(UUID id, Requester requester, int moveNumber) {
        GameEntity g = Refusals.soloOnly(log.locked(id, requester));
        // the cached state (no event read when this replica holds the game): every move number up to the last
        // placement's was played, undone ones included
        Rebuilt r = log.current(g);
        if (moveNumber < 1 || moveNumber > r.lastMoveNumber()) {
            throw Refusals.conflict("There is no move " + moveNumber + " to undo.");
        }
        if (r.undoneMoves.contains(moveNumber)) {
            return views.of(g, r);
        }
        Refusals.ifFinished(store, g);
        Refusals.ifAtCap(limits, g, GameEvent.Type.UNDO, r.undoneMoves.size());
        if (r.standingThisRound.isEmpty()) {
            throw Refusals.conflict("Nothing to undo in round " + r.game.round()
                    + ": undo never goes back across a deal.");
        }
        if (r.standingThisRound.peek() != moveNumber) {
            throw Refusals.conflict("Only the last move of this round, move " + r.standingThisRound.peek()
                    + ", can be taken back.");
        }
        r.undone();
        GameEvent event = new GameEvent();
        event.type = GameEvent.Type.UNDO;
        event.round = r.game.round();
        event.moveNumber = moveNumber;
        log.append(g, r, event);
        return views.of(g, r);
    }
}
