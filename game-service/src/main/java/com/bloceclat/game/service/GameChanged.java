package com.bloceclat.game.service;

import com.bloceclat.engine.Game;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;

/**
 * A CDI event fired by {@link GameLog} inside the transaction of every event appended to a game, once the game's row
 * says what the event did (count, score), before the game ends by it and before its {@code game-events} message is
 * written. Observed synchronously ({@code @Observes}): a match's game by {@link MatchJudge}, which may end it as
 * {@code WON} through {@link GameLog#finish} (also on a placement that ends it by game over, when that placement got it
 * above the score to beat); the message written after the observers carries that final status.
 *
 * @param game   the game's row, locked by this transaction
 * @param state  the engine state after the event
 * @param event  the event appended
 * @param ending how the event ends the game unless the judge ends it as {@code WON} first: {@code OVER} (game over),
 *               {@code RESIGNED}, or null when the game plays on
 */
record GameChanged(GameEntity game, Game state, GameEvent event, GameEntity.Status ending) {
}
