package com.bloceclat.engine;

/**
 * SplitMix64 (Steele, Lea, Flood 2014): tiny, fast and identical on every JVM, which is what a
 * seeded piece stream needs. Not for anything secret.
 */
public final class SplitMix64 {
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    /** The SplitMix64 output function: a bijective 64-bit mix. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public long nextLong() {
        state += GOLDEN_GAMMA;
        return mix64(state);
    }

    /** Uniform in [0, bound) by multiply-high of the top 32 bits (bound ≤ 2^31). */
    public int nextInt(int bound) {
        return (int) (((nextLong() >>> 32) * bound) >>> 32);
    }

    /** Uniform in [0, 1). */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** An index drawn with probability proportional to {@code weights[i]}. */
    public int pick(int[] weights) {
        int total = 0;
        for (int w : weights) {
            total += w;
        }
        int r = nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            r -= weights[i];
            if (r < 0) {
                return i;
            }
        }
        throw new IllegalStateException("weights sum to zero");
    }
}
