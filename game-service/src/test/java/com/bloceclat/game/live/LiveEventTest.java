package com.bloceclat.game.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameChanged;
import com.bloceclat.common.events.GameFinished;

class LiveEventTest {

    private static final List<String> BOARD = List.of("........", "........", "........", "........", "........",
            "........", "........", "........");

    private static GameChanged change(UUID matchId, GameChanged.Status status, int moveNumber) {
        return GameChanged.of(UUID.randomUUID(), moveNumber, GameChanged.Type.PLACE,
                new GameChanged.Placement(moveNumber, 0, 0, 0, "DOT"),
                matchId == null ? GameFinished.Mode.SOLO : GameFinished.Mode.VERSUS_AI, matchId,
                matchId == null ? null : 1, "EASY", status, 1, 0, 0, false, BOARD, Instant.now());
    }

    private static String reason(String payload) {
        return assertThrows(LiveEvent.Unreadable.class, () -> LiveEvent.readEvent(payload)).reason();
    }

    @Test
    void aMatchChangeIsReadWithItsTypeItsMatchAndWhetherTheGameEnded() throws Exception {
        UUID match = UUID.randomUUID();
        GameChanged written = change(match, GameChanged.Status.PLAYING, 3);
        LiveEvent playing = LiveEvent.readEvent(written.toJson()).orElseThrow();
        assertEquals(written, playing.change());
        assertEquals(match, playing.matchId());
        assertFalse(playing.ended());
        assertEquals(written.toJsonNode(), playing.event());
        assertTrue(LiveUpdates.completesOwnRound(playing.change(), 1));
        assertFalse(LiveUpdates.completesOwnRound(playing.change(), 0));
        assertTrue(LiveEvent.readEvent(change(match, GameChanged.Status.OVER, 4).toJson()).orElseThrow().ended());
    }

    @Test
    void aSoloGamesChangeIsReadAndLeftUndelivered() throws Exception {
        assertTrue(LiveEvent.readEvent(change(null, GameChanged.Status.PLAYING, 1).toJson()).isEmpty());
    }

    @Test
    void everyRecordNoGameServiceWroteIsUnreadableWithItsReason() {
        assertEquals("malformed", reason("{\"matchId\":\"x\"}"));
        assertEquals("malformed", reason("{\"matchId\":12,\"status\":\"PLAYING\"}"));
        assertEquals("malformed", reason("{\"gameId\":\"g\",\"status\":\"PLAYING\"}"));
        assertEquals("malformed", reason("[\"matchId\"]"));
        assertEquals("malformed", reason("{\"matchId\": nope"));
        assertEquals("malformed", reason("not even JSON"));
        String unversioned = change(UUID.randomUUID(), GameChanged.Status.PLAYING, 1).toJson()
                .replace("\"schemaVersion\":1,", "");
        assertEquals("malformed", reason(unversioned)); // the untyped message of before: no longer read
        assertEquals("null", reason(null));
        assertEquals("too-long", reason("{\"matchId\":\"" + "9".repeat(LiveEvent.MAX_LENGTH) + "\"}"));
    }

    @Test
    void theHeaderAloneSkipsASoloGamesChangeAndAMatchNobodyHereWatches() {
        UUID watched = UUID.randomUUID();
        Set<UUID> here = Set.of(watched);
        assertEquals("solo", LiveEvent.skippedUnread(new byte[0], here::contains));
        assertNull(LiveEvent.skippedUnread(ascii(watched.toString()), here::contains), "a match with a socket here");
        assertEquals("unwatched", LiveEvent.skippedUnread(ascii(UUID.randomUUID().toString()), here::contains));
        assertEquals("unwatched", LiveEvent.skippedUnread(ascii(watched.toString()), m -> false), "no socket at all");
        // not set (a producer that does not mark its records), or not a match id: read, and judged on the value
        assertNull(LiveEvent.skippedUnread(null, m -> false));
        assertNull(LiveEvent.skippedUnread(ascii("not a match id"), m -> false));
        assertNull(LiveEvent.skippedUnread(new byte[] {(byte) 0xff, 0x00}, m -> false));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
