package com.bloceclat.game.live;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

import com.bloceclat.common.events.GameChanged;
import com.bloceclat.common.events.GameFinished.MalformedEventException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * One change of a match's game as the live consumer reads it from a {@code game-events} record: a pure decision on
 * the record's text, tested alone ({@code LiveEventTest}). Every record is read as the {@link GameChanged} message it
 * must be ({@link GameChanged#fromJson}, strict and bounded); it is then either a match's change (delivered to that
 * match's sockets), a solo game's change (most of the topic: nobody watches it), or unreadable ({@link Unreadable},
 * with a reason from a small fixed set, for the {@code game.live.skipped} metric). Nothing a record holds can make the
 * reader throw anything else.
 *
 * @param change the message
 * @param event  the message as JSON, as the match's sockets are shown it (docs/events.md)
 */
public record LiveEvent(GameChanged change, JsonNode event) {

    /** The longest record read, in characters ({@link GameChanged#MAX_LENGTH}). */
    public static final int MAX_LENGTH = GameChanged.MAX_LENGTH;

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

    /** The match the change belongs to. */
    public UUID matchId() {
        return change.matchId();
    }

    /** Whether the game is no longer being played (the match's whole state follows the update). */
    public boolean ended() {
        return change.ended();
    }

    /**
     * Why a record need not be read on this replica, from its {@code bloc-match} header alone ({@code OutboxRelay}), or
     * null when it must be read: an empty header is a solo game's change ({@code solo}: nobody watches it live); a
     * match id, that match's change, to read only where a socket of the match is open or opening
     * ({@code unwatched} otherwise). A record without the header (a producer that does not set it) or with one that is
     * not a match id is read, and judged on its value.
     */
    public static String skippedUnread(byte[] liveMatch, Predicate<UUID> watched) {
        if (liveMatch == null) {
            return null;
        }
        if (liveMatch.length == 0) {
            return "solo";
        }
        try {
            return watched.test(UUID.fromString(new String(liveMatch, StandardCharsets.US_ASCII))) ? null : "unwatched";
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Reads one record's value: the match change it announces, or empty for a solo game's change.
     *
     * @throws Unreadable a record no game-service wrote: {@code null} (a tombstone), {@code too-long}, or
     *                    {@code malformed} (not a {@link GameChanged} of a known schema version; the detail says why)
     */
    public static Optional<LiveEvent> readEvent(String payload) throws Unreadable {
        if (payload == null) {
            throw new Unreadable("null", "a record without a value");
        }
        if (payload.length() > MAX_LENGTH) {
            throw new Unreadable("too-long", "a record of " + payload.length() + " characters (at most " + MAX_LENGTH
                    + ")");
        }
        GameChanged change;
        try {
            change = GameChanged.fromJson(payload);
        } catch (MalformedEventException e) {
            throw new Unreadable("malformed", e.getMessage());
        }
        if (change.matchId() == null) {
            return Optional.empty(); // a solo game's change: nobody watches it live
        }
        return Optional.of(new LiveEvent(change, change.toJsonNode()));
    }
}
