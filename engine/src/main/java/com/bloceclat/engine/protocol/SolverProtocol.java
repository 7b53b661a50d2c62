package com.bloceclat.engine.protocol;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Pieces;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * SOLVER-PROTOCOL.md: the request and response objects shared by the CLI and the solver service,
 * so both answer the same JSON the same way.
 */
public final class SolverProtocol {
    private static final ObjectMapper MAPPER = new ObjectMapper();

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
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ProtocolException("not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** Reads a request object. @throws ProtocolException with a message a person can act on */
    public static SolveRequest parse(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new ProtocolException("a request is a JSON object");
        }
        long board = board(node.get("board"));
        List<Piece> pieces = pieces(node.get("pieces"));
        int streak = intField(node, "streak", 0, 0, Integer.MAX_VALUE);
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
        long timeMs = longField(node, "timeMs", 0);
        if (timeMs < 0) {
            throw new ProtocolException("timeMs must be ≥ 0, got " + timeMs);
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
        long v = longField(node, name, dflt);
        if (v < min || v > max) {
            throw new ProtocolException(name + " must be " + (max == Integer.MAX_VALUE ? "≥ " + min
                    : "from " + min + " to " + max) + ", got " + v);
        }
        return (int) v;
    }

    private static long longField(JsonNode node, String name, long dflt) {
        JsonNode v = node.get(name);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new ProtocolException(name + " must be a whole number");
        }
        return v.asLong();
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

    public static ObjectNode error(JsonNode id, String message) {
        ObjectNode out = MAPPER.createObjectNode();
        out.set("id", id == null ? NullNode.getInstance() : id);
        out.put("error", message);
        return out;
    }
}
