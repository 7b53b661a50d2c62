package com.bloceclat.engine.solver;

/**
 * Open-addressing set of longs, keys only (8 bytes a slot keeps large sets in cache). Zero marks
 * a free slot, so the key 0 is tracked apart; clearing zeroes only the slots that were used, and
 * gives back a table grown past {@link #SHRINK_PAST} times its first capacity: one search of a
 * thread that meets a huge set (a request of 150 bytes, an empty board and three small pieces,
 * has 171,216 final boards: 5 MB of table) leaves that thread no more than a usual search does.
 */
final class LongSet {
    /** A table this many times its first capacity is given back when cleared; a usual search stays under. */
    static final int SHRINK_PAST = 4;

    private final int initial;
    private long[] keys;
    private int[] used;
    private int mask;
    private int size;
    private boolean hasZero;

    LongSet(int capacityPow2) {
        initial = capacityPow2;
        keys = new long[capacityPow2];
        used = new int[capacityPow2 / 2 + 1];
        mask = capacityPow2 - 1;
    }

    int size() {
        return size + (hasZero ? 1 : 0);
    }

    void clear() {
        if (keys.length > SHRINK_PAST * initial) {
            keys = new long[initial];
            used = new int[initial / 2 + 1];
            mask = initial - 1;
        } else {
            for (int k = 0; k < size; k++) {
                keys[used[k]] = 0;
            }
        }
        size = 0;
        hasZero = false;
    }

    /** Slots in the table. */
    int capacity() {
        return keys.length;
    }

    /** Adds the key; returns true when it was absent. */
    boolean add(long key) {
        if (key == 0) {
            boolean added = !hasZero;
            hasZero = true;
            return added;
        }
        if (size * 2 >= mask) {
            grow();
        }
        long h = key * 0x9E3779B97F4A7C15L;
        int i = (int) (h ^ (h >>> 32)) & mask;
        while (keys[i] != 0) {
            if (keys[i] == key) {
                return false;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        used[size++] = i;
        return true;
    }

    private void grow() {
        long[] old = keys;
        int[] oldUsed = used;
        int oldSize = size;
        keys = new long[old.length * 2];
        used = new int[keys.length / 2 + 1];
        mask = keys.length - 1;
        size = 0;
        for (int k = 0; k < oldSize; k++) {
            add(old[oldUsed[k]]);
        }
    }
}
