package com.bloceclat.solver;

import java.util.List;

import com.bloceclat.testsupport.Tokens;

/** Tokens shaped like the realm's: the bloc-services service account carries the player and service roles. */
final class Callers {

    private Callers() {
    }

    static String service() {
        return Tokens.service("sub-service-account", "service-account-bloc-services", List.of("player", "service"));
    }
}
