package com.bloceclat.solver.service;

/** Who asks for a search, which decides the time cap and whether the rate limit applies. */
public enum CallerKind {
    /** A Bloc Éclat service with the service role: larger time cap, no rate limit. */
    SERVICE("service"),
    /** Anyone else, anonymous or a player's token: smaller time cap, rate-limited per client. */
    PUBLIC("public");

    private final String tag;

    CallerKind(String tag) {
        this.tag = tag;
    }

    /** The metrics tag. */
    public String tag() {
        return tag;
    }
}
