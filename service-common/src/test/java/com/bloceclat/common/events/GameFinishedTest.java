package com.bloceclat.common.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished.MalformedEventException;

class GameFinishedTest {

    static final UUID ID = UUID.fromString("0b7c3a52-3f5e-4d4b-9a51-2f0b0c1d2e3f");
    static final String REPLAY = "{\"rulesVersion\":1,\"seed\":42,\"level\":\"HARD\",\"events\":[]}";

    @Test
    void roundTripKeepsEveryFieldAndTheReplayVerbatim() {
        GameFinished sent = GameFinished.of(ID, new GameFinished.Player("sub-alice", "alice"), GameFinished.Mode.SOLO,
                Instant.parse("2026-11-29T10:15:30.123Z"), REPLAY);
        String json = sent.toJson();
        assertEquals("{\"schemaVersion\":1,\"gameId\":\"" + ID + "\",\"player\":{\"subject\":\"sub-alice\","
                + "\"name\":\"alice\"},\"mode\":\"SOLO\",\"finishedAt\":\"2026-11-29T10:15:30.123Z\",\"replay\":"
                + REPLAY + "}", json);
        GameFinished read = GameFinished.fromJson(json);
        assertEquals(sent, read);
        assertEquals(REPLAY, read.replayJson());
    }

    @Test
    void aGuestHasANullPlayer() {
        GameFinished guest = GameFinished.of(ID, null, GameFinished.Mode.VERSUS_AI, Instant.EPOCH, REPLAY);
        assertNull(GameFinished.fromJson(guest.toJson()).player());
    }

    @Test
    void eachMalformedMessageSaysWhy() {
        String good = GameFinished.of(ID, null, GameFinished.Mode.SOLO, Instant.EPOCH, REPLAY).toJson();
        malformed("this is not json", "not JSON: ");
        malformed("[1,2]", "not a JSON object");
        malformed("null", "not a JSON object");
        malformed(good.replace("\"schemaVersion\":1", "\"schemaVersion\":2"), "unknown schemaVersion 2");
        malformed(good.replace("\"schemaVersion\":1,", ""), "\"schemaVersion\" must be an integer");
        malformed(good.replace(ID.toString(), "game-7"), "\"gameId\" is not a UUID: 'game-7'");
        malformed(good.replace("\"player\":null,", ""), "\"player\" is missing (null for a guest)");
        malformed(good.replace("\"player\":null", "\"player\":{\"name\":\"x\"}"),
                "\"subject\" must be a non-empty string");
        malformed(good.replace("\"SOLO\"", "\"SOLITAIRE\""), "unknown mode 'SOLITAIRE'");
        malformed(good.replace("1970-01-01T00:00:00Z", "yesterday"),
                "\"finishedAt\" is not an ISO-8601 instant: 'yesterday'");
        malformed(good.replace(REPLAY, "null"), "\"replay\" is missing");
    }

    @Test
    void aDeadLetterRoundTrips() {
        GameFinishedDeadLetter letter = new GameFinishedDeadLetter(1, GameFinished.CHANNEL, 0, 17, "k", "oops",
                "not JSON", Instant.parse("2026-11-29T10:15:30Z"));
        String json = letter.toJson();
        assertEquals("{\"schemaVersion\":1,\"topic\":\"game-finished\",\"partition\":0,\"offset\":17,\"key\":\"k\","
                + "\"payload\":\"oops\",\"error\":\"not JSON\",\"failedAt\":\"2026-11-29T10:15:30Z\"}", json);
        assertEquals(letter, GameFinishedDeadLetter.fromJson(json));
    }

    private static void malformed(String json, String expectedStart) {
        MalformedEventException e = assertThrows(MalformedEventException.class, () -> GameFinished.fromJson(json));
        assertEquals(true, e.getMessage().startsWith(expectedStart), e.getMessage());
    }
}
