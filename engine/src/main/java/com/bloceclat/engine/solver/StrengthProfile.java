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
 */
record StrengthProfile(boolean fixedOrder, int beam, double boardWeight, double noise, boolean lookahead) {
    private static final StrengthProfile[] BY_STRENGTH = {
        new StrengthProfile(true, 3, 0.3, 12.0, false),
        new StrengthProfile(true, 6, 0.7, 6.0, false),
        new StrengthProfile(false, 6, 0.7, 4.0, false),
        new StrengthProfile(false, 0, 1.0, 1.0, false),
        new StrengthProfile(false, 0, 1.0, 0.0, true),
    };

    static StrengthProfile of(int strength) {
        return BY_STRENGTH[strength - 1];
    }
}
