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
 * The messages announcing a change, written into the outbox inside the transaction that makes the change (a change of
 * a game's events in the very statement that writes it, {@code GameStore.write}), and the relay woken once that
 * transaction has committed (a CDI transaction observer, {@code AFTER_SUCCESS}: never for a
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

    /** A new game's {@code CREATED} message, written into the outbox now. */
    public void created(GameEntity g, Game game) {
        OutboxMessage.enqueue(announced(event(g, game, "CREATED", null)));
    }

    /**
     * The change's message, added to {@code into}: the caller writes it with the change, in one statement
     * ({@code GameStore.write}).
     */
    public void changed(GameEntity g, Game game, GameEvent event, List<OutboxMessage.Outgoing> into) {
        into.add(announced(event(g, game, event.type.name(), event)));
    }

    /**
     * The finished game with its whole replay, on {@value GameFinished#CHANNEL}, keyed by game id: {@link GameFinished}
     * (schema 2) with the facts game-service vouches for (player, mode, seed source and day, creation and end), signed
     * by {@link ResultSigner} (docs/events.md "Signed messages"); added to {@code into}, which the caller writes with
     * the change that ended the game.
     */
    public void finished(GameEntity g, Game game, List<OutboxMessage.Outgoing> into) {
        GameFinished.Player player = g.ownerSubject == null ? null
                : GameFinished.Player.of(g.ownerSubject, g.ownerName);
        GameFinished message = GameFinished.of(g.id, player, GameFinished.Mode.valueOf(g.mode.name()),
                GameFinished.SeedSource.valueOf(g.seedSource.name()), g.dailyDay, g.createdAt.toInstant(),
                g.finishedAt.toInstant(), game.replay().toJson()).withPractice(g.dailyPractice);
        into.add(announced(new OutboxMessage.Outgoing(GameFinished.CHANNEL, g.id.toString(),
                signer.sign(message.toJson()), null)));
    }

    /** The change as {@link GameChanged} (schema {@value GameChanged#SCHEMA_VERSION}, docs/events.md). */
    private OutboxMessage.Outgoing event(GameEntity g, Game game, String type, GameEvent event) {
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
        return new OutboxMessage.Outgoing(EVENTS_CHANNEL, g.id.toString(), m.toJson(),
                g.matchId == null ? "" : g.matchId.toString());
    }

    /** A message of this transaction: its commit wakes the relay. */
    private OutboxMessage.Outgoing announced(OutboxMessage.Outgoing m) {
        written.fire(new Written(m.topic()));
        return m;
    }

    void wakeRelay(@Observes(during = TransactionPhase.AFTER_SUCCESS) Written w) {
        relay.wake();
    }
}
