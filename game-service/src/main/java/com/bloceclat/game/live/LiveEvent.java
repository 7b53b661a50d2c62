package com.bloceclat.game.live;

import java.util.Optional;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One change of a match's game as the live consumer reads it from a {@code game-events} record: a pure decision on
 * the record's text, tested alone ({@code LiveEventTest}). A record is either a match's change (delivered to that
 * match's sockets), a solo game's change (most of the topic: nobody watches it, it is not even parsed), or
 * unreadable ({@link Unreadable}, with a reason from a small fixed set, for the {@code game.live.skipped} metric).
 * Nothing a record holds can make the reader throw anything else.
 *
 * @param matchId the match the change belongs to
 * @param event   the record as game-service wrote it (docs/events.md), passed on to the match's sockets
 * @param ended   whether the game is no longer being played (the match's whole state follows the update)
 */
public record LiveEvent(UUID matchId, JsonNode event, boolean ended) {

    /**
     * The longest record read, in characters: game-service's own events are under 1 KiB (a board of 8 rows and a
     * few numbers); anything far longer is not one of them.
     */
    public static final int MAX_LENGTH = 16 * 1024;

    /** Why a record was skipped; {@link #reason} is a metric tag (a fixed, small set). */
    public static final class Unreadable extends Exception {

        private final String reason;

        Unreadable(String reason, String detail) {
            super(detail, null, false, false);
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    /**
     * Reads one record's value: the match change it announces, or empty for a solo game's change.
     *
     * @throws Unreadable a record no game-service wrote: null (a tombstone), too long, not JSON, not an object, or
     *                    with a {@code matchId} that is not a UUID
     */
    public static Optional<LiveEvent> readEvent(String payload) throws Unreadable {
        if (payload == null) {
            throw new Unreadable("null", "a record without a value");
        }
        if (payload.length() > MAX_LENGTH) {
            throw new Unreadable("too-long", "a record of " + payload.length() + " characters (at most " + MAX_LENGTH
                    + ")");
        }
        if (!payload.contains("\"matchId\"")) {
            return Optional.empty(); // a solo game's change: no need to parse it
        }
        JsonNode event;
        try {
            event = ClientFrame.Json.MAPPER.readTree(payload);
        } catch (Exception e) {
            throw new Unreadable("not-json", "not JSON: " + e.getMessage());
        }
        if (event == null || !event.isObject()) {
            throw new Unreadable("not-an-object", "not a JSON object");
        }
        JsonNode matchField = event.get("matchId");
        if (matchField == null || matchField.isNull()) {
            return Optional.empty();
        }
        if (!matchField.isTextual()) {
            throw new Unreadable("bad-match-id", "matchId is not a string");
        }
        UUID matchId;
        try {
            matchId = UUID.fromString(matchField.asText());
        } catch (IllegalArgumentException e) {
            throw new Unreadable("bad-match-id", "matchId is not a UUID");
        }
        JsonNode status = event.get("status");
        if (status == null || !status.isTextual()) {
            throw new Unreadable("bad-status", "a match's change without a status");
        }
        return Optional.of(new LiveEvent(matchId, event, !"PLAYING".equals(status.asText())));
    }
}
