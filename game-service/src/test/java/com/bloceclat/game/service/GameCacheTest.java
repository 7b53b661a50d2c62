package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;

/** The cache's rules, without a transaction: valid only at its event count, never handing out what it holds. */
class GameCacheTest {

    /** Time as the cache sees it: moved by the test, never slept. */
    private final AtomicLong nanos = new AtomicLong();

    private GameCache cache(int maxSize, long maxEvents) {
        return new GameCache(maxSize, maxEvents, Duration.ofMinutes(10), nanos::get, true);
    }

    private GameCache cache(int maxSize) {
        return cache(maxSize, maxSize * 10L);
    }

    private static int[] firstLegal(Game g) {
        Piece[] remaining = g.remaining();
        for (int s = 0; s < remaining.length; s++) {
            for (int r = 0; remaining[s] != null && r < 9; r++) {
                for (int col = 0; col < 9; col++) {
                    if (Rules.illegalReason(g.board(), remaining[s], r, col) == null) {
                        return new int[] {s, r, col};
                    }
                }
            }
        }
        return null;
    }

    private static Rebuilt played(long seed, int moves) {
        Rebuilt r = new Rebuilt(new Game(seed, Level.MEDIUM));
        for (int n = 1; n <= moves; n++) {
            int[] m = firstLegal(r.game);
            r.placed(r.game.place(m[0], m[1], m[2]), n);
        }
        return r;
    }

    private static final UUID NONE = new UUID(0, 0);

    /** What a committed transaction hands the cache: a copy (GameLog hands a copy). */
    private static GameCache.Committed entry(int eventCount, Rebuilt r) {
        Rebuilt c = r.copy();
        c.eventCount = eventCount; // a state said to be after that many events (the tests' games need not have them)
        return new GameCache.Committed(NONE, c);
    }

    private static void store(GameCache cache, UUID id, GameCache.Committed c) {
        cache.store(new GameCache.Committed(id, c.state()));
    }

    @Test
    void anEntryIsUsedOnlyAtItsEventCount() {
        GameCache cache = cache(100);
        UUID id = UUID.randomUUID();
        store(cache, id, entry(2, played(7, 2)));
        assertNotNull(cache.get(id, 2));
        // the row says another replica (or this one before a restart) wrote more: not used
        assertNull(cache.get(id, 3));
        assertNull(cache.get(id, 1));
        assertNull(cache.get(UUID.randomUUID(), 2));
    }

    @Test
    void whatGetAnswersIsACopyThatMayBePlayedOnWithoutChangingTheCache() {
        GameCache cache = cache(100);
        UUID id = UUID.randomUUID();
        Rebuilt original = played(11, 1);
        long board = original.game.board();
        store(cache, id, entry(1, original));

        Rebuilt taken = cache.get(id, 1);
        assertNotSame(original.game, taken.game);
        int[] m = firstLegal(taken.game);
        taken.placed(taken.game.place(m[0], m[1], m[2]), 2);
        // as if that move's transaction rolled back: the cache still has the state after one event
        Rebuilt again = cache.get(id, 1);
        assertEquals(board, again.game.board());
        assertEquals(1, again.lastMoveNumber());
        assertEquals(1, again.game.placements());
        assertEquals(original.standingThisRound.stream().toList(), again.standingThisRound.stream().toList());
    }

    @Test
    void aLaterStateIsNeverReplacedByAnEarlierOne() {
        GameCache cache = cache(100);
        UUID id = UUID.randomUUID();
        store(cache, id, entry(3, played(5, 3)));
        store(cache, id, entry(2, played(5, 2)));
        assertNotNull(cache.get(id, 3));
        assertNull(cache.get(id, 2));
        store(cache, id, entry(4, played(5, 4)));
        assertNotNull(cache.get(id, 4));
    }

    @Test
    void theCacheIsBoundedAndDropsTheLeastRecentlyUsed() {
        GameCache cache = cache(10);
        UUID kept = UUID.randomUUID();
        store(cache, kept, entry(0, played(1, 0)));
        for (int i = 0; i < 50; i++) {
            cache.get(kept, 0);
            store(cache, UUID.randomUUID(), entry(0, played(i, 0)));
        }
        assertTrue(cache.size() <= 10, "size " + cache.size());
        assertNotNull(cache.get(kept, 0));
    }

    @Test
    void longGamesWeighMoreAndTheEventsHeldInAllAreBounded() {
        GameCache cache = cache(1000, 100);
        UUID id = UUID.randomUUID();
        store(cache, id, entry(10, played(3, 0)));
        store(cache, id, entry(12, played(3, 0)));
        assertEquals(13, cache.weight());
        for (int i = 0; i < 20; i++) {
            store(cache, UUID.randomUUID(), entry(29, played(i, 0)));
        }
        assertTrue(cache.weight() <= 100, "weight " + cache.weight());
        assertTrue(cache.size() <= 3, "size " + cache.size());
        cache.clear();
        assertEquals(0, cache.weight());
    }

    @Test
    void idleEntriesAreDropped() {
        GameCache cache = cache(100);
        UUID old = UUID.randomUUID();
        store(cache, old, entry(0, played(1, 0)));
        nanos.addAndGet(Duration.ofMinutes(10).plusSeconds(1).toNanos());
        store(cache, UUID.randomUUID(), entry(0, played(2, 0)));
        assertNull(cache.get(old, 0));
        assertEquals(1, cache.size());
    }
}
