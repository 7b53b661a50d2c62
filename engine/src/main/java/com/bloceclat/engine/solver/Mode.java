package com.bloceclat.engine.solver;

import java.util.Arrays;

/** What the solver answers (SOLVER-PROTOCOL.md {@code mode}). */
public enum Mode {
    /** The sequence the AI would play at the requested strength. */
    AI("ai"),
    /** The AI's sequence at full strength. */
    HINT("hint"),
    /** Exhaustive: the sequences that clear the most lines this round, then score the most. */
    MAX_LINES("maxLines");

    private final String wire;

    Mode(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** @throws IllegalArgumentException naming the valid modes */
    public static Mode parse(String s) {
        for (Mode m : values()) {
            if (m.wire.equals(s)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mode \"" + s + "\"; expected one of "
                + Arrays.stream(values()).map(Mode::wire).toList());
    }
}
