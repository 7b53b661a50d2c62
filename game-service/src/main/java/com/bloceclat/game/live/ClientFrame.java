package com.bloceclat.game.live;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A frame a player sends over the match socket; {@link #parse} is the one way in. */
public sealed interface ClientFrame {

    /**
     * Place a piece (the same fields, and the same move-number rule, as {@code POST /api/games/{id}/moves}).
     *
     * @param seat the seat to play, or null for the caller's; another seat only in a two-players match
     */
    record Move(int moveNumber, int slot, int row, int col, Integer seat) implements ClientFrame {
    }

    /**
     * Give up this match's game.
     *
     * @param seat the seat that resigns, or null for the caller's; another seat only in a two-players match
     */
    record Resign(Integer seat) implements ClientFrame {
    }

    /** Send the whole state again (after a reconnection, or whenever in doubt). */
    record Sync() implements ClientFrame {
    }

    record Ping() implements ClientFrame {
    }

    /**
     * Reads a frame.
     *
     * @throws MalformedFrameException saying what is wrong, for the error frame
     */
    static ClientFrame parse(String text) {
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new MalformedFrameException("not JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw new MalformedFrameException("a frame is a JSON object with a \"type\"");
        }
        JsonNode type = node.get("type");
        if (type == null || !type.isTextual()) {
            throw new MalformedFrameException("\"type\" is missing: move, resign, sync or ping");
        }
        return switch (type.textValue()) {
            case "move" -> new Move(intField(node, "moveNumber", 1, Integer.MAX_VALUE), intField(node, "slot", 0, 2),
                    intField(node, "row", 0, 7), intField(node, "col", 0, 7), seat(node));
            case "resign" -> new Resign(seat(node));
            case "sync" -> new Sync();
            case "ping" -> new Ping();
            default -> throw new MalformedFrameException("unknown type \"" + type.textValue()
                    + "\": move, resign, sync or ping");
        };
    }

    /** The optional {@code "seat"}: 0 or 1 (null or absent: the caller's seat). */
    private static Integer seat(JsonNode node) {
        JsonNode value = node.get("seat");
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isInt() || value.intValue() < 0 || value.intValue() > 1) {
            throw new MalformedFrameException("\"seat\" is 0 (player 1) or 1 (player 2), got " + value);
        }
        return value.intValue();
    }

    private static int intField(JsonNode node, String field, int min, int max) {
        JsonNode value = node.get(field);
        if (value == null || !value.isInt()) {
            throw new MalformedFrameException("\"" + field + "\" must be an integer");
        }
        int v = value.intValue();
        if (v < min || v > max) {
            throw new MalformedFrameException("\"" + field + "\" must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    /** A frame that cannot be read. */
    class MalformedFrameException extends RuntimeException {
        public MalformedFrameException(String message) {
            super(message);
        }
    }

    /** The mapper frames are read and written with. */
    final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper().findAndRegisterModules();
        static final ObjectMapper WRITER = MAPPER.copy()
                .disable(com.fasterxml.jackson.databind.SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

        private Json() {
        }
    }
}
