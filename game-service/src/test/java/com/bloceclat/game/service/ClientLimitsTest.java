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

    private static ClientLimits.Refusal decide(Start start, int games, int aiMatches, OffsetDateTime oldest) {
        return ClientLimits.decide(start, games, oldest, aiMatches, oldest, NOW, 10, 3, OPEN_FOR);
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
}
