package com.bloceclat.common.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.time.LocalDate;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished.MalformedEventException;

class GameFinishedTest {

    static final UUID ID = UUID.fromString("0b7c3a52-3f5e-4d4b-9a51-2f0b0c1d2e3f");
    static final String REPLAY = "{\"rulesVersion\":1,\"seed\":42,\"level\":\"HARD\",\"events\":[]}";

    static final Instant CREATED = Instant.parse("2026-11-29T10:00:00Z");

    static GameFinished solo(GameFinished.Player player, Instant finishedAt) {
        return GameFinished.of(ID, player, GameFinished.Mode.SOLO, GameFinished.SeedSource.SERVER, null, CREATED,
                finishedAt, REPLAY);
    }

    @Test
    void roundTripKeepsEveryFieldAndTheReplayVerbatim() {
        GameFinished sent = solo(new GameFinished.Player("sub-alice", "alice"),
                Instant.parse("2026-11-29T10:15:30.123Z"));
        String json = sent.toJson();
        assertEquals("{\"schemaVersion\":2,\"gameId\":\"" + ID + "\",\"player\":{\"subject\":\"sub-alice\","
                + "\"name\":\"alice\"},\"mode\":\"SOLO\",\"seedSource\":\"SERVER\",\"day\":null,"
                + "\"createdAt\":\"2026-11-29T10:00:00Z\",\"finishedAt\":\"2026-11-29T10:15:30.123Z\",\"replay\":"
                + REPLAY + "}", json);
        GameFinished read = GameFinished.fromJson(json);
        assertEquals(sent, read);
        assertEquals(REPLAY, read.replayJson());
    }

    @Test
    void aDailyGameCarriesItsDay() {
        GameFinished daily = GameFinished.of(ID, null, GameFinished.Mode.SOLO, GameFinished.SeedSource.DAILY,
                LocalDate.parse("2026-11-29"), CREATED, CREATED, REPLAY);
        assertEquals(LocalDate.parse("2026-11-29"), GameFinished.fromJson(daily.toJson()).day());
        assertTrue(daily.toJson().contains("\"day\":\"2026-11-29\",\"practice\":false,"), daily.toJson());
        assertFalse(GameFinished.fromJson(daily.toJson()).practice());
    }

    /** A daily game started after another of its player's that day and level: it says so, and nothing else can. */
    @Test
    void aDailyGameCarriesWhetherItIsPractice() {
        GameFinished daily = GameFinished.of(ID, null, GameFinished.Mode.SOLO, GameFinished.SeedSource.DAILY,
                LocalDate.parse("2026-11-29"), CREATED, CREATED, REPLAY).withPractice(true);
        String json = daily.toJson();
        assertTrue(GameFinished.fromJson(json).practice());
        assertEquals(daily, GameFinished.fromJson(json));
        // a writer of before this field: no "practice", read as the player's attempt
        assertFalse(GameFinished.fromJson(json.replace("\"practice\":true,", "")).practice());
        malformed(json.replace("\"practice\":true", "\"practice\":\"yes\""), "\"practice\" must be true or false");
        String server = solo(null, CREATED).toJson();
        malformed(server.replace("\"day\":null,", "\"day\":null,\"practice\":true,"),
                "\"practice\" is for a daily game only (seedSource DAILY)");
        assertThrows(IllegalArgumentException.class, () -> solo(null, CREATED).withPractice(true));
    }

    @Test
    void aGuestHasANullPlayer() {
        assertNull(GameFinished.fromJson(solo(null, CREATED).toJson()).player());
    }

    @Test
    void aLongOrControlledNameIsCleanedByThePlayerFactory() {
        GameFinished.Player p = GameFinished.Player.of("sub", "a\u0000b" + "x".repeat(100));
        assertEquals(GameFinished.MAX_NAME, p.name().length());
        assertEquals(true, p.name().startsWith("abx"));
    }

    @Test
    void everyNameThePlayerFactoryMakesIsOneTheReaderTakes() {
        // C1 controls (U+0080 to U+009F) are controls to the reader too; a name cut at the limit must not split an
        // emoji's surrogate pair. Either made the signed message game-service wrote one that leaderboard-service
        // dead-letters, and the record was lost.
        for (String name : List.of("al\u0085ice", "\u009Fbob", "x".repeat(GameFinished.MAX_NAME - 1) + "\uD83D\uDE00",
                "\u0085", "a\u2028b", "\u2003".repeat(GameFinished.MAX_NAME) + "x", " ".repeat(80) + "y")) {
            GameFinished.Player p = GameFinished.Player.of("sub", name);
            GameFinished read = GameFinished.fromJson(solo(p, CREATED.plusSeconds(60)).toJson());
            assertEquals(p, read.player(), name);
        }
        assertEquals("alice", GameFinished.Player.of("sub", "al\u0085ice").name());
    }

    @Test
    void eachMalformedMessageSaysWhy() {
        String good = solo(null, Instant.parse("2026-11-29T10:15:30Z")).toJson();
        String player = good.replace("\"player\":null", "\"player\":{\"subject\":\"s\",\"name\":\"n\"}");
        malformed("this is not json", "not JSON: ");
        malformed("[1,2]", "not a JSON object");
        malformed("null", "not a JSON object");
        malformed(good.replace("\"schemaVersion\":2", "\"schemaVersion\":1"), "unknown schemaVersion 1");
        malformed(good.replace("\"schemaVersion\":2,", ""), "\"schemaVersion\" must be an integer");
        malformed(good.replace(ID.toString(), "game-7"), "\"gameId\" is not a UUID: 'game-7'");
        malformed(good.replace("\"player\":null,", ""), "\"player\" is missing (null for a guest)");
        malformed(good.replace("\"player\":null", "\"player\":{\"name\":\"x\"}"),
                "\"subject\" must be a non-empty string");
        malformed(player.replace("\"s\"", "\"" + "s".repeat(300) + "\""), "\"subject\" is 300 characters, more than 255");
        malformed(player.replace("\"n\"", "\"" + "n".repeat(65) + "\""), "\"name\" is 65 characters, more than 64");
        malformed(player.replace("\"n\"", "\"a\\u0000b\""), "\"name\" contains a control character");
        malformed(good.replace("\"SOLO\"", "\"SOLITAIRE\""), "unknown mode 'SOLITAIRE'");
        malformed(good.replace("\"SERVER\"", "\"MINE\""), "unknown seedSource 'MINE'");
        malformed(good.replace("\"SERVER\"", "\"DAILY\""), "\"day\" must be a non-empty string");
        malformed(good.replace("\"day\":null", "\"day\":\"2026-11-29\""),
                "\"day\" must be null unless seedSource is DAILY");
        malformed(good.replace("2026-11-29T10:15:30Z", "yesterday"),
                "\"finishedAt\" is not an ISO-8601 instant: 'yesterday'");
        malformed(good.replace("2026-11-29T10:15:30Z", "+1000000-01-01T00:00:00Z"),
                "\"finishedAt\" is out of range");
        malformed(good.replace("2026-11-29T10:00:00Z", "1970-01-01T00:00:00Z"), "\"createdAt\" is out of range");
        malformed(good.replace(REPLAY, "null"), "\"replay\" is missing");
        malformed(good.replace(REPLAY, "[1]"), "\"replay\" must be an object");
        malformed(good.replace("\"events\":[]", "\"events\":[" + "0,".repeat(GameFinished.MAX_REPLAY_EVENTS) + "0]"),
                "the replay has 100001 events, more than 100000");
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
