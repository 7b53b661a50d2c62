package com.bloceclat.common.events;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A finished game, as game-service publishes it on topic {@value #CHANNEL} keyed by {@link #gameId()}, and
 * leaderboard-service consumes it (docs/events.md). The replay is carried as JSON, untouched, because the consumer
 * trusts none of it: it re-validates the replay and keeps it verbatim for audit.
 *
 * @param schemaVersion {@value #SCHEMA_VERSION}; a consumer refuses a version it does not know
 * @param gameId        the game's id, also the Kafka key; a consumer processes each id once
 * @param player        the logged-in player, or null for a guest
 * @param mode          how the game was played
 * @param finishedAt    when the game ended (game over or resignation)
 * @param replay        the replay as the engine writes it (docs/rules.md "Replays")
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"schemaVersion", "gameId", "player", "mode", "finishedAt", "replay"})
public record GameFinished(int schemaVersion, UUID gameId, Player player, Mode mode, Instant finishedAt,
        JsonNode replay) {

    /** Channel and Kafka topic, one name. */
    public static final String CHANNEL = "game-finished";

    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A logged-in player: the token's subject (the stable player id) and the name shown on leaderboards. */
    public record Player(String subject, String name) {
    }

    public enum Mode {
        SOLO, VERSUS_AI, TWO_PLAYERS, ONLINE_RACE
    }

    /** The message for a game whose replay is {@code replayJson} (for example {@code Replay.toJson()}). */
    public static GameFinished of(UUID gameId, Player player, Mode mode, Instant finishedAt, String replayJson) {
        try {
            return new GameFinished(SCHEMA_VERSION, gameId, player, mode, finishedAt, MAPPER.readTree(replayJson));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the replay is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The replay's JSON text, as carried. */
    public String replayJson() {
        return replay.toString();
    }

    public String toJson() {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("schemaVersion", schemaVersion);
        node.put("gameId", gameId.toString());
        if (player == null) {
            node.putNull("player");
        } else {
            node.putObject("player").put("subject", player.subject()).put("name", player.name());
        }
        node.put("mode", mode.name());
        node.put("finishedAt", finishedAt.toString());
        node.set("replay", replay);
        return node.toString();
    }

    /**
     * Reads a message strictly: every field present and well-formed, the schema version known. What is inside the
     * replay is not checked here (that is the validator's job).
     *
     * @throws MalformedEventException saying what is wrong
     */
    public static GameFinished fromJson(String json) {
        JsonNode root;
        try {
            root = json == null ? null : MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MalformedEventException("not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new MalformedEventException("not a JSON object");
        }
        JsonNode version = root.get("schemaVersion");
        if (version == null || !version.isInt()) {
            throw new MalformedEventException("\"schemaVersion\" must be an integer");
        }
        if (version.intValue() != SCHEMA_VERSION) {
            throw new MalformedEventException("unknown schemaVersion " + version.intValue() + " (this reader knows "
                    + SCHEMA_VERSION + ")");
        }
        UUID gameId = uuid(text(root, "gameId"));
        Player player = null;
        JsonNode p = root.get("player");
        if (p == null) {
            throw new MalformedEventException("\"player\" is missing (null for a guest)");
        }
        if (!p.isNull()) {
            if (!p.isObject()) {
                throw new MalformedEventException("\"player\" must be an object or null");
            }
            player = new Player(text(p, "subject"), text(p, "name"));
        }
        String modeText = text(root, "mode");
        Mode mode;
        try {
            mode = Mode.valueOf(modeText);
        } catch (IllegalArgumentException e) {
            throw new MalformedEventException("unknown mode '" + modeText + "'");
        }
        Instant finishedAt;
        String finishedText = text(root, "finishedAt");
        try {
            finishedAt = Instant.parse(finishedText);
        } catch (DateTimeParseException e) {
            throw new MalformedEventException("\"finishedAt\" is not an ISO-8601 instant: '" + finishedText + "'");
        }
        JsonNode replay = root.get("replay");
        if (replay == null || replay.isNull()) {
            throw new MalformedEventException("\"replay\" is missing");
        }
        return new GameFinished(SCHEMA_VERSION, gameId, player, mode, finishedAt, replay);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.getNodeType() != JsonNodeType.STRING || value.textValue().isBlank()) {
            throw new MalformedEventException("\"" + field + "\" must be a non-empty string");
        }
        return value.textValue();
    }

    private static UUID uuid(String text) {
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedEventException("\"gameId\" is not a UUID: '" + text + "'");
        }
    }

    /** A message that cannot be read as a {@link GameFinished}. */
    public static class MalformedEventException extends RuntimeException {

        public MalformedEventException(String message) {
            super(message);
        }
    }
}
