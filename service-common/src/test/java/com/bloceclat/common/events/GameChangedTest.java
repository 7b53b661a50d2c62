package com.bloceclat.common.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished.MalformedEventException;

/** game-events messages: what game-service writes reads back equal; anything else is refused naming the field. */
class GameChangedTest {

    static final List<String> BOARD = List.of("##......", "........", "........", "........", "........",
            "........", "........", "#######.");

    static GameChanged placement(UUID matchId, Integer seat) {
        return GameChanged.of(UUID.randomUUID(), 4, GameChanged.Type.PLACE,
                new GameChanged.Placement(3, 2, 7, 7, "DOT"), matchId == null ? GameFinished.Mode.SOLO
                        : GameFinished.Mode.VERSUS_AI, matchId, seat, "HARD", GameChanged.Status.PLAYING, 57, 1,
                1, false, BOARD, Instant.parse("2026-12-01T12:00:00.123Z"));
    }

    private static String reason(String json) {
        return assertThrows(MalformedEventException.class, () -> GameChanged.fromJson(json)).getMessage();
    }

    private static String edited(GameChanged m, UnaryOperator<String> edit) {
        return edit.apply(m.toJson());
    }

    @Test
    void whatGameServiceWritesReadsBackEqual() {
        GameChanged solo = placement(null, null);
        assertEquals(solo, GameChanged.fromJson(solo.toJson()));
        GameChanged match = placement(UUID.randomUUID(), 1);
        assertEquals(match, GameChanged.fromJson(match.toJson()));
        GameChanged created = GameChanged.of(UUID.randomUUID(), 0, GameChanged.Type.CREATED, null,
                GameFinished.Mode.ONLINE_RACE, UUID.randomUUID(), 0, "EASY", GameChanged.Status.PLAYING, 0, 0, 0,
                false, BOARD, Instant.parse("2026-12-01T12:00:00Z"));
        assertEquals(created, GameChanged.fromJson(created.toJson()));
        assertTrue(solo.toJson().startsWith("{\"schemaVersion\":1,\"eventId\":\"" + solo.gameId() + ":4\""),
                solo.toJson());
        assertTrue(!solo.toJson().contains("matchId") && !created.toJson().contains("piece"));
    }

    @Test
    void anythingElseIsRefusedNamingWhatIsWrong() {
        GameChanged m = placement(UUID.randomUUID(), 0);
        assertEquals("no message (a tombstone)", reason(null));
        assertTrue(reason("x".repeat(GameChanged.MAX_LENGTH + 1)).startsWith("a message of 16385 characters"));
        assertTrue(reason("{\"matchId\": nope").startsWith("not JSON"));
        assertEquals("not a JSON object", reason("[\"matchId\"]"));
        assertEquals("\"schemaVersion\" must be an integer", reason("{\"matchId\":\"x\"}"));
        assertEquals("unknown schemaVersion 2 (this reader knows 1)",
                reason(edited(m, s -> s.replace("\"schemaVersion\":1", "\"schemaVersion\":2"))));
        assertEquals("\"matchId\" is not a UUID: 'x'",
                reason(edited(m, s -> s.replace(m.matchId().toString(), "x"))));
        assertEquals("\"matchId\" must be a non-empty string",
                reason(edited(m, s -> s.replace("\"" + m.matchId() + "\"", "12"))));
        assertEquals("\"seat\" must be a whole number from 0 to 1",
                reason(edited(m, s -> s.replace("\"seat\":0", "\"seat\":2"))));
        assertEquals("\"seat\" without a \"matchId\"",
                reason(edited(placement(null, null), s -> s.replace("\"mode\"", "\"seat\":0,\"mode\""))));
        assertEquals("\"eventId\" must be <gameId>:<version>, got '" + m.gameId() + ":5'",
                reason(edited(m, s -> s.replace(":4\"", ":5\""))));
        assertEquals("unknown type 'TELEPORT'", reason(edited(m, s -> s.replace("\"PLACE\"", "\"TELEPORT\""))));
        assertEquals("\"row\" must be a whole number from 0 to 7",
                reason(edited(m, s -> s.replace("\"row\":7", "\"row\":8"))));
        assertEquals("\"piece\" is only for a PLACE, not a HINT", reason(edited(m, s -> s.replace("\"PLACE\"",
                "\"HINT\"").replace("\"moveNumber\":3,\"slot\":2,\"row\":7,\"col\":7,", ""))));
        assertEquals("\"status\" must be a non-empty string",
                reason(edited(m, s -> s.replace("\"PLAYING\"", "null"))));
        assertEquals("unknown status 'PAUSED'", reason(edited(m, s -> s.replace("\"PLAYING\"", "\"PAUSED\""))));
        assertEquals("\"board\" rows are 8 characters '#' or '.'",
                reason(edited(m, s -> s.replace("\"##......\"", "\"##.....\""))));
        assertEquals("\"level\" is not a level id: 'hard'", reason(edited(m, s -> s.replace("\"HARD\"", "\"hard\""))));
        assertEquals("\"score\" must be a whole number from 0", reason(edited(m, s -> s.replace("\"score\":57", "\"score\":-57"))));
        assertEquals("\"at\" is out of range: 1970-01-01T00:00:00Z",
                reason(edited(m, s -> s.replace("2026-12-01T12:00:00.123Z", "1970-01-01T00:00:00Z"))));
        assertEquals("\"piece\" contains a control character", reason(edited(m, s -> s.replace("DOT", "D\\u0007T"))));
        // well-formed JSON, but nested deeper than any message: refused by the parser's bounds
        assertTrue(reason("{\"a\":" + "[".repeat(20) + "]".repeat(20) + "}").startsWith("not JSON"));
    }
}
