package com.bloceclat.common.events;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.UUID;

import com.bloceclat.common.events.GameFinished.MalformedEventException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;

/**
 * The bounded, strict reading of one field of a message, shared by every message of this package: each throws
 * {@link MalformedEventException} with the field's name and what was wrong.
 */
final class Fields {

    /** Earliest and latest instant read: well inside what PostgreSQL's {@code timestamptz} stores. */
    static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59Z");

    private Fields() {
    }

    static String text(JsonNode node, String field, int maxLength) {
        JsonNode value = node.get(field);
        if (value == null || value.getNodeType() != JsonNodeType.STRING || value.textValue().isBlank()) {
            throw new MalformedEventException("\"" + field + "\" must be a non-empty string");
        }
        String text = value.textValue();
        if (text.length() > maxLength) {
            throw new MalformedEventException("\"" + field + "\" is " + text.length() + " characters, more than "
                    + maxLength);
        }
        if (text.chars().anyMatch(Character::isISOControl)) {
            throw new MalformedEventException("\"" + field + "\" contains a control character");
        }
        return text;
    }

    static int integer(JsonNode node, String field, int min, int max) {
        JsonNode value = node.get(field);
        if (value == null || !value.isInt() || value.intValue() < min || value.intValue() > max) {
            throw new MalformedEventException("\"" + field + "\" must be a whole number from " + min
                    + (max == Integer.MAX_VALUE ? "" : " to " + max));
        }
        return value.intValue();
    }

    static UUID uuid(JsonNode node, String field) {
        String text = text(node, field, 36);
        UUID uuid;
        try {
            uuid = UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedEventException("\"" + field + "\" is not a UUID: '" + text + "'");
        }
        if (!uuid.toString().equalsIgnoreCase(text)) {
            throw new MalformedEventException("\"" + field + "\" is not a UUID in its canonical form: '" + text + "'");
        }
        return uuid;
    }

    static Instant instant(JsonNode node, String field) {
        String text = text(node, field, 40);
        Instant instant;
        try {
            instant = Instant.parse(text);
        } catch (DateTimeException e) {
            throw new MalformedEventException("\"" + field + "\" is not an ISO-8601 instant: '" + text + "'");
        }
        if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
            throw new MalformedEventException("\"" + field + "\" is out of range: " + text);
        }
        return instant;
    }

    static <E extends Enum<E>> E constant(Class<E> type, String text, String field) {
        try {
            return Enum.valueOf(type, text);
        } catch (IllegalArgumentException e) {
            throw new MalformedEventException("unknown " + field + " '" + text + "'");
        }
    }
}
