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
        boolean[] room = {false};
        counts.compute(key, (k, n) -> {
            int now = n == null ? 0 : n;
            room[0] = now < max;
            return room[0] ? now + 1 : n;
        });
        return room[0];
    }

    /** Counts one more for {@code key}, without a bound. */
    public void add(K key) {
        counts.merge(key, 1, Integer::sum);
    }

    /** Counts one of {@code key} off; whether it held one. */
    public boolean remove(K key) {
        boolean[] held = {false};
        counts.computeIfPresent(key, (k, n) -> {
            held[0] = true;
            return n > 1 ? n - 1 : null;
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
