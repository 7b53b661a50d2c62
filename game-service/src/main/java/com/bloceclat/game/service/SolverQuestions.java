package com.bloceclat.game.service;

import java.util.ArrayList;
import java.util.List;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.solver.GamePosition;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.game.service.Views.Suggestion;
import com.bloceclat.solver.client.SolverClient;

/**
 * game-service's one edge to the solver (SOLVER-PROTOCOL.md, typed as the engine's {@link SolveRequest} and
 * {@link Solution}): the requests for a hint and for the AI's placement, and the reading of the answers by slot.
 */
final class SolverQuestions {

    private SolverQuestions() {
    }

    /**
     * A request about a position, its id for the solver's logs, and the slots of the pieces it asks about
     * ({@code slots.get(i)} is the slot of the request's piece {@code i}).
     */
    record Question(String id, SolveRequest request, List<Integer> slots) {
    }

    static Question hint(String id, Game game) {
        return position(id, game, Mode.HINT, SolveRequest.MAX_STRENGTH, 0);
    }

    static Question ai(String id, Game game, int strength, long seed) {
        return position(id, game, Mode.AI, strength, seed);
    }

    /** Asks the solver for a hint: its placements by slot. @throws RuntimeException as {@link SolverFaults#of} maps */
    static List<Suggestion> askHint(SolverClient solver, Question q) {
        try {
            return suggestions(solver.solve(q.id(), q.request()), q.slots());
        } catch (RuntimeException e) {
            throw SolverFaults.of(e, "hint");
        }
    }

    /** The solver's placements as suggestions by slot. @throws SolverFaults.BadAnswer an answer that says otherwise */
    static List<Suggestion> suggestions(Solution answer, List<Integer> slots) {
        List<Suggestion> suggestions = new ArrayList<>();
        for (Solution.Placement p : answer.best().placements()) {
            if (p.piece() < 0 || p.piece() >= slots.size()) {
                throw new SolverFaults.BadAnswer("a placement of piece " + p.piece() + " of " + slots.size());
            }
            suggestions.add(new Suggestion(slots.get(p.piece()), p.row(), p.col()));
        }
        return suggestions;
    }

    /**
     * The AI's plan for the rest of its round: the answer's placements, by slot, in order.
     *
     * @throws IllegalStateException when the solver placed nothing
     */
    static List<Suggestion> plan(Solution answer, List<Integer> slots, Object about) {
        List<Suggestion> all = suggestions(answer, slots);
        if (all.isEmpty()) {
            throw new IllegalStateException("the solver placed nothing for game " + about + ": " + answer);
        }
        return List.copyOf(all);
    }

    /** The position ({@link GamePosition}: board, the pieces still to place by slot, streak, miss, level). */
    private static Question position(String id, Game game, Mode mode, int strength, long seed) {
        GamePosition p = GamePosition.of(game, mode, strength, seed);
        return new Question(id, p.request(), p.slots());
    }
}
