package com.bloceclat.leaderboard.service;

import java.util.ArrayList;
import java.util.List;

import com.bloceclat.engine.Level;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayFormatException;
import com.bloceclat.engine.replay.ReplayValidator;
import com.bloceclat.leaderboard.Outcome;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The engine's verdict on one replay, then what the {@link RecordPolicy} makes of the game ({@link #judged}). Pure: the
 * same replay always gets the same verdict.
 *
 * @param reason       why the game is not a record (null for a record)
 * @param level        the replay's level when it could be read, else null
 * @param seed         the replay's seed when it could be read, else null
 * @param claimedScore the score the replay claims when it could be read, else null
 * @param trace        the validator's trace of the valid events, then the error for a rejected game
 */
public record Verdict(Outcome outcome, String reason, String level, Long seed, Integer claimedScore, int score,
        int rounds, int validEvents, boolean assisted, boolean gameOver, List<String> trace) {

    public static final String ASSISTED = "assisted: a hint or an undo was used";
    public static final String GUEST = "guest game: records are for logged-in players";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * The reason and the trace with every control character but a tab written out ({@code \\u0000}): they quote the
     * replay (a piece id, a value Jackson could not read), which a signed message may fill with a zero byte, and
     * PostgreSQL's text refuses one. Before, such a game failed to store and was dead-lettered instead of rejected.
     */
    public Verdict {
        reason = printable(reason);
        trace = trace.stream().map(Verdict::printable).toList();
    }

    static String printable(String text) {
        if (text == null || text.chars().noneMatch(c -> c < 0x20 && c != '\t' || c == 0x7f)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length() + 8);
        text.chars().forEach(c -> {
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                out.append(String.format("\\u%04x", c));
            } else {
                out.append((char) c);
            }
        });
        return out.toString();
    }

    /**
     * Why this replica cannot judge the replay at all, or null when it can: a replay of another rules version than the
     * engine's ({@code Rules.RULES_VERSION}; docs/rules.md). The engine plays one version, so a game of another one
     * (game-service's engine newer or older than this replica's, in a rolling deploy or after a change of the rules)
     * says nothing about its player: judged, it would be REJECTED, and a record re-validated after a change of the
     * rules struck. A replay without a whole-number {@code rulesVersion} is the validator's to reject.
     */
    public static String unjudgeable(JsonNode replay) {
        JsonNode version = replay == null ? null : replay.get("rulesVersion");
        if (version == null || !version.isIntegralNumber() || version.asLong() == Rules.RULES_VERSION) {
            return null;
        }
        return "rules version " + version.asText() + " (this replica judges version " + Rules.RULES_VERSION + ")";
    }

    /** {@link #unjudgeable(JsonNode)} of a replay's JSON text; null for text that is no JSON (the validator's). */
    public static String unjudgeable(String replayJson) {
        try {
            return unjudgeable(MAPPER.readTree(replayJson));
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * Validates the replay (JSON text): REJECTED with the validator's reason, or VALID_NOT_ELIGIBLE without a reason
     * until the {@link RecordPolicy} has {@link #judged} the game.
     */
    public static Verdict of(String replayJson) {
        Replay replay;
        try {
            replay = Replay.fromJson(replayJson);
        } catch (ReplayFormatException e) {
            return unreadable(replayJson, e.getMessage());
        }
        ReplayValidator.Result result = ReplayValidator.validate(replay, true);
        List<String> trace = result.trace();
        Outcome outcome;
        String reason;
        if (!result.valid()) {
            outcome = Outcome.REJECTED;
            reason = result.error();
            trace = new ArrayList<>(trace);
            trace.add("rejected: " + reason);
        } else {
            outcome = Outcome.VALID_NOT_ELIGIBLE;
            reason = null;
        }
        return new Verdict(outcome, reason, replay.level().name(), replay.seed(), replay.claimedScore(),
                result.score(), result.rounds(), result.validEvents(), result.assisted(), result.gameOver(), trace);
    }

    /** A replay the engine cannot even read: rejected, with what could still be told of it for the audit list. */
    private static Verdict unreadable(String replayJson, String error) {
        String level = null;
        Long seed = null;
        Integer claimed = null;
        try {
            JsonNode node = MAPPER.readTree(replayJson);
            if (node != null && node.isObject()) {
                String text = node.path("level").asText(null);
                for (Level l : Level.values()) {
                    if (l.name().equals(text)) {
                        level = text;
                    }
                }
                seed = node.path("seed").canConvertToLong() && node.path("seed").isIntegralNumber()
                        ? node.path("seed").longValue() : null;
                claimed = node.path("claimedScore").canConvertToInt() && node.path("claimedScore").isInt()
                        ? node.path("claimedScore").intValue() : null;
            }
        } catch (JsonProcessingException e) {
            // Not JSON at all: nothing more to tell.
        }
        return new Verdict(Outcome.REJECTED, error, level, seed, claimed, 0, 0, 0, false, false,
                List.of("rejected: " + error));
    }

    /** This verdict with the policy's outcome and reason (a rejection's trace already ends with its reason). */
    public Verdict judged(RecordPolicy.Decision decision) {
        List<String> t = trace;
        if (decision.outcome() == Outcome.REJECTED && outcome != Outcome.REJECTED) {
            t = new ArrayList<>(trace);
            t.add("rejected: " + decision.reason());
        }
        return new Verdict(decision.outcome(), decision.reason(), level, seed, claimedScore, score, rounds,
                validEvents, assisted, gameOver, t);
    }

    public String traceText() {
        return String.join("\n", trace);
    }
}
