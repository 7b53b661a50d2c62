package com.bloceclat.solver;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.solver.SolveRequest;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Protocol request bodies for the tests. */
final class Requests {

    /** One 1×1 on an empty board: the cheapest valid request. */
    static final String EMPTY_BOARD = "{\"id\":\"e\",\"board\":[\"........\",\"........\",\"........\",\"........\","
            + "\"........\",\"........\",\"........\",\"........\"],\"pieces\":[\"DOT\"]}";

    private Requests() {
    }

    /** A benchmark position as a protocol request (board rows, pieces as rows, streak, miss, level). */
    static ObjectNode of(SolveRequest position) {
        ObjectNode request = Golden.JSON.createObjectNode();
        ArrayNode board = request.putArray("board");
        for (String row : Board.rows(position.board())) {
            board.add(row);
        }
        ArrayNode pieces = request.putArray("pieces");
        for (Piece piece : position.pieces()) {
            pieces.add(piece.id());
        }
        request.put("streak", position.streak()).put("miss", position.miss()).put("level", position.level().name());
        return request;
    }
}
