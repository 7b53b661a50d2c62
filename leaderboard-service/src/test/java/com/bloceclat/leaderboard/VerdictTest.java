package com.bloceclat.leaderboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Level;
import com.bloceclat.leaderboard.service.Verdict;

/** The engine's verdict as leaderboard-service stores it (Verdict). */
class VerdictTest {

    /**
     * A zero byte in a replay's piece id (only a signer can send one: game-service never writes one) is quoted by
     * the reason and the trace, which PostgreSQL's text refuses: the game then failed to store, and went to the dead
     * letters after three attempts instead of being rejected with its reason.
     */
    @Test
    void aZeroByteTheReplayCarriesIsWrittenOutInTheReasonAndTheTrace() {
        String json = Games.quick(Games.freshSeed(), Level.HARD, 2).replay().toJson();
        String rounds = "\"rounds\":[[\"";
        int at = json.indexOf(rounds);
        assertTrue(at > 0, json);
        at += rounds.length();
        String zero = json.substring(0, at) + "O4\\u0000" + json.substring(json.indexOf('"', at));
        Verdict v = Verdict.of(zero);
        assertEquals(Outcome.REJECTED, v.outcome());
        assertTrue(v.reason().chars().noneMatch(c -> c < 0x20), v.reason());
        assertTrue(v.reason().contains("\\u0000"), "written out, not dropped: " + v.reason());
        assertTrue(v.traceText().chars().noneMatch(c -> c < 0x20 && c != '\n'), v.traceText());
    }
}
