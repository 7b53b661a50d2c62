package com.bloceclat.game.service;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.bloceclat.engine.Game;
import com.bloceclat.game.AfterCommit;

/**
 * This replica's games as last rebuilt, so that a move does not load and replay all of its game's events: an entry
 * is the engine state after exactly {@code eventCount} events, and is used only when that equals the
 * {@code event_count} of the game's row as the caller read it (under the row lock for a change). Events are
 * append-only and numbered, so the state after the first {@code n} committed events of a game never changes: a
 * change made by another replica, or before a restart, raises the row's count and the entry is simply not used
 * (the caller rebuilds from the events).
 *
 * <p>Nothing the cache holds is ever handed out: {@link #get} answers a copy, and {@link #putAfterCommit} takes a
 * copy at once but stores it only once the caller's transaction has committed, so a rolled-back change never
 * leaves the cache ahead of the database. Bounded by {@code bloc.game-cache.max-size} entries and
 * {@code bloc.game-cache.max-events} events in all (the least recently used go first), and
 * {@code bloc.game-cache.idle} (entries not used for that long are dropped).
 */
@ApplicationScoped
public class GameCache {

    /** The engine state after exactly {@code eventCount} events; never mutated once stored. */
    record Entry(int eventCount, GameService.Rebuilt rebuilt, AtomicLong usedAt) {
    }

    @Inject
    AfterCommit afterCommit;

    @ConfigProperty(name = "bloc.game-cache.max-size", defaultValue = "2000")
    int maxSize;

    @ConfigProperty(name = "bloc.game-cache.idle", defaultValue = "15m")
    Duration idle;

    /**
     * The most events all entries may hold together (an entry weighs its event count, plus one): a long game (the
     * AI's on an easy level may play thousands of rounds) weighs more than a short one, and memory stays bounded.
     */
    @ConfigProperty(name = "bloc.game-cache.max-events", defaultValue = "200000")
    long maxEvents;

    private final Map<UUID, Entry> entries = new ConcurrentHashMap<>();
    /** The sum of the weights of the entries. */
    private final AtomicLong weight = new AtomicLong();
    private final ReentrantLock trimming = new ReentrantLock();
    private volatile long lastSweep = System.nanoTime();

    /** A copy of the game rebuilt after exactly {@code eventCount} events, or null when this replica has none. */
    GameService.Rebuilt get(UUID id, int eventCount) {
        Entry e = entries.get(id);
        if (e == null || e.eventCount != eventCount) {
            return null;
        }
        e.usedAt.set(System.nanoTime());
        return copy(e.rebuilt);
    }

    /**
     * Remembers {@code rebuilt} as the state of game {@code id} after {@code eventCount} events once the current
     * transaction commits (nothing when it rolls back, or when there is no transaction). The state is copied now: the
     * caller may go on using {@code rebuilt}.
     */
    void putAfterCommit(UUID id, int eventCount, GameService.Rebuilt rebuilt) {
        if (!afterCommit.inTransaction()) {
            return;
        }
        Entry entry = new Entry(eventCount, copy(rebuilt), new AtomicLong(System.nanoTime()));
        afterCommit.run(() -> store(id, entry));
    }

    /** Forgets everything (tests). */
    void clear() {
        entries.forEach(this::remove);
    }

    int size() {
        return entries.size();
    }

    /** Stores a committed state; a state of more events (a later commit already stored) is kept. */
    void store(UUID id, Entry entry) {
        entries.compute(id, (key, old) -> {
            if (old != null && old.eventCount > entry.eventCount) {
                return old;
            }
            weight.addAndGet(weight(entry) - (old == null ? 0 : weight(old)));
            return entry;
        });
        long now = System.nanoTime();
        if (entries.size() > maxSize || weight.get() > maxEvents || now - lastSweep > idle.toNanos() / 4) {
            trim(now);
        }
    }

    long weight() {
        return weight.get();
    }

    private static long weight(Entry e) {
        return e.eventCount + 1L;
    }

    private void remove(UUID id, Entry e) {
        if (entries.remove(id, e)) {
            weight.addAndGet(-weight(e));
        }
    }

    /** Drops idle entries, then the least recently used ones down to 90 % of the bound. One thread at a time. */
    private void trim(long now) {
        if (!trimming.tryLock()) {
            return;
        }
        try {
            lastSweep = now;
            long idleNanos = idle.toNanos();
            entries.forEach((id, e) -> {
                if (now - e.usedAt.get() > idleNanos) {
                    remove(id, e);
                }
            });
            if (entries.size() > maxSize || weight.get() > maxEvents) {
                record Used(UUID id, Entry entry, long at) {
                }
                List<Used> all = new ArrayList<>(entries.size());
                entries.forEach((id, e) -> all.add(new Used(id, e, e.usedAt.get())));
                all.sort(Comparator.comparingLong(Used::at));
                for (int i = 0; i < all.size()
                        && (entries.size() > maxSize * 9 / 10 || weight.get() > maxEvents * 9 / 10); i++) {
                    remove(all.get(i).id(), all.get(i).entry());
                }
            }
        } finally {
            trimming.unlock();
        }
    }

    static GameService.Rebuilt copy(GameService.Rebuilt r) {
        GameService.Rebuilt c = new GameService.Rebuilt(r.game.copy());
        c.standingThisRound.addAll(r.standingThisRound);
        c.lastMove = r.lastMove;
        c.lastMoveNumber = r.lastMoveNumber;
        return c;
    }
}
