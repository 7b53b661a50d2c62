package com.bloceclat.engine.solver;

/**
 * What each AI strength looks at: weaker ones take the pieces in the dealt order, keep fewer
 * placements per piece, weigh the board less, add seeded noise and skip the look at what may come
 * next (docs/solver.md).
 *
 * @param fixedOrder  only the dealt order of the pieces
 * @param beam        placements kept per piece (0: all)
 * @param boardWeight weight of the static board evaluation against points
 * @param noise       amplitude of the seeded noise added to every leaf
 * @param lookahead   weigh the best candidates by the chance that a next round will not fit and by
 *                    one more piece drawn from the level's distribution
 * @param transition  weight of a filled/empty transition between neighbours in the board evaluation
 * @param learnedValue score boards by the level's learned value where the engine has one
 *                     ({@link LearnedValue}) instead of the hand-made evaluation
 */
record StrengthProfile(boolean fixedOrder, int beam, double boardWeight, double noise, boolean lookahead,
                       double transition, boolean learnedValue) {
    /** The transition weight strengths 1-4 were tuned with (docs/solver.md). */
    private static final double TRANSITION = -0.55;
    /**
     * Full strength's: a ragged board costs about 4.5 times as much, which made its sampled look-ahead
     * keep boards compact and survive longer (issue 16, docs/benchmarks.md); only strength 5 takes it,
     * so the weaker strengths play as before.
     */
    private static final double FULL_TRANSITION = -2.5;
    private static final StrengthProfile[] BY_STRENGTH = {
        new StrengthProfile(true, 3, 0.3, 12.0, false, TRANSITION, false),
        new StrengthProfile(true, 6, 0.7, 6.0, false, TRANSITION, false),
        new StrengthProfile(false, 6, 0.7, 4.0, false, TRANSITION, false),
        new StrengthProfile(false, 0, 1.0, 1.0, false, TRANSITION, false),
        new StrengthProfile(false, 0, 1.0, 0.0, true, FULL_TRANSITION, true),
    };

    /** Whether this strength leaves some orders or placements unsearched. */
    boolean prunes() {
        return fixedOrder || beam > 0;
    }

    /** The same player looking at every order and placement: what a weak strength falls back on. */
    StrengthProfile unpruned() {
        return new StrengthProfile(false, 0, boardWeight, noise, lookahead, transition, learnedValue);
    }

    static StrengthProfile of(int strength) {
        return BY_STRENGTH[strength - 1];
    }
}
