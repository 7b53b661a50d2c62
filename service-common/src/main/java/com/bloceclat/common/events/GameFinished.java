package com.bloceclat.common.events;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.UUID;

import static com.bloceclat.common.events.Fields.constant;
import static com.bloceclat.common.events.Fields.instant;
import static com.bloceclat.common.events.Fields.text;
import static com.bloceclat.common.events.Fields.uuid;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A finished game, as game-service publishes it on topic {@value #CHANNEL} keyed by {@link #gameId()}, inside a
 * {@link SignedMessage} envelope, and leaderboard-service consumes it (docs/events.md). The replay is carried as JSON,
 * untouched, because the consumer trusts none of it: it re-validates the replay and keeps it verbatim for audit. What
 * the consumer does trust, once the signature holds, are the facts only game-service knows: who played, in which
 * mode, where the seed came from, and when the game was created and ended.
 *
 * <p>Reading is strict and bounded ({@link #fromJson}): every field present and well-formed, strings short and free of
 * control characters, instants that PostgreSQL can store, a replay of at most {@value #MAX_REPLAY_EVENTS} events. A
 * message that passes can be stored without a database error.
 *
 * @param schemaVersion {@value #SCHEMA_VERSION}; a consumer refuses a version it does not know
 * @param gameId        the game's id, also the Kafka key; a consumer processes each id once
 * @param player        the logged-in player, or null for a guest
 * @param mode          how the game was played
 * @param seedSource    where the game's seed came from (only {@link SeedSource#SERVER} and {@link SeedSource#DAILY}
 *                      seeds were secret while the game was played)
 * @param day           the UTC day of a daily-challenge game, else null
 * @param practice      a daily-challenge game that is not its player's attempt of that day and level: the player had
 *                      started another daily game of them before this one (docs/events.md); false for every other game
 * @param createdAt     when the game was created
 * @param finishedAt    when the game ended (game over or resignation)
 * @param replay        the replay as the engine writes it (docs/rules.md "Replays")
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"schemaVersion", "gameId", "player", "mode", "seedSource", "day", "practice", "createdAt",
        "finishedAt", "replay"})
public record GameFinished(int schemaVersion, UUID gameId, Player player, Mode mode, SeedSource seedSource,
        LocalDate day, boolean practice, Instant createdAt, Instant finishedAt, JsonNode replay) {

    /** Channel and Kafka topic, one name. */
    public static final String CHANNEL = "game-finished";

    /** 2: signed envelope, seed source, day and creation time added (1 is no longer read). */
    public static final int SCHEMA_VERSION = 2;

    /** Longest player subject (a token's {@code sub}), in characters. */
    public static final int MAX_SUBJECT = 255;

    /** Longest player name (shown on leaderboards), in characters; game-service shortens longer names. */
    public static final int MAX_NAME = 64;

    /** Most events a replay may carry (the cap game-service puts on one game). */
    public static final int MAX_REPLAY_EVENTS = 100_000;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS).build();

    static {
        // a replay of MAX_REPLAY_EVENTS events is a few MiB; nothing legitimate nests deeper than a few levels
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(16)
                .maxStringLength(1 << 20).maxDocumentLength(64L << 20).build());
    }

    /** A logged-in player: the token's subject (the stable player id) and the name shown on leaderboards. */
    public record Player(String subject, String name) {

        /**
         * The player of a game, the name stripped of control characters (every one the reader refuses: C0, DEL and
         * C1) and shortened to {@value #MAX_NAME} characters without splitting a surrogate pair, so that the reader
         * takes every name made here.
         */
        public static Player of(String subject, String name) {
            String clean = name == null ? subject : name.codePoints().filter(c -> !Character.isISOControl(c))
                    .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
            if (clean.length() > MAX_NAME) {
                int end = Character.isHighSurrogate(clean.charAt(MAX_NAME - 1)) ? MAX_NAME - 1 : MAX_NAME;
                clean = clean.substring(0, end);
            }
            if (clean.isBlank()) { // after the cut: the name's first 64 characters may be all blanks
                clean = "player";
            }
            return new Player(subject, clean);
        }
    }

    public enum Mode {
        SOLO, VERSUS_AI, TWO_PLAYERS, ONLINE_RACE
    }

    /**
     * Where a game's seed came from. {@code SERVER}: drawn by game-service from a CSPRNG and shown to no one before
     * the game ended. {@code DAILY}: the day's seed, derived from a server secret and shown to no one before the day is
     * over. {@code CHOSEN}: given by whoever created the game (a challenge link), so it may be known in advance.
     */
    public enum SeedSource {
        SERVER, DAILY, CHOSEN
    }

    /** The message for a game whose replay is {@code replayJson} (for example {@code Replay.toJson()}). */
    public static GameFinished of(UUID gameId, Player player, Mode mode, SeedSource seedSource, LocalDate day,
            Instant createdAt, Instant finishedAt, String replayJson) {
        try {
            return new GameFinished(SCHEMA_VERSION, gameId, player, mode, seedSource, day, false, createdAt,
                    finishedAt, MAPPER.readTree(replayJson));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the replay is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The same message for a daily game that is {@link #practice} (or not). */
    public GameFinished withPractice(boolean practice) {
        if (practice && seedSource != SeedSource.DAILY) {
            throw new IllegalArgumentException("only a daily game can be practice");
        }
        return new GameFinished(schemaVersion, gameId, player, mode, seedSource, day, practice, createdAt, finishedAt,
                replay);
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
        node.put("seedSource", seedSource.name());
        if (day == null) {
            node.putNull("day");
        } else {
            node.put("day", day.toString());
            node.put("practice", practice);
        }
        node.put("createdAt", createdAt.toString());
        node.put("finishedAt", finishedAt.toString());
        node.set("replay", replay);
        return node.toString();
    }

    /**
     * Reads a message strictly and within bounds: every field present and well-formed, the schema version known.
     * What is inside the replay is not checked here (that is the validator's job), only its size.
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
        UUID gameId = uuid(root, "gameId");
        Player player = null;
        JsonNode p = root.get("player");
        if (p == null) {
            throw new MalformedEventException("\"player\" is missing (null for a guest)");
        }
        if (!p.isNull()) {
            if (!p.isObject()) {
                throw new MalformedEventException("\"player\" must be an object or null");
            }
            player = new Player(text(p, "subject", MAX_SUBJECT), text(p, "name", MAX_NAME));
        }
        Mode mode = constant(Mode.class, text(root, "mode", 16), "mode");
        SeedSource seedSource = constant(SeedSource.class, text(root, "seedSource", 16), "seedSource");
        LocalDate day = null;
        JsonNode d = root.get("day");
        if (seedSource == SeedSource.DAILY) {
            String dayText = text(root, "day", 10);
            try {
                day = LocalDate.parse(dayText);
            } catch (DateTimeParseException e) {
                throw new MalformedEventException("\"day\" is not an ISO-8601 date: '" + dayText + "'");
            }
            if (day.isBefore(LocalDate.of(2000, 1, 1)) || day.getYear() > 9999) {
                throw new MalformedEventException("\"day\" is out of range: " + day);
            }
        } else if (d == null || !d.isNull()) {
            throw new MalformedEventException("\"day\" must be null unless seedSource is DAILY");
        }
        // added to schema 2 (absent: false), so that a reader of before, which ignores it, still reads the message
        JsonNode pr = root.get("practice");
        boolean practice = false;
        if (pr != null && !pr.isNull()) {
            if (!pr.isBoolean()) {
                throw new MalformedEventException("\"practice\" must be true or false");
            }
            practice = pr.booleanValue();
            if (practice && seedSource != SeedSource.DAILY) {
                throw new MalformedEventException("\"practice\" is for a daily game only (seedSource DAILY)");
            }
        }
        Instant createdAt = instant(root, "createdAt");
        Instant finishedAt = instant(root, "finishedAt");
        JsonNode replay = root.get("replay");
        if (replay == null || replay.isNull()) {
            throw new MalformedEventException("\"replay\" is missing");
        }
        if (!replay.isObject()) {
            throw new MalformedEventException("\"replay\" must be an object");
        }
        JsonNode events = replay.get("events");
        if (events != null && events.size() > MAX_REPLAY_EVENTS) {
            throw new MalformedEventException("the replay has " + events.size() + " events, more than "
                    + MAX_REPLAY_EVENTS);
        }
        return new GameFinished(SCHEMA_VERSION, gameId, player, mode, seedSource, day, practice, createdAt,
                finishedAt, replay);
    }





    /** A message that cannot be read as a {@link GameFinished}. */
    public static class MalformedEventException extends RuntimeException {

        public MalformedEventException(String message) {
            super(message);
        }
    }
}
