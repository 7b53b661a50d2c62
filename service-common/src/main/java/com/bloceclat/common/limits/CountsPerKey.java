package com.bloceclat.common.limits;

import java.util.concurrent.ConcurrentHashMap;

/**
 * How many of something each key holds at once (a client's sockets, its hints or solver requests in flight), each
 * count bounded when it is taken. A key is kept only while its count is above zero, so the map holds the keys in use,
 * not every key ever seen. Thread-safe: a count is changed atomically with its check.
 */
public final class CountsPerKey<K> {

    private final ConcurrentHashMap<K, Integer> counts = new ConcurrentHashMap<>();

    /** Counts one more for {@code key}, unless it holds {@code max} already; whether it was counted. */
    public boolean tryAdd(K key, int max) {
        return tryAdd(key, 1, max);
    }

    /**
     * Counts {@code amount} more for {@code key} (bytes of bodies, say), unless that would make it hold more than
     * {@code max}; whether it was counted.
     */
    public boolean tryAdd(K key, int amount, int max) {
        boolean[] room = {false};
        counts.compute(key, (k, n) -> {
            int now = n == null ? 0 : n;
            room[0] = now <= max - amount;
            return room[0] ? Integer.valueOf(now + amount) : n; // boxed: n is null for a key not held
        });
        return room[0];
    }

    /** Counts one more for {@code key}, without a bound. */
    public void add(K key) {
        counts.merge(key, 1, Integer::sum);
    }

    /** Counts one of {@code key} off; whether it held one. */
    public boolean remove(K key) {
        return remove(key, 1);
    }

    /** Counts {@code amount} of {@code key} off (what a {@link #tryAdd(Object, int, int)} counted); whether it held any. */
    public boolean remove(K key, int amount) {
        boolean[] held = {false};
        counts.computeIfPresent(key, (k, n) -> {
            held[0] = true;
            return n > amount ? n - amount : null;
        });
        return held[0];
    }

    /** What {@code key} holds now. */
    public int count(K key) {
        return counts.getOrDefault(key, 0);
    }

    /** Keys that hold something now. */
    public int keys() {
        return counts.size();
    }
}
