package com.bloceclat.game.messaging;


import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import java.util.List;

import com.bloceclat.common.events.GameChanged;
import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.OutboxMessage;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Writes the messages announcing a change into the outbox, inside the transaction that makes the change, and wakes
 * the relay once that transaction has committed (a CDI transaction observer, {@code AFTER_SUCCESS}: never for a
 * transaction that rolled back; the relay merges the wake-ups of one commit, and of many, into one pass). Nothing is
 * sent to Kafka from the request itself.
 */
@ApplicationScoped
public class GameMessages {

    /** Every state change of every game ({@link GameChanged}), keyed by game id. Channel and Kafka topic, one name. */
    public static final String EVENTS_CHANNEL = GameChanged.CHANNEL;

    @Inject
    ObjectMapper json;

    /** Fired for each message written: its transaction's commit wakes the relay. */
    record Written(String topic) {
    }

    @Inject
    Event<Written> written;

    @Inject
    OutboxRelay relay;

    @Inject
    ResultSigner signer;

    public void created(GameEntity g, Game game) {
        event(g, game, "CREATED", null);
    }

    public void changed(GameEntity g, Game game, GameEvent event) {
        event(g, game, event.type.name(), event);
    }

    /**
     * The finished game with its whole replay, on {@value GameFinished#CHANNEL}, keyed by game id: {@link GameFinished}
     * (schema 2) with the facts game-service vouches for (player, mode, seed source and day, creation and end), signed
     * by {@link ResultSigner} (docs/events.md "Signed messages").
     */
    public void finished(GameEntity g, Game game) {
        GameFinished.Player player = g.ownerSubject == null ? null
                : GameFinished.Player.of(g.ownerSubject, g.ownerName);
        GameFinished message = GameFinished.of(g.id, player, GameFinished.Mode.valueOf(g.mode.name()),
                GameFinished.SeedSource.valueOf(g.seedSource.name()), g.dailyDay, g.createdAt.toInstant(),
                g.finishedAt.toInstant(), game.replay().toJson());
        enqueue(GameFinished.CHANNEL, g.id.toString(), signer.sign(message.toJson()), null);
    }

    /** The change as {@link GameChanged} (schema {@value GameChanged#SCHEMA_VERSION}, docs/events.md). */
    private void event(GameEntity g, Game game, String type, GameEvent event) {
        GameChanged.Placement placement = event != null && event.type == GameEvent.Type.PLACE
                ? new GameChanged.Placement(event.moveNumber, event.slot, event.row, event.col,
                        game.dealtId(event.round, event.slot))
                : null;
        GameChanged m = GameChanged.of(g.id, g.eventCount, GameChanged.Type.valueOf(type), placement,
                GameFinished.Mode.valueOf(g.mode.name()), g.matchId, g.matchId == null ? null : g.seat, g.level.name(),
                GameChanged.Status.valueOf(g.status.name()), game.score(), game.streak(), game.round(),
                game.assisted(), List.of(Board.rows(game.board())),
                (event != null ? event.createdAt : g.createdAt).toInstant());
        // the header that lets every replica's live consumer skip, unread, a change nobody on it watches
        enqueue(EVENTS_CHANNEL, g.id.toString(), m.toJson(), g.matchId == null ? "" : g.matchId.toString());
    }

    private void enqueue(String topic, String key, String payload, String liveMatch) {
        OutboxMessage.enqueue(topic, key, payload, liveMatch);
        written.fire(new Written(topic));
    }

    void wakeRelay(@Observes(during = TransactionPhase.AFTER_SUCCESS) Written w) {
        relay.wake();
    }
}
