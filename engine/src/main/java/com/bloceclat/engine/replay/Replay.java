package com.bloceclat.engine.replay;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.PieceStream;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.util.List;

/**
 * Everything needed to re-run a game and audit it without trusting anyone (RULES.md "Replay").
 *
 * @param rounds        the pieces dealt in each round, by catalogue id (for auditors; the
 *                      validator re-derives them from the seed and rejects a mismatch)
 * @param claimedScore  the final score the game claims
 * @param claimedRounds the number of completed rounds the game claims
 * @param assisted      whether the game claims a hint or undo was used
 */
// A viewer's copy may carry the start board ("start", see startBoard()); the seed decides it, so it is ignored here.
@JsonIgnoreProperties({"start"})
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"rulesVersion", "seed", "level", "assisted", "claimedScore", "claimedRounds", "rounds", "events"})
public record Replay(int rulesVersion, long seed, Level level, List<Event> events, List<List<String>> rounds,
                     int claimedScore, int claimedRounds, boolean assisted) {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    public Replay {
        events = events == null ? null : List.copyOf(events);
        rounds = rounds == null ? null : rounds.stream().map(List::copyOf).toList();
    }

    /** Parses a replay. @throws ReplayFormatException saying what is wrong with the JSON */
    public static Replay fromJson(String json) {
        try {
            Replay r = MAPPER.readValue(json, Replay.class);
            if (r == null) {
                throw new ReplayFormatException("the replay is empty");
            }
            if (r.level() == null) {
                throw new ReplayFormatException("the replay has no level");
            }
            if (r.events() == null || r.rounds() == null) {
                throw new ReplayFormatException("the replay needs \"events\" and \"rounds\"");
            }
            return r;
        } catch (JsonProcessingException e) {
            throw new ReplayFormatException("the replay is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * The start board the seed deals on this level, as 8 rows of {@code #} and {@code .}: not part of the
     * replay (the seed says it), but what a replay viewer draws first.
     */
    @JsonIgnore
    public List<String> startBoard() {
        return List.of(Board.rows(PieceStream.startBoard(seed, level)));
    }

    public String toJson() {
        try {
            return MAPPER.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
