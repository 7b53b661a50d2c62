package com.bloceclat.game.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;

import org.junit.jupiter.api.Test;

class LiveEventTest {

    private static String reason(String payload) {
        return assertThrows(LiveEvent.Unreadable.class, () -> LiveEvent.readEvent(payload)).reason();
    }

    @Test
    void aMatchChangeIsReadWithItsMatchAndWhetherTheGameEnded() throws Exception {
        UUID match = UUID.randomUUID();
        LiveEvent playing = LiveEvent.readEvent("{\"gameId\":\"g\",\"matchId\":\"" + match
                + "\",\"seat\":1,\"status\":\"PLAYING\"}").orElseThrow();
        assertEquals(match, playing.matchId());
        assertFalse(playing.ended());
        assertTrue(LiveEvent.readEvent("{\"matchId\":\"" + match + "\",\"status\":\"OVER\"}").orElseThrow().ended());
    }

    @Test
    void aSoloGamesChangeIsLeftUnread() throws Exception {
        assertTrue(LiveEvent.readEvent("{\"gameId\":\"g\",\"status\":\"PLAYING\"}").isEmpty());
        assertTrue(LiveEvent.readEvent("{\"matchId\":null,\"status\":\"PLAYING\"}").isEmpty());
        assertTrue(LiveEvent.readEvent("not even JSON").isEmpty()); // no matchId: never parsed
    }

    @Test
    void everyRecordNoGameServiceWroteIsUnreadableWithItsReason() {
        assertEquals("bad-match-id", reason("{\"matchId\":\"x\"}"));
        assertEquals("bad-match-id", reason("{\"matchId\":12,\"status\":\"PLAYING\"}"));
        assertEquals("bad-match-id", reason("{\"matchId\":{\"a\":1},\"status\":\"PLAYING\"}"));
        assertEquals("bad-status", reason("{\"matchId\":\"" + UUID.randomUUID() + "\"}"));
        assertEquals("bad-status", reason("{\"matchId\":\"" + UUID.randomUUID() + "\",\"status\":3}"));
        assertEquals("not-an-object", reason("[\"matchId\"]"));
        assertEquals("not-json", reason("{\"matchId\": nope"));
        assertEquals("null", reason(null));
        assertEquals("too-long", reason("{\"matchId\":\"" + "9".repeat(LiveEvent.MAX_LENGTH) + "\"}"));
    }
}
