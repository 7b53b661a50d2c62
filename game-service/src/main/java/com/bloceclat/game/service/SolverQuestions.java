package com.bloceclat.game.service;

import java.util.ArrayList;
import java.util.List;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Piece;
import com.bloceclat.game.service.Views.Suggestion;
import com.bloceclat.solver.client.SolverClient;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * game-service's one edge to the solver protocol (SOLVER-PROTOCOL.md): the requests for a hint and for the AI's
 * placement, and the reading of the answers. Nothing else in game-service builds or reads a solver message.
 */
final class SolverQuestions {

    private SolverQuestions() {
    }

    /**
     * A request about a position, and the slots of the pieces it asks about ({@code slots.get(i)} is the slot of the
     * request's piece {@code i}).
     */
    record Question(ObjectNode request, List<Integer> slots) {
    }

    static Question hint(String id, Game game) {
        Question q = position(id, game);
        q.request().put("mode", "hint");
        return q;
    }

    static Question ai(String id, Game game, int strength, long seed) {
        Question q = position(id, game);
        q.request().put("mode", "ai").put("strength", strength).put("seed", seed);
        return q;
    }

    /** Asks the solver for a hint: its placements by slot. @throws RuntimeException as {@link SolverFaults#of} maps */
    static List<Suggestion> askHint(SolverClient solver, Question q) {
        try {
            return suggestions(solver.solve(q.request()), q.slots());
        } catch (RuntimeException e) {
            throw SolverFaults.of(e, "hint");
        }
    }

    /** The solver's placements as suggestions by slot. @throws SolverFaults.BadAnswer an answer that says otherwise */
    static List<Suggestion> suggestions(JsonNode answer, List<Integer> slots) {
        List<Suggestion> suggestions = new ArrayList<>();
        for (JsonNode p : answer.path("placements")) {
            int piece = p.path("piece").asInt(-1);
            if (piece < 0 || piece >= slots.size()) {
                throw new SolverFaults.BadAnswer("a placement of piece " + p.path("piece") + " of " + slots.size());
            }
            suggestions.add(new Suggestion(slots.get(piece), p.path("row").asInt(), p.path("col").asInt()));
        }
        return suggestions;
    }

    /** The first placement of an answer, by slot. @throws IllegalStateException when the solver placed nothing */
    static Suggestion first(JsonNode answer, List<Integer> slots, Object about) {
        List<Suggestion> all = suggestions(answer, slots);
        if (all.isEmpty()) {
            throw new IllegalStateException("the solver placed nothing for game " + about + ": " + answer);
        }
        return all.get(0);
    }

    /** The position: board, the pieces still to place (in slot order), streak, miss and level. */
    private static Question position(String id, Game game) {
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        request.put("id", id);
        ArrayNode board = request.putArray("board");
        for (String line : Board.rows(game.board())) {
            board.add(line);
        }
        ArrayNode pieces = request.putArray("pieces");
        List<Integer> slots = new ArrayList<>();
        Piece[] remaining = game.remaining();
        for (int s = 0; s < remaining.length; s++) {
            if (remaining[s] != null) {
                pieces.add(remaining[s].name());
                slots.add(s);
            }
        }
        request.put("streak", game.streak()).put("miss", game.miss()).put("level", game.level().name());
        return new Question(request, slots);
    }
}
