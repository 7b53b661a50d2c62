package com.bloceclat.game;

import static com.bloceclat.game.Play.As;
import static com.bloceclat.game.Play.Started;
import static com.bloceclat.game.Play.create;
import static com.bloceclat.game.Play.firstLegal;
import static com.bloceclat.game.Play.move;
import static com.bloceclat.game.Play.playOne;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The replica's cache of rebuilt games (GameCache) against the database: a change it did not make is seen, and a
 * move whose transaction rolled back leaves nothing of itself in the cache.
 */
@QuarkusTest
class GameCacheIntegrationTest {

    @Inject
    MeterRegistry registry;

    private double stale() {
        return registry.get("bloc.game.cache.lookups").tag("result", "stale").counter().count();
    }

    private double eventsRead() {
        return registry.get("bloc.game.events.read").summary().totalAmount();
    }

    /** Writes the next placement of {@code g} as another replica would: event and count, under the row lock. */
    private static void placeElsewhere(Started g, int moveNumber, boolean bumpCount) {
        int[] m = firstLegal(g.shadow());
        Game.Move placed = g.shadow().place(m[0], m[1], m[2]);
        writeElsewhere(g, GameEvent.Type.PLACE, placed.round(), moveNumber, e -> {
            e.slot = m[0];
            e.row = m[1];
            e.col = m[2];
        }, bumpCount);
    }

    /**
     * Appends an event to {@code g} as another replica would, under the row lock; with {@code bumpCount} the row's
     * event count and summary follow the shadow game, as that replica's commit would leave them.
     */
    private static void writeElsewhere(Started g, GameEvent.Type type, int round, int moveNumber,
            Consumer<GameEvent> fields, boolean bumpCount) {
        QuarkusTransaction.requiringNew().run(() -> {
            GameEntity row = GameEntity.findById(UUID.fromString(g.id()), LockModeType.PESSIMISTIC_WRITE);
            GameEvent e = new GameEvent();
            e.gameId = row.id;
            e.seq = row.eventCount;
            e.type = type;
            e.round = round;
            e.moveNumber = moveNumber;
            fields.accept(e);
            e.createdAt = OffsetDateTime.now(ZoneOffset.UTC);
            e.persist();
            if (bumpCount) {
                row.eventCount++;
                row.score = g.shadow().score();
                row.assisted = g.shadow().assisted();
            }
        });
    }

    @Test
    void aMoveWrittenByAnotherReplicaIsSeenByTheNextMoveHere() {
        Started g = create(As.guest(null), "MEDIUM", 4242);
        playOne(g, 1); // this replica now caches the game after one event
        placeElsewhere(g, 2, true);

        // move 3 is the next move only if move 2 is known: the cached state (after move 1) is caught up with it
        int[] m = firstLegal(g.shadow());
        g.shadow().place(m[0], m[1], m[2]);
        double stale = stale();
        double read = eventsRead();
        move(g, 3, m[0], m[1], m[2]).statusCode(200)
                .body("repeated", equalTo(false))
                .body("game.board", equalTo(List.of(Board.rows(g.shadow().board()))))
                .body("game.score", equalTo(g.shadow().score()))
                .body("game.nextMoveNumber", equalTo(4))
                .body("game.version", equalTo(3));
        assertEquals(1, stale() - stale, "the cached state after move 1 was behind the row");
        assertEquals(1, eventsRead() - read, "move 2 is the one event read");
        g.as().spec().when().get("/api/games/" + g.id()).then().statusCode(200)
                .body("board", equalTo(List.of(Board.rows(g.shadow().board()))))
                .body("nextMoveNumber", equalTo(4));
        playOne(g, 4);
    }

    /**
     * A state read from the events is kept even when the request that read it is refused: a refusal rolls its
     * transaction back, and the state used to be kept only on a commit, so every refused move of a game this replica
     * did not hold read its events again under the game's lock (up to 100,000, one pool connection each).
     */
    @Test
    void aMoveRefusedAfterReadingTheEventsItLackedLeavesThemReadForTheNext() {
        Started g = create(As.guest(null), "MEDIUM", 4545);
        playOne(g, 1);
        placeElsewhere(g, 2, true); // this replica's state is now one event behind the row
        double read = eventsRead();
        move(g, 9, 0, 0, 0).statusCode(409); // out of order: refused once the state is read
        assertEquals(1, eventsRead() - read, "move 2, the event this replica lacked");
        move(g, 9, 0, 0, 0).statusCode(409);
        move(g, 7, 0, 0, 0).statusCode(409);
        assertEquals(1, eventsRead() - read, "refused again from the state the first refusal read");
        playOne(g, 3);
        assertEquals(1, eventsRead() - read);
    }

    @Test
    void anUndoWrittenByAnotherReplicaIsSeenThoughTheNextMoveNumberIsTheSame() {
        Started g = create(As.guest(null), "EASY", 4343);
        playOne(g, 1); // cached after one event, next move number 2
        // another replica takes move 1 back: the next move number is still 2, only the event count tells
        g.shadow().undo();
        writeElsewhere(g, GameEvent.Type.UNDO, g.shadow().round(), 1, e -> { }, true);
        int[] m = firstLegal(g.shadow());
        g.shadow().place(m[0], m[1], m[2]);
        move(g, 2, m[0], m[1], m[2]).statusCode(200)
                .body("game.board", equalTo(List.of(Board.rows(g.shadow().board()))))
                .body("game.score", equalTo(g.shadow().score()))
                .body("game.assisted", equalTo(true))
                .body("game.version", equalTo(3));
    }

    @Test
    void aMoveWhoseTransactionRolledBackLeavesTheCacheWhereTheDatabaseIs() {
        Started g = create(As.guest(null), "EASY", 777);
        playOne(g, 1); // cached after one event
        long boardAfterOne = g.shadow().board();

        // a row at the next seq that the count does not know of: move 2 is played on the cached state, then its
        // insert fails and the transaction rolls back
        Game probe = g.shadow().copy();
        placeElsewhere(new Started(g.id(), g.as(), probe), 99, false);
        int[] m = firstLegal(g.shadow());
        int status = move(g, 2, m[0], m[1], m[2]).extract().statusCode();
        assertNotEquals(200, status);
        QuarkusTransaction.requiringNew().run(() -> GameEvent.delete("gameId = ?1 and seq = 1",
                UUID.fromString(g.id())));

        // the same move again: accepted on the state after move 1 only (a cache ahead would refuse the slot)
        g.as().spec().when().get("/api/games/" + g.id()).then().statusCode(200)
                .body("board", equalTo(List.of(Board.rows(boardAfterOne))))
                .body("nextMoveNumber", equalTo(2));
        g.shadow().place(m[0], m[1], m[2]);
        move(g, 2, m[0], m[1], m[2]).statusCode(200)
                .body("repeated", equalTo(false))
                .body("game.board", equalTo(List.of(Board.rows(g.shadow().board()))))
                .body("game.version", equalTo(2));
        playOne(g, 3);
    }
}
