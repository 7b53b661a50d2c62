package com.bloceclat.game.messaging;


import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.OutboxMessage;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes the messages announcing a change into the outbox, inside the transaction that makes the change, and wakes
 * the relay once that transaction has committed (a CDI transaction observer, {@code AFTER_SUCCESS}: never for a
 * transaction that rolled back; the relay merges the wake-ups of one commit, and of many, into one pass). Nothing is
 * sent to Kafka from the request itself.
 */
@ApplicationScoped
public class GameMessages {

    /** Every state change of every game, keyed by game id. Channel and Kafka topic, one name. */
    public static final String EVENTS_CHANNEL = "game-events";

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
        enqueue(GameFinished.CHANNEL, g.id.toString(), signer.sign(message.toJson()));
    }

    private void event(GameEntity g, Game game, String type, GameEvent event) {
        ObjectNode m = json.createObjectNode();
        m.put("eventId", g.id + ":" + g.eventCount);
        m.put("gameId", g.id.toString());
        m.put("version", g.eventCount);
        m.put("type", type);
        if (event != null && event.type == GameEvent.Type.PLACE) {
            m.put("moveNumber", event.moveNumber).put("slot", event.slot).put("row", event.row).put("col", event.col)
                    .put("piece", game.dealtIds().get(event.round).get(event.slot));
        }
        m.put("mode", g.mode.name());
        if (g.matchId != null) {
            m.put("matchId", g.matchId.toString()).put("seat", g.seat);
        }
        m.put("level", g.level.name());
        m.put("status", g.status.name());
        m.put("score", game.score());
        m.put("streak", game.streak());
        m.put("round", game.round());
        m.put("assisted", game.assisted());
        ArrayNode board = m.putArray("board");
        for (String row : Board.rows(game.board())) {
            board.add(row);
        }
        m.put("at", (event != null ? event.createdAt : g.createdAt).toString());
        enqueue(EVENTS_CHANNEL, g.id.toString(), m.toString());
    }

    private void enqueue(String topic, String key, String payload) {
        OutboxMessage.enqueue(topic, key, payload);
        written.fire(new Written(topic));
    }

    void wakeRelay(@Observes(during = TransactionPhase.AFTER_SUCCESS) Written w) {
        relay.wake();
    }
}
