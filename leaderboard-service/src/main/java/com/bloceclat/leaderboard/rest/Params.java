package com.bloceclat.leaderboard.rest;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

import java.util.Arrays;
import java.util.UUID;
import java.util.stream.Collectors;

import jakarta.ws.rs.BadRequestException;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Level;
import com.bloceclat.leaderboard.Outcome;
import com.bloceclat.leaderboard.config.LeaderboardConfig;
import com.bloceclat.leaderboard.service.Period;

/**
 * Reads path and query parameters from their text, so that a bad one is a 400 that says what is accepted (a
 * conversion failure of a JAX-RS parameter would be a bare 404).
 */
final class Params {

    private Params() {
    }

    /**
     * Page {@code page} of {@code size} items, and the last page a caller may ask for ({@code bloc.leaderboard.max-page}):
     * the caller fetches {@code limit()} rows to know if more follow.
     */
    record Paging(int page, int size, int maxPage) {
        int offset() {
            return page * size;
        }

        /** Rows to read: one more than the page, to tell whether a next page has entries. */
        int limit() {
            return size + 1;
        }

        /**
         * Whether a next page has entries and may be asked for, {@code read} being the rows {@link #limit} read: not
         * past the last page (which said {@code more} and answered its next page 400).
         */
        boolean more(int read) {
            return read > size && page < maxPage;
        }
    }

    static Level level(String text) {
        if (text != null) {
            for (Level level : Level.values()) {
                if (level.name().equalsIgnoreCase(text)) {
                    return level;
                }
            }
        }
        throw new BadRequestException("Unknown level '" + text + "'; levels are " + names(Level.values()));
    }

    static Period period(String text) {
        if (text == null || text.isEmpty()) {
            return Period.ALL;
        }
        for (Period period : Period.values()) {
            if (period.label().equalsIgnoreCase(text)) {
                return period;
            }
        }
        throw new BadRequestException("Unknown period '" + text + "'; periods are all, today and week");
    }

    static Outcome outcome(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        for (Outcome outcome : Outcome.values()) {
            if (outcome.name().equalsIgnoreCase(text)) {
                return outcome;
            }
        }
        throw new BadRequestException("Unknown outcome '" + text + "'; outcomes are " + names(Outcome.values()));
    }

    /** "true" or "false" (any case), or null when absent. */
    static Boolean flag(String name, String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.valueOf(text);
        }
        throw new BadRequestException("'" + name + "' must be true or false, got '" + text + "'");
    }

    static Paging paging(String page, String size, LeaderboardConfig config) {
        int p = number("page", page, 0, 0, config.maxPage());
        int s = number("size", size, config.defaultPageSize(), 1, config.maxPageSize());
        return new Paging(p, s, config.maxPage());
    }

    static UUID gameId(String text) {
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException("Game id must be a UUID, got '" + text + "'");
        }
    }

    /**
     * A UTC day written YYYY-MM-DD, today (by {@code clock}) when absent; never after today nor before 2000.
     */
    static LocalDate day(String text, Clock clock) {
        LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        if (text == null || text.isEmpty()) {
            return today;
        }
        LocalDate day;
        try {
            day = text.length() == 10 ? LocalDate.parse(text) : null;
        } catch (DateTimeParseException e) {
            day = null;
        }
        if (day == null) {
            throw new BadRequestException("'day' must be a date written YYYY-MM-DD (2026-11-29), got '" + text + "'");
        }
        if (day.isAfter(today)) {
            throw new BadRequestException("'day' " + day + " is after today (" + today + ", UTC): its daily challenge "
                    + "has not begun");
        }
        if (day.getYear() < 2000) {
            throw new BadRequestException("'day' must be in 2000 or later, got " + day);
        }
        return day;
    }

    /**
     * An ISO-8601 instant ("2026-11-29T10:00:00Z") or date ("2026-11-29", midnight UTC) of the years 2000 to 9999
     * (what PostgreSQL stores, and what a game's times can be), or null.
     */
    static OffsetDateTime time(String name, String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        OffsetDateTime time;
        try {
            time = text.length() == 10
                    ? LocalDate.parse(text).atStartOfDay().atOffset(ZoneOffset.UTC)
                    : Instant.parse(text).atOffset(ZoneOffset.UTC);
        } catch (DateTimeException e) { // unreadable, or read but past what an offset date holds (year +1000000000)
            throw new BadRequestException("'" + name + "' must be an ISO-8601 date or instant (2026-11-29 or "
                    + "2026-11-29T10:00:00Z), got '" + text + "'");
        }
        if (time.getYear() < 2000 || time.getYear() > 9999) {
            throw new BadRequestException("'" + name + "' must be in the years 2000 to 9999, got '" + text + "'");
        }
        return time;
    }

    /** A player id as a token's subject is: at most {@value GameFinished#MAX_SUBJECT} characters, no control character. */
    static String playerId(String text) {
        if (text == null || text.isBlank() || text.length() > GameFinished.MAX_SUBJECT
                || text.chars().anyMatch(Character::isISOControl)) {
            throw new BadRequestException("'playerId' must be a player's id: 1 to " + GameFinished.MAX_SUBJECT
                    + " characters, no control character");
        }
        return text;
    }

    private static int number(String name, String text, int absent, int min, int max) {
        if (text == null || text.isEmpty()) {
            return absent;
        }
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new BadRequestException("'" + name + "' must be a whole number from " + min + " to " + max
                    + ", got '" + text + "'");
        }
        if (value < min || value > max) {
            throw new BadRequestException("'" + name + "' must be from " + min + " to " + max + ", got " + value);
        }
        return value;
    }

    private static String names(Enum<?>[] values) {
        return Arrays.stream(values).map(Enum::name).collect(Collectors.joining(", "));
    }
}
