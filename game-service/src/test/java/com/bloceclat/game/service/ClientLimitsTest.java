package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import com.bloceclat.game.service.ClientLimits.Start;

class ClientLimitsTest {

    static final OffsetDateTime NOW = OffsetDateTime.of(2026, 12, 1, 9, 0, 0, 0, ZoneOffset.UTC);
    static final Duration OPEN_FOR = Duration.ofMinutes(30);

    static final ClientLimits.Bounds BOUNDS = new ClientLimits.Bounds(10, 3, OPEN_FOR, 60, Duration.ofMinutes(1));

    private static ClientLimits.Refusal decide(Start start, int games, int aiMatches, OffsetDateTime oldest) {
        return ClientLimits.decide(start, new ClientLimits.Held(games, oldest, aiMatches, oldest, 0, null), NOW,
                BOUNDS);
    }

    private static ClientLimits.Refusal decideStarts(Start start, int started, OffsetDateTime oldestStart) {
        return ClientLimits.decide(start, new ClientLimits.Held(0, null, 0, null, started, oldestStart), NOW, BOUNDS);
    }

    @Test
    void underTheLimitsEveryStartGoesAhead() {
        assertNull(decide(Start.GAME, 9, 0, null));
        assertNull(decide(Start.TWO_PLAYER_MATCH, 8, 0, null));
        assertNull(decide(Start.AI_MATCH, 9, 2, null));
    }

    @Test
    void aStartPastALimitIsRefusedUntilTheLeastRecentlyPlayedStopsCounting() {
        OffsetDateTime oldest = NOW.minusMinutes(20); // counts for 10 more minutes if nothing is played
        ClientLimits.Refusal games = decide(Start.GAME, 10, 0, oldest);
        assertTrue(games.detail().startsWith("Too many games open: at most 10 at once per client."), games.detail());
        assertEquals(601, games.retryAfterSeconds());
        // a two-player match is two games
        assertTrue(decide(Start.TWO_PLAYER_MATCH, 9, 0, oldest).detail().startsWith("Too many games"));
        ClientLimits.Refusal ai = decide(Start.AI_MATCH, 5, 3, oldest);
        assertTrue(ai.detail().startsWith("Too many versus-AI matches open: at most 3"), ai.detail());
        // a versus-AI match is also a game
        assertTrue(decide(Start.AI_MATCH, 10, 0, oldest).detail().startsWith("Too many games"));
    }

    @Test
    void retryAfterIsAtLeastOneSecond() {
        assertEquals(1, decide(Start.GAME, 10, 0, NOW.minus(OPEN_FOR).minusSeconds(5)).retryAfterSeconds());
        assertEquals(OPEN_FOR.toSeconds(), decide(Start.GAME, 10, 0, null).retryAfterSeconds());
    }

    @Test
    void startsPastTheWindowsBoundAreRefusedUntilTheFirstOfThemLeavesTheWindow() {
        // a start-and-resign loop holds nothing open: only the count of starts stops it
        assertNull(decideStarts(Start.GAME, 59, NOW.minusSeconds(50)));
        ClientLimits.Refusal refused = decideStarts(Start.GAME, 60, NOW.minusSeconds(50));
        assertEquals("Too many games started: at most 60 in 1 min per client, finished or not.", refused.detail());
        assertEquals(11, refused.retryAfterSeconds()); // the first start leaves the window in 10 s
        // a two-players match starts two games
        assertNull(decideStarts(Start.TWO_PLAYER_MATCH, 58, NOW.minusSeconds(50)));
        assertTrue(decideStarts(Start.TWO_PLAYER_MATCH, 59, NOW.minusSeconds(50)).detail()
                .startsWith("Too many games started"));
        // what is open is said first: closing a game frees a place at once, waiting for the window does not
        ClientLimits.Refusal open = ClientLimits.decide(Start.GAME,
                new ClientLimits.Held(10, NOW.minusMinutes(20), 0, null, 60, NOW.minusSeconds(50)), NOW, BOUNDS);
        assertTrue(open.detail().startsWith("Too many games open"), open.detail());
    }
}
