package com.bloceclat.game.service;

import java.time.Duration;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * This replica's games as last rebuilt, so that a move does not load and replay all of its game's events: an entry
 * is the engine state after exactly {@code eventCount} events, and is used only when that equals the
 * {@code event_count} of the game's row as the caller read it (under the row lock for a change). Events are
 * append-only and numbered, so the state after the first {@code n} committed events of a game never changes: a
 * change made by another replica, or before a restart, raises the row's count and the entry is simply not used
 * (the caller rebuilds from the events).
 *
 * <p>Nothing the cache holds is ever handed out: {@link #get} answers a copy, and what {@link GameLog} hands it
 * ({@link Committed}, a copy) is stored only once the transaction that fired it has committed (a CDI transaction
 * observer, {@code AFTER_SUCCESS}), so a rolled-back change never leaves the cache ahead of the database. A Caffeine
 * cache: bounded by {@code bloc.game-cache.max-events} events in all (an entry weighs its event count plus one, and
 * at least {@code max-events / max-size}, so there are never more than {@code bloc.game-cache.max-size} entries),
 * evicting by recency and frequency (W-TinyLFU), and entries not used for {@code bloc.game-cache.idle} expire. A unit
 * of weight holds about 50 bytes of heap ({@code GameCacheHeap}, docs/benchmarks.md), so the default bound is about
 * 25 MB.
 *
 * <p>Metric: {@code bloc_game_cache_lookups_total{result}}: {@code hit}; {@code stale}, an entry of fewer events than
 * the row (another replica changed the game since it was here): the caller reads and applies the missing events only;
 * {@code absent}, none (never held here, evicted or expired): the caller reads and replays all of them
 * ({@code bloc_game_events_read}, events per read).
 */
@ApplicationScoped
public class GameCache {

    /** The state of a game as a committed transaction left it, after {@link Rebuilt#eventCount} events. */
    record Committed(UUID id, Rebuilt state) {
        int eventCount() {
            return state.eventCount;
        }
    }

    /** The engine state after exactly {@code eventCount} events; never mutated once stored. */
    private record Entry(int eventCount, Rebuilt rebuilt) {
    }

    private Cache<UUID, Entry> entries;
    private final Counter hits;
    private final Counter stale;
    private final Counter absent;

    @Inject
    GameCache(@ConfigProperty(name = "bloc.game-cache.max-size", defaultValue = "2000") int maxSize,
            @ConfigProperty(name = "bloc.game-cache.max-events", defaultValue = "500000") long maxEvents,
            @ConfigProperty(name = "bloc.game-cache.idle", defaultValue = "15m") Duration idle,
            MeterRegistry registry) {
        this(maxSize, maxEvents, idle, Ticker.systemTicker(), false, registry);
    }

    /** A cache on {@code ticker}; {@code inline} does Caffeine's maintenance on the caller's thread (tests). */
    GameCache(int maxSize, long maxEvents, Duration idle, Ticker ticker, boolean inline) {
        this(maxSize, maxEvents, idle, ticker, inline, new SimpleMeterRegistry());
    }

    private GameCache(int maxSize, long maxEvents, Duration idle, Ticker ticker, boolean inline,
            MeterRegistry registry) {
        hits = lookups(registry, "hit");
        stale = lookups(registry, "stale");
        absent = lookups(registry, "absent");
        long least = Math.max(1, maxEvents / Math.max(1, maxSize));
        Caffeine<Object, Object> builder = Caffeine.newBuilder().ticker(ticker).expireAfterAccess(idle)
                .maximumWeight(maxEvents);
        if (inline) {
            builder.executor(Runnable::run);
        }
        entries = builder.<UUID, Entry>weigher((id, e) -> (int) Math.min(Integer.MAX_VALUE,
                Math.max(least, e.eventCount + 1L))).build();
    }

    private static Counter lookups(MeterRegistry registry, String result) {
        return Counter.builder("bloc.game.cache.lookups").tag("result", result)
                .description("Lookups of a game's state in this replica's cache, by what they found").register(registry);
    }

    /**
     * A copy of the game rebuilt after exactly {@code eventCount} events, or null when this replica has none: the
     * exact-count view of {@link #upTo}, for the tests of the cache's rules (the service calls {@code upTo}).
     */
    Rebuilt get(UUID id, int eventCount) {
        Rebuilt r = upTo(id, eventCount);
        return r != null && r.eventCount == eventCount ? r : null;
    }

    /**
     * A copy of this replica's latest state of the game if it is after {@code eventCount} events or fewer (the caller
     * then applies the events from {@link Rebuilt#eventCount} on), or null. A state of more events (a row read
     * without its lock, older than a commit this replica has seen) is not used.
     */
    Rebuilt upTo(UUID id, int eventCount) {
        Entry e = entries.getIfPresent(id);
        if (e == null || e.eventCount > eventCount) {
            absent.increment();
            return null;
        }
        (e.eventCount == eventCount ? hits : stale).increment();
        return e.rebuilt.copy();
    }

    /** Stores what a transaction handed over once it has committed (never when it rolled back). */
    void committed(@Observes(during = TransactionPhase.AFTER_SUCCESS) Committed c) {
        store(c);
    }

    /** Stores a committed state; a state of more events (a later commit already stored) is kept. */
    void store(Committed c) {
        Entry entry = new Entry(c.eventCount(), c.state());
        entries.asMap().merge(c.id(), entry, (old, now) -> old.eventCount > now.eventCount ? old : now);
    }

    /** Forgets everything (tests). */
    void clear() {
        entries.invalidateAll();
        entries.cleanUp();
    }

    long size() {
        entries.cleanUp();
        return entries.estimatedSize();
    }

    /** The weight of all entries (tests). */
    long weight() {
        entries.cleanUp();
        return entries.policy().eviction().orElseThrow().weightedSize().orElseThrow();
    }
}
