package com.bloceclat.game.service;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import com.bloceclat.engine.Game;
import com.bloceclat.game.GameEntity;
import com.bloceclat.game.GameEvent;
import com.bloceclat.game.OutboxMessage;
import com.bloceclat.game.messaging.GameMessages;

/**
 * The core of game-service: it owns one game's log. Every change of a game goes through here, in the caller's
 * transaction, in this order:
 * <ol>
 * <li>{@link #locked}: the game's row, locked, so changes of one game are made one at a time (and checked owned);</li>
 * <li>{@link #current}: its state after the row's event count, from this replica's {@link GameCache} (caught up
 * with the events it lacks when another replica changed the game since) or replayed from its events
 * ({@link Rebuilt#of});</li>
 * <li>the command handler applies the command on the engine ({@code Game}) and refuses what the rules refuse;</li>
 * <li>{@link #append}: {@link GameChanged} fired (matches observe it, {@link MatchJudge}, which may end the game as
 * {@code WON}), the game ended if the event ended it and the judge did not ({@link #finish}), then the event, its {@code game-events} message (and {@code game-finished}, if it
 * ended the game) and the row's summary written in one statement ({@link GameStore#write}); the new state is handed to
 * the cache, which keeps it only once the transaction has committed.</li>
 * </ol>
 * Guarantees: a game's event {@code n} is written only by the transaction holding its row lock with
 * {@code event_count = n}, so events are numbered without gap or double; a game ends in one place ({@link #finish}),
 * so its {@code game-finished} message is written once, whoever ended it; nothing is sent to Kafka here (the outbox
 * relay sends after commit) and nothing of a rolled-back change stays in the cache.
 */
@ApplicationScoped
class GameLog {

    @Inject
    GameStore store;

    @Inject
    GameCache cache;

    @Inject
    GameMessages messages;

    @Inject
    Event<GameChanged> changes;

    @Inject
    Event<GameCache.Committed> committed;

    @Inject
    Appends appends;

    /** Games of at least this many events are read in full by one request at a time on this replica. */
    int readAloneFrom = 1000;

    /** The games being read in full here, each with the monitor a second read of it waits on. */
    private final ConcurrentHashMap<UUID, Object> fullReads = new ConcurrentHashMap<>();

    /**
     * The game's row, locked for this transaction, if {@code requester} may play it. Someone else's request never
     * waits for the lock, nor takes it: the owner is part of the locking statement, and a refusal is decided from the
     * row read unlocked. Locked first and checked after, an opponent who knew the game's id (a race shows it) held up
     * each of its owner's moves with requests of their own.
     */
    GameEntity locked(UUID id, Requester requester) {
        String tokenHash = requester.gameToken() == null ? null : Refusals.sha256(requester.gameToken());
        GameEntity g = store.lockedIfOwned(id, requester.subject(), tokenHash);
        if (g != null) {
            return g;
        }
        Refusals.owned(store.read(id), id, requester); // 404 or 403
        // owned after all (an owner never changes, so a row inserted meanwhile): locked as any owner's
        return Refusals.owned(store.locked(id), id, requester);
    }

    /** The game's row, not locked, if {@code requester} may see it. */
    GameEntity read(UUID id, Requester requester) {
        return Refusals.owned(store.read(id), id, requester);
    }

    /**
     * The game's row, not locked, for its replay: anyone's who has the game's id once {@code shown} holds for it (the
     * shared link of a finished game; docs/security.md "Replays are public once shown"); before that its player's
     * alone, whom the caller then tells why it is not served yet, and everyone else's 403 as for the game itself.
     */
    GameEntity readReplay(UUID id, Requester requester, Predicate<GameEntity> shown) {
        GameEntity g = store.read(id);
        return g != null && shown.test(g) ? g : Refusals.owned(g, id, requester);
    }

    /**
     * The game's state after its row's {@code eventCount} events, and no more: this replica's cached copy; or an older
     * cached copy caught up with the events it lacks (the game was changed by another replica since); or replayed from
     * its events. Read without the row lock, the row may be older than the events read after it (a move committed in
     * between): those later events are left out, so that whoever read the row (a match's view deciding what to hold
     * back, then showing it) sees the one state it decided from. A state read from committed events is cached at
     * once, so that a request refused after it (rolled back) does not leave the next one to read them all again; one
     * that includes this transaction's own events, once it has committed.
     */
    Rebuilt current(GameEntity g) {
        Rebuilt r = cache.upTo(g.id, g.eventCount);
        if (r != null && r.eventCount == g.eventCount) {
            return r;
        }
        if (r == null && g.eventCount >= readAloneFrom) {
            // a long game read in full: requests for it at once wait for the first read, then find it cached (each
            // read every event before, so that a client sending a few reads of its long game at once after it left
            // the cache made the replica read it that many times over)
            Object gate = fullReads.computeIfAbsent(g.id, id -> new Object());
            synchronized (gate) {
                try {
                    Rebuilt cached = cache.upTo(g.id, g.eventCount);
                    return cached != null && cached.eventCount == g.eventCount ? cached : readOn(g, cached);
                } finally {
                    fullReads.remove(g.id, gate);
                }
            }
        }
        return readOn(g, r);
    }

    /** {@code r} (or a new game's state when null) caught up with the row's events it lacks, and cached. */
    private Rebuilt readOn(GameEntity g, Rebuilt r) {
        int from = r == null ? 0 : r.eventCount;
        List<GameEvent> events = store.events(g, from);
        if (events.size() > g.eventCount - from) {
            events = events.subList(0, g.eventCount - from);
        }
        r = r == null ? replayed(g, events) : r.then(events);
        if (r.eventCount == g.eventCount) { // fewer only if events went missing: answered, never cached
            if (appends.has(g.id)) {
                remember(g, r); // its events include this transaction's: kept only once it has committed
            } else {
                // every event read is committed, so the state after them is the game's for good, whatever this
                // transaction does next: kept now, or a refused request (a rollback) read them all again each time
                cache.store(new GameCache.Committed(g.id, r.copy()));
            }
        }
        return r;
    }

    /** The game's state after {@code events} (some of its events, in order). */
    static Rebuilt replayed(GameEntity g, List<GameEvent> events) {
        return Rebuilt.of(g.seed, g.level, events);
    }

    /** Stores a new game's row (its state is that of a new engine game) and writes its {@code CREATED} message. */
    Rebuilt create(GameEntity g) {
        g.status = GameEntity.Status.PLAYING;
        g.createdAt = now();
        g.updatedAt = g.createdAt;
        Rebuilt r = replayed(g, List.of());
        summarize(g, r.game);
        store.insert(g);
        messages.created(g, r.game);
        remember(g, r);
        return r;
    }

    /**
     * Appends {@code event} (its type, round and fields set by the caller) to the game whose row this transaction
     * has locked, {@code r} being the game's state once the event is applied; see the class comment for what follows.
     */
    GameEvent append(GameEntity g, Rebuilt r, GameEvent event) {
        appends.add(g.id);
        event.gameId = g.id;
        event.seq = g.eventCount;
        event.createdAt = now();
        if (g.mode == GameEntity.Mode.ONLINE_RACE && g.leftAt == null) {
            store.seen(g.id);
        }
        g.eventCount++;
        r.eventCount = g.eventCount;
        r.counted(event);
        g.updatedAt = event.createdAt;
        summarize(g, r.game);
        GameEntity.Status ending = event.type == GameEvent.Type.RESIGN ? GameEntity.Status.RESIGNED
                : r.game.gameOver() ? GameEntity.Status.OVER : null;
        // observers run before the event's row is written (with the game row, below): they must judge from the
        // change they are handed, never read this game's events or rebuild its state from the store; and before the
        // game ends here, so that a match's judge can end it as WON on the placement that was also its last
        changes.fire(new GameChanged(g, r.game, event, ending));
        List<OutboxMessage.Outgoing> out = new ArrayList<>(2);
        if (ending != null) {
            end(g, ending, r.game, event.createdAt, out); // nothing if the judge ended it as WON
        }
        messages.changed(g, r.game, event, out);
        // one statement, the row's summary in it last: what the event changed, after whatever the match's judge
        // changed in it (WON)
        store.write(event, g, out);
        remember(g, r);
        return event;
    }

    /**
     * Ends a game still playing with {@code status} (OVER, RESIGNED, or WON when it won its match), at {@code at}, and
     * writes its {@code game-finished} message: the one place a game ends. A game already ended is left as it is.
     * The caller holds the game's row lock. Answers whether it ended the game now.
     */
    boolean finish(GameEntity g, GameEntity.Status status, Game state, OffsetDateTime at) {
        List<OutboxMessage.Outgoing> out = new ArrayList<>(1);
        if (!end(g, status, state, at, out)) {
            return false;
        }
        store.write(null, g, out);
        return true;
    }

    /** {@link #finish} but for writing the row and the message, which the caller does ({@link #append}). */
    private boolean end(GameEntity g, GameEntity.Status status, Game state, OffsetDateTime at,
                        List<OutboxMessage.Outgoing> into) {
        if (g.finished()) {
            return false;
        }
        g.status = status;
        g.finishedAt = at;
        g.updatedAt = at;
        messages.finished(g, state, into);
        return true;
    }

    /** Hands the state after the row's count to the cache, which keeps a copy once this transaction commits. */
    private void remember(GameEntity g, Rebuilt r) {
        if (r.eventCount != g.eventCount) {
            throw new IllegalStateException("game " + g.id + ": a state after " + r.eventCount + " events for a row of "
                    + g.eventCount);
        }
        committed.fire(new GameCache.Committed(g.id, r.copy()));
    }

    private static void summarize(GameEntity g, Game game) {
        g.score = game.score();
        g.assisted = game.assisted();
    }

    /** Now, to the microsecond PostgreSQL stores: a time published (game-finished) is the one stored. */
    static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }
}
