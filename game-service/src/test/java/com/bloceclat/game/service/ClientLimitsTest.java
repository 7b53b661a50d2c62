package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import com.bloceclat.game.service.ClientLimits.Start;

class ClientLimitsTest {

    static final OffsetDateTime NOW = OffsetDateTime.of(2026, 12, 1, 9, 0, 0, 0, ZoneOffset.UTC);
    static final Duration OPEN_FOR = Duration.ofMinutes(30);

    static final ClientLimits.Bounds BOUNDS = new ClientLimits.Bounds(10, 3, OPEN_FOR, 60, Duration.ofMinutes(1));

    private static ClientLimits.Refusal decide(Start start, int games, int aiMatches, OffsetDateTime oldest) {
        return ClientLimits.decide(start, new ClientLimits.Held(games, oldest, aiMatches, oldest, List.of()), NOW,
                BOUNDS);
    }

    /** {@code started} starts in the window, the first {@code firstAgo} ago, then one a second. */
    private static ClientLimits.Refusal decideStarts(Start start, int started, Duration firstAgo) {
        return ClientLimits.decide(start, new ClientLimits.Held(0, null, 0, null, starts(started, firstAgo)), NOW,
                BOUNDS);
    }

    private static List<OffsetDateTime> starts(int n, Duration firstAgo) {
        return IntStream.range(0, n).mapToObj(i -> NOW.minus(firstAgo).plusSeconds(i)).toList();
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
    void startsPastTheWindowsBoundAreRefusedUntilEnoughOfThemLeaveTheWindow() {
        // a start-and-resign loop holds nothing open: only the count of starts stops it
        Duration fiftySecondsAgo = Duration.ofSeconds(50);
        assertNull(decideStarts(Start.GAME, 59, fiftySecondsAgo));
        ClientLimits.Refusal refused = decideStarts(Start.GAME, 60, fiftySecondsAgo);
        assertEquals("Too many games started: at most 60 in 1 min per client, finished or not.", refused.detail());
        assertEquals(11, refused.retryAfterSeconds()); // the first start leaves the window in 10 s
        // a two-players match starts two games, so it waits for two starts to leave (the second a second later)
        assertNull(decideStarts(Start.TWO_PLAYER_MATCH, 58, fiftySecondsAgo));
        ClientLimits.Refusal two = decideStarts(Start.TWO_PLAYER_MATCH, 60, fiftySecondsAgo);
        assertTrue(two.detail().startsWith("Too many games started"), two.detail());
        assertEquals(12, two.retryAfterSeconds());
        assertEquals(11, decideStarts(Start.TWO_PLAYER_MATCH, 59, fiftySecondsAgo).retryAfterSeconds());
        // a limit below what the start needs: refused, the whole window to wait (not a failure)
        ClientLimits.Refusal never = ClientLimits.decide(Start.TWO_PLAYER_MATCH,
                new ClientLimits.Held(0, null, 0, null, List.of()), NOW,
                new ClientLimits.Bounds(10, 3, OPEN_FOR, 1, Duration.ofMinutes(1)));
        assertEquals(60, never.retryAfterSeconds());
        // what is open is said first: closing a game frees a place at once, waiting for the window does not
        ClientLimits.Refusal open = ClientLimits.decide(Start.GAME, new ClientLimits.Held(10, NOW.minusMinutes(20), 0,
                null, starts(60, fiftySecondsAgo)), NOW, BOUNDS);
        assertTrue(open.detail().startsWith("Too many games open"), open.detail());
    }
}
