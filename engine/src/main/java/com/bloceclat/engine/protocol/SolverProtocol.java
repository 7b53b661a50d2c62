package com.bloceclat.engine.protocol;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Locale;
import java.util.List;

/**
 * SOLVER-PROTOCOL.md: the request and response objects shared by the CLI and the solver service,
 * so both answer the same JSON the same way.
 */
public final class SolverProtocol {
    /**
     * A decimal number is read exactly, so a numeric {@code id} is echoed with its value unchanged (read as a double,
     * 0.1234567890123456789 was rounded and 1e2 written 100.0).
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    /**
     * The longest request, in characters, the CLI reads as a line and solver-service as a body: a request is a board
     * and three pieces (well under 1,000 characters), so anything far larger is refused before it is parsed.
     */
    public static final int MAX_REQUEST_CHARS = 16 * 1024;

    /** The error line answered for a request longer than {@link #MAX_REQUEST_CHARS}. */
    public static String tooLongLine() {
        return error(NullNode.getInstance(), "a request is at most " + MAX_REQUEST_CHARS + " characters").toString();
    }

    private SolverProtocol() {
    }

    /** Answers one request line: a response, or an error response when the line is malformed. */
    public static String answerLine(String line) {
        JsonNode id = NullNode.getInstance();
        try {
            JsonNode node = readTree(line);
            if (node == null || !node.isObject()) {
                throw new ProtocolException("a request is a JSON object");
            }
            id = node.has("id") ? node.get("id") : NullNode.getInstance();
            return toJson(id, Solver.solve(parse(node))).toString();
        } catch (ProtocolException e) {
            return error(id, e.getMessage()).toString();
        }
    }

    /** Reads a request's JSON text (the CLI's line, the REST body). @throws ProtocolException when it is not JSON */
    public static JsonNode readTree(String text) {
        try (JsonParser parser = MAPPER.createParser(text)) {
            JsonNode node = MAPPER.readTree(parser);
            // one object a request: text after it was dropped unread, a second request on the line unanswered
            if (node != null && !endsAfter(parser)) {
                throw new ProtocolException("not valid JSON: text follows the request's object (one object a line)");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new ProtocolException("not valid JSON: " + e.getOriginalMessage());
        } catch (NumberFormatException e) {
            // a decimal whose scale (digits after the point less the exponent) is past an int's range, 1e-2147483649:
            // Jackson cannot make it a BigDecimal, and throws this rather than a JsonProcessingException (before, it
            // ended the CLI and was a 500 over REST)
            throw new ProtocolException("not valid JSON: a number out of range");
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a String is never short of input
        }
    }

    /** Whether nothing but white space follows what the parser has read. */
    private static boolean endsAfter(JsonParser parser) {
        try {
            return parser.nextToken() == null;
        } catch (IOException e) {
            return false; // not even a token: text all the same
        }
    }

    /** Reads a request object. @throws ProtocolException with a message a person can act on */
    public static SolveRequest parse(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new ProtocolException("a request is a JSON object");
        }
        long board = board(node.get("board"));
        List<Piece> pieces = pieces(node.get("pieces"));
        int streak = intField(node, "streak", 0, 0, SolveRequest.MAX_STREAK);
        int miss = intField(node, "miss", 0, 0, 2);
        Level level;
        Mode mode;
        try {
            level = Level.parse(textField(node, "level", "HARD"));
            mode = Mode.parse(textField(node, "mode", "ai"));
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(e.getMessage());
        }
        int strength = intField(node, "strength", SolveRequest.MAX_STRENGTH, 1, SolveRequest.MAX_STRENGTH);
        long seed = longField(node, "seed", 0);
        long timeMs = longField(node, "timeMs", 0, "a whole number from 0 to " + SolveRequest.MAX_TIME_MS);
        if (timeMs < 0 || timeMs > SolveRequest.MAX_TIME_MS) {
            throw new ProtocolException("timeMs must be from 0 to " + SolveRequest.MAX_TIME_MS + ", got " + timeMs);
        }
        return new SolveRequest(board, pieces, streak, miss, level, mode, strength, seed, timeMs);
    }

    private static long board(JsonNode node) {
        if (node == null || node.isNull()) {
            throw new ProtocolException("board is required: 8 strings of 8 characters '#' or '.'");
        }
        if (!node.isArray()) {
            throw new ProtocolException("board must be an array of 8 strings");
        }
        if (node.size() != Board.SIZE) {
            throw new ProtocolException("board must have 8 rows, got " + node.size());
        }
        String[] rows = new String[Board.SIZE];
        for (int r = 0; r < Board.SIZE; r++) {
            if (!node.get(r).isTextual()) {
                throw new ProtocolException("board row " + r + " must be a string");
            }
            rows[r] = node.get(r).asText();
        }
        try {
            return Board.parse(rows);
        } catch (IllegalArgumentException e) {
            throw new ProtocolException(e.getMessage());
        }
    }

    private static List<Piece> pieces(JsonNode node) {
        if (node == null || node.isNull()) {
            throw new ProtocolException("pieces is required: 1 to 3 catalogue ids or rows of '#'/'.'");
        }
        if (!node.isArray()) {
            throw new ProtocolException("pieces must be an array");
        }
        if (node.isEmpty() || node.size() > 3) {
            throw new ProtocolException("pieces must hold 1 to 3 pieces, got " + node.size());
        }
        List<Piece> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode p = node.get(i);
            try {
                if (p.isTextual()) {
                    out.add(Pieces.require(p.asText()));
                } else if (p.isArray()) {
                    String[] rows = new String[p.size()];
                    for (int r = 0; r < rows.length; r++) {
                        if (!p.get(r).isTextual()) {
                            throw new IllegalArgumentException("rows must be strings");
                        }
                        rows[r] = p.get(r).asText();
                    }
                    out.add(Piece.ofRows(rows));
                } else {
                    throw new IllegalArgumentException("expected a catalogue id or rows of '#'/'.'");
                }
            } catch (IllegalArgumentException e) {
                throw new ProtocolException("piece " + i + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static String textField(JsonNode node, String name, String dflt) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isTextual()) {
            throw new ProtocolException(name + " must be a string");
        }
        return v.asText();
    }

    private static int intField(JsonNode node, String name, int dflt, int min, int max) {
        String range = max == Integer.MAX_VALUE ? "≥ " + min : "from " + min + " to " + max;
        long v = longField(node, name, dflt, "a whole number " + range);
        if (v < min || v > max) {
            throw new ProtocolException(name + " must be " + range + ", got " + v);
        }
        return (int) v;
    }

    private static long longField(JsonNode node, String name, long dflt) {
        return longField(node, name, dflt, "a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE);
    }

    /** A whole number's field; {@code what} says what it must be when it is not one (a fraction, too large). */
    private static long longField(JsonNode node, String name, long dflt, String what) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            String got = v.isNumber() ? v.asText() : v.getNodeType().toString().toLowerCase(Locale.ROOT);
            throw new ProtocolException(name + " must be " + what + ", got " + abbreviated(got));
        }
        return v.asLong();
    }

    /** A value quoted back in an error, cut to a readable length (a number may have thousands of digits). */
    private static String abbreviated(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }

    /** The response object, fields in the protocol's order. */
    public static ObjectNode toJson(JsonNode id, Solution s) {
        ObjectNode out = MAPPER.createObjectNode();
        out.set("id", id == null ? NullNode.getInstance() : id);
        sequence(out, s.best());
        if (s.alternatives() != null) {
            ArrayNode alts = out.putArray("alternatives");
            for (Solution.Sequence alt : s.alternatives()) {
                sequence(alts.addObject(), alt);
            }
            out.put("alternativesTotal", s.alternativesTotal());
        }
        out.put("nodes", s.nodes());
        out.put("micros", s.micros());
        return out;
    }

    private static void sequence(ObjectNode out, Solution.Sequence seq) {
        ArrayNode placements = out.putArray("placements");
        for (Solution.Placement p : seq.placements()) {
            placements.addObject().put("piece", p.piece()).put("row", p.row()).put("col", p.col());
        }
        out.put("points", seq.points());
        out.put("lines", seq.lines());
        out.put("streak", seq.streak());
        out.put("miss", seq.miss());
        ArrayNode board = out.putArray("board");
        for (String row : Board.rows(seq.board())) {
            board.add(row);
        }
        out.put("gameOver", seq.gameOver());
    }

    /**
     * The request object for {@code request}, as a client sends it: what {@link #parse} reads back to an equal
     * request (a catalogue piece by its id, any other by its rows).
     */
    public static ObjectNode toJson(JsonNode id, SolveRequest request) {
        ObjectNode out = MAPPER.createObjectNode();
        out.set("id", id == null ? NullNode.getInstance() : id);
        ArrayNode board = out.putArray("board");
        for (String row : Board.rows(request.board())) {
            board.add(row);
        }
        ArrayNode pieces = out.putArray("pieces");
        for (Piece piece : request.pieces()) {
            if (piece.id() != null) {
                pieces.add(piece.id());
            } else {
                ArrayNode rows = pieces.addArray();
                for (String row : piece.rows()) {
                    rows.add(row);
                }
            }
        }
        return out.put("streak", request.streak()).put("miss", request.miss()).put("level", request.level().name())
                .put("mode", request.mode().wire()).put("strength", request.strength()).put("seed", request.seed())
                .put("timeMs", request.timeMs());
    }

    /**
     * Reads a response object back to a {@link Solution}, as a client receives it. The response does not say whether
     * the time budget cut the search short (solver-service says it in a header): the solution reads as complete.
     *
     * @throws ProtocolException for an error response, or an answer that is not the protocol's (a field missing or of
     *                           the wrong type, a board that is not 8×8)
     */
    public static Solution solution(JsonNode response) {
        if (response == null || !response.isObject()) {
            throw new ProtocolException("a response is a JSON object");
        }
        if (response.hasNonNull("error")) {
            throw new ProtocolException(response.get("error").asText());
        }
        Solution.Sequence best = sequenceOf(response);
        List<Solution.Sequence> alternatives = null;
        int alternativesTotal = 0;
        JsonNode alts = response.get("alternatives");
        if (alts != null && !alts.isNull()) {
            if (!alts.isArray()) {
                throw new ProtocolException("alternatives must be an array");
            }
            alternatives = new ArrayList<>(alts.size());
            for (JsonNode alt : alts) {
                alternatives.add(sequenceOf(alt));
            }
            alternatives = List.copyOf(alternatives);
            alternativesTotal = intField(response, "alternativesTotal", 0, 0, Integer.MAX_VALUE);
        }
        return new Solution(best, alternatives, alternativesTotal, longField(response, "nodes", 0),
                longField(response, "micros", 0), true);
    }

    private static Solution.Sequence sequenceOf(JsonNode node) {
        if (!node.isObject()) {
            throw new ProtocolException("a sequence is a JSON object");
        }
        JsonNode list = node.get("placements");
        if (list == null || !list.isArray()) {
            throw new ProtocolException("placements must be an array");
        }
        List<Solution.Placement> placements = new ArrayList<>(list.size());
        for (JsonNode p : list) {
            if (!p.isObject()) {
                throw new ProtocolException("a placement is a JSON object");
            }
            placements.add(new Solution.Placement(required(p, "piece", 0, 2), required(p, "row", 0, Board.SIZE - 1),
                    required(p, "col", 0, Board.SIZE - 1)));
        }
        return new Solution.Sequence(List.copyOf(placements), required(node, "points", 0, Integer.MAX_VALUE),
                required(node, "lines", 0, Integer.MAX_VALUE), required(node, "streak", 0, Integer.MAX_VALUE),
                required(node, "miss", 0, 2), board(node.get("board")), booleanField(node, "gameOver"));
    }

    private static int required(JsonNode node, String name, int min, int max) {
        if (node.get(name) == null || node.get(name).isNull()) {
            throw new ProtocolException(name + " is required");
        }
        return intField(node, name, 0, min, max);
    }

    private static boolean booleanField(JsonNode node, String name) {
        JsonNode v = node.get(name);
        if (v == null || !v.isBoolean()) {
            throw new ProtocolException(name + " must be true or false");
        }
        return v.asBoolean();
    }

    public static ObjectNode error(JsonNode id, String message) {
        ObjectNode out = MAPPER.createObjectNode();
        out.set("id", id == null ? NullNode.getInstance() : id);
        out.put("error", message);
        return out;
    }
}
