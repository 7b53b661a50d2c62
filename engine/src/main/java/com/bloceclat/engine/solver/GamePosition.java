package com.bloceclat.engine.solver;

import java.util.ArrayList;
import java.util.List;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Piece;

/**
 * A game's position as the solver is asked about it: the request (board, the pieces still to place in slot order,
 * streak, miss, level) and the slot of each of its pieces, so that an answer's placement names the game's slot.
 *
 * @param request the question for the solver
 * @param slots   the game's slot of the request's piece {@code i}, at index {@code i}
 */
public record GamePosition(SolveRequest request, List<Integer> slots) {

    public GamePosition {
        slots = List.copyOf(slots);
    }

    /** The position of {@code game} now, asked in {@code mode} at {@code strength} with {@code seed}. */
    public static GamePosition of(Game game, Mode mode, int strength, long seed) {
        List<Piece> pieces = new ArrayList<>(3);
        List<Integer> slots = new ArrayList<>(3);
        Piece[] remaining = game.remaining();
        for (int s = 0; s < remaining.length; s++) {
            if (remaining[s] != null) {
                pieces.add(remaining[s]);
                slots.add(s);
            }
        }
        return new GamePosition(new SolveRequest(game.board(), pieces, game.streak(), game.miss(), game.level(), mode,
                strength, seed, 0), slots);
    }

    /** The game's slot of an answer's placement. */
    public int slotOf(Solution.Placement p) {
        return slots.get(p.piece());
    }
}
