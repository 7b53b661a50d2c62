package com.bloceclat.engine.solver;

/**
 * Open-addressing set of (long, long) keys, each slot's key pair and generation stamp side by side
 * in one array (one cache line per probe); cleared in O(1) by bumping the generation, so one
 * instance serves every search of a thread.
 */
final class LongPairSet {
    private static final int STRIDE = 3;
    private long[] slots;
    private int mask;
    private long stamp = 1;
    private int size;

    LongPairSet(int capacityPow2) {
        slots = new long[capacityPow2 * STRIDE];
        mask = capacityPow2 - 1;
    }

    void clear() {
        size = 0;
        stamp++;
    }

    int size() {
        return size;
    }

    /** Adds the key; returns true when it was absent. */
    boolean add(long a, long b) {
        if (size * 2 >= mask) {
            grow();
        }
        long h = a * 0x9E3779B97F4A7C15L + b * 0xC2B2AE3D27D4EB4FL;
        int i = (int) (h ^ (h >>> 29) ^ (h >>> 47)) & mask;
        while (true) {
            int s = i * STRIDE;
            if (slots[s + 2] != stamp) {
                slots[s] = a;
                slots[s + 1] = b;
                slots[s + 2] = stamp;
                size++;
                return true;
            }
            if (slots[s] == a && slots[s + 1] == b) {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    private void grow() {
        long[] old = slots;
        long oldStamp = stamp;
        slots = new long[old.length * 2];
        mask = slots.length / STRIDE - 1;
        stamp = 1;
        size = 0;
        for (int s = 0; s < old.length; s += STRIDE) {
            if (old[s + 2] == oldStamp) {
                add(old[s], old[s + 1]);
            }
        }
    }
}
