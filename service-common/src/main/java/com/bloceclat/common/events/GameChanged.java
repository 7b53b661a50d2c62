package com.bloceclat.common.events;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;

import com.bloceclat.common.events.GameFinished.MalformedEventException;

import static com.bloceclat.common.events.Fields.constant;
import static com.bloceclat.common.events.Fields.instant;
import static com.bloceclat.common.events.Fields.integer;
import static com.bloceclat.common.events.Fields.text;
import static com.bloceclat.common.events.Fields.uuid;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One change of one game (created, a placement, an undo, a hint, a resignation), as game-service publishes it on topic
 * {@value #CHANNEL} keyed by {@link #gameId()}, and game-service's live consumer reads it to update a match's sockets
 * (docs/events.md). Every replica reads every change; only a match's are delivered.
 *
 * <p>Reading is strict and bounded ({@link #fromJson}): at most {@value #MAX_LENGTH} characters, the schema version
 * known, every field present and well-formed (the placement's fields exactly for a {@code PLACE}, {@code matchId} and
 * {@code seat} together or not at all), strings short and free of control characters, the board 8 rows of 8
 * {@code #}/{@code .}, the instant between 2000 and 9999. Anything else is a {@link MalformedEventException} naming
 * what is wrong.
 *
 * @param schemaVersion {@value #SCHEMA_VERSION}; a reader refuses a version it does not know
 * @param eventId       {@code <gameId>:<version>}, unique per change
 * @param gameId        the game, also the Kafka key
 * @param version       the game's number of events after this change (0 when created)
 * @param type          what happened
 * @param placement     the placement, for a {@code PLACE}; null otherwise
 * @param mode          how the game is played
 * @param matchId       the game's match, or null for a solo game
 * @param seat          the game's seat in its match (0 or 1), or null for a solo game
 * @param level         the level's id ({@code EASY} … {@code DIABOLICAL})
 * @param status        the game's status after the change
 * @param score         score after the change
 * @param streak        streak after the change
 * @param round         the round being played after the change
 * @param assisted      whether a hint or an undo has been used
 * @param board         the board after the change: 8 rows of 8 {@code #}/{@code .}, top row first
 * @param at            when the change was made (for {@code CREATED}: when the game was)
 */
public record GameChanged(int schemaVersion, String eventId, UUID gameId, int version, Type type, Placement placement,
        GameFinished.Mode mode, UUID matchId, Integer seat, String level, Status status, int score, int streak,
        int round, boolean assisted, List<String> board, Instant at) {

    /** Channel and Kafka topic, one name. */
    public static final String CHANNEL = "game-events";

    /** 1: the first typed version (before it, the same fields without {@code schemaVersion}, no longer read). */
    public static final int SCHEMA_VERSION = 1;

    /** Longest message read, in characters: game-service's are under 1 KiB. */
    public static final int MAX_LENGTH = 16 * 1024;

    /** Longest piece text: a catalogue id, or a shape's rows joined by {@code /}. */
    static final int MAX_PIECE = 80;

    private static final Pattern ROW = Pattern.compile("[#.]{8}");
    private static final Pattern LEVEL = Pattern.compile("[A-Z_]{1,16}");

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS).build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(4)
                .maxStringLength(MAX_LENGTH).maxDocumentLength(MAX_LENGTH).build());
    }

    public enum Type {
        CREATED, PLACE, UNDO, HINT, RESIGN
    }

    public enum Status {
        PLAYING, OVER, RESIGNED, WON
    }

    /** A placement: the game's move number, the slot, where the piece's top-left corner went, and the piece. */
    public record Placement(int moveNumber, int slot, int row, int col, String piece) {
    }

    public GameChanged {
        board = List.copyOf(board);
    }

    /** The change, {@code placement} given exactly for a {@code PLACE}, {@code seat} exactly with a {@code matchId}. */
    public static GameChanged of(UUID gameId, int version, Type type, Placement placement, GameFinished.Mode mode,
            UUID matchId, Integer seat, String level, Status status, int score, int streak, int round,
            boolean assisted, List<String> board, Instant at) {
        if ((type == Type.PLACE) != (placement != null) || (matchId == null) != (seat == null)) {
            throw new IllegalArgumentException("a placement exactly for PLACE, a seat exactly with a match");
        }
        return new GameChanged(SCHEMA_VERSION, gameId + ":" + version, gameId, version, type, placement, mode,
                matchId, seat, level, status, score, streak, round, assisted, board, at);
    }

    /** Whether the game is no longer being played after this change. */
    public boolean ended() {
        return status != Status.PLAYING;
    }

    /** The message as a JSON object: fields in the order of docs/events.md, absent rather than null. */
    public ObjectNode toJsonNode() {
        ObjectNode m = MAPPER.createObjectNode();
        m.put("schemaVersion", schemaVersion);
        m.put("eventId", eventId);
        m.put("gameId", gameId.toString());
        m.put("version", version);
        m.put("type", type.name());
        if (placement != null) {
            m.put("moveNumber", placement.moveNumber()).put("slot", placement.slot()).put("row", placement.row())
                    .put("col", placement.col()).put("piece", placement.piece());
        }
        m.put("mode", mode.name());
        if (matchId != null) {
            m.put("matchId", matchId.toString()).put("seat", seat);
        }
        m.put("level", level);
        m.put("status", status.name());
        m.put("score", score);
        m.put("streak", streak);
        m.put("round", round);
        m.put("assisted", assisted);
        ArrayNode rows = m.putArray("board");
        board.forEach(rows::add);
        m.put("at", at.toString());
        return m;
    }

    public String toJson() {
        return toJsonNode().toString();
    }

    /**
     * Reads a message strictly and within bounds.
     *
     * @throws MalformedEventException saying what is wrong
     */
    public static GameChanged fromJson(String json) {
        if (json == null) {
            throw new MalformedEventException("no message (a tombstone)");
        }
        if (json.length() > MAX_LENGTH) {
            throw new MalformedEventException("a message of " + json.length() + " characters, more than "
                    + MAX_LENGTH);
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MalformedEventException("not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new MalformedEventException("not a JSON object");
        }
        JsonNode schema = root.get("schemaVersion");
        if (schema == null || !schema.isInt()) {
            throw new MalformedEventException("\"schemaVersion\" must be an integer");
        }
        if (schema.intValue() != SCHEMA_VERSION) {
            throw new MalformedEventException("unknown schemaVersion " + schema.intValue() + " (this reader knows "
                    + SCHEMA_VERSION + ")");
        }
        UUID gameId = uuid(root, "gameId");
        int version = integer(root, "version", 0, Integer.MAX_VALUE);
        String eventId = text(root, "eventId", 48);
        if (!eventId.equals(gameId + ":" + version)) {
            throw new MalformedEventException("\"eventId\" must be <gameId>:<version>, got '" + eventId + "'");
        }
        Type type = constant(Type.class, text(root, "type", 16), "type");
        Placement placement = null;
        if (type == Type.PLACE) {
            placement = new Placement(integer(root, "moveNumber", 1, Integer.MAX_VALUE), integer(root, "slot", 0, 2),
                    integer(root, "row", 0, 7), integer(root, "col", 0, 7), text(root, "piece", MAX_PIECE));
        } else {
            for (String field : List.of("moveNumber", "slot", "row", "col", "piece")) {
                if (root.has(field)) {
                    throw new MalformedEventException("\"" + field + "\" is only for a PLACE, not a " + type);
                }
            }
        }
        GameFinished.Mode mode = constant(GameFinished.Mode.class, text(root, "mode", 16), "mode");
        UUID matchId = null;
        Integer seat = null;
        JsonNode match = root.get("matchId");
        if (match != null && !match.isNull()) {
            matchId = uuid(root, "matchId");
            seat = integer(root, "seat", 0, 1);
        } else if (root.has("seat") && !root.get("seat").isNull()) {
            throw new MalformedEventException("\"seat\" without a \"matchId\"");
        }
        String level = text(root, "level", 16);
        if (!LEVEL.matcher(level).matches()) {
            throw new MalformedEventException("\"level\" is not a level id: '" + level + "'");
        }
        Status status = constant(Status.class, text(root, "status", 16), "status");
        int score = integer(root, "score", 0, Integer.MAX_VALUE);
        int streak = integer(root, "streak", 0, Integer.MAX_VALUE);
        int round = integer(root, "round", 0, Integer.MAX_VALUE);
        JsonNode assisted = root.get("assisted");
        if (assisted == null || !assisted.isBoolean()) {
            throw new MalformedEventException("\"assisted\" must be true or false");
        }
        JsonNode rows = root.get("board");
        if (rows == null || !rows.isArray() || rows.size() != 8) {
            throw new MalformedEventException("\"board\" must be an array of 8 rows");
        }
        List<String> board = new ArrayList<>(8);
        for (JsonNode row : rows) {
            if (!row.isTextual() || !ROW.matcher(row.textValue()).matches()) {
                throw new MalformedEventException("\"board\" rows are 8 characters '#' or '.'");
            }
            board.add(row.textValue());
        }
        return new GameChanged(SCHEMA_VERSION, eventId, gameId, version, type, placement, mode, matchId, seat, level,
                status, score, streak, round, assisted.booleanValue(), board, instant(root, "at"));
    }





}
