package com.bloceclat.game;

import static io.restassured.RestAssured.given;

import java.util.List;
import java.util.Map;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.GamePosition;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.Solver;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

/** Test helpers: games over the REST API, and the engine's view of the same game to find legal moves. */
public final class Play {

    private Play() {
    }

    /** How a test authenticates: a bearer token or a guest's game token. */
    record As(String bearer, String gameToken) {
        static As player(String bearer) {
            return new As(bearer, null);
        }

        static As guest(String token) {
            return new As(null, token);
        }

        RequestSpecification spec() {
            RequestSpecification s = given();
            if (bearer != null) {
                s = s.auth().oauth2(bearer);
            }
            if (gameToken != null) {
                s = s.header("X-Game-Token", gameToken);
            }
            return s;
        }
    }

    /** A created game: its id, who owns it, and an engine game following it move by move. */
    record Started(String id, As as, Game shadow) {
    }

    static Started create(As as, String level, long seed) {
        String body = "{\"level\": \"" + level + "\", \"seed\": " + seed + "}";
        var created = as.spec().contentType(ContentType.JSON).body(body)
                .when().post("/api/games").then().statusCode(201).extract();
        String id = created.path("id");
        String token = created.path("gameToken");
        As owner = as.bearer() != null ? as : As.guest(token);
        return new Started(id, owner, new Game(seed, Level.parse(level)));
    }

    static ValidatableResponse move(Started g, int moveNumber, int slot, int row, int col) {
        return g.as().spec().contentType(ContentType.JSON)
                .body(Map.of("moveNumber", moveNumber, "slot", slot, "row", row, "col", col))
                .when().post("/api/games/" + g.id() + "/moves").then();
    }

    /**
     * The first placement of the engine AI's best sequence for the pieces left, at {@code strength}, as
     * {slot, row, col}; null when none fits. A player whose games last (MEDIUM, strength 2: about 290 rounds).
     */
    public static int[] byAi(Game game, int strength) {
        GamePosition position = GamePosition.of(game, Mode.AI, strength, game.round());
        Solution sol = Solver.solve(position.request());
        if (sol.best().placements().isEmpty()) {
            return null;
        }
        Solution.Placement p = sol.best().placements().get(0);
        return new int[] {position.slotOf(p), p.row(), p.col()};
    }

    /** The first legal placement on the engine's game, as {slot, row, col}; null when none fits. */
    static int[] firstLegal(Game game) {
        Piece[] remaining = game.remaining();
        for (int slot = 0; slot < remaining.length; slot++) {
            if (remaining[slot] == null) {
                continue;
            }
            for (int row = 0; row < 8; row++) {
                for (int col = 0; col < 8; col++) {
                    if (Rules.illegalReason(game.board(), remaining[slot], row, col) == null) {
                        return new int[] {slot, row, col};
                    }
                }
            }
        }
        return null;
    }

    /**
     * The first legal placement in a game's view (its {@code board} and {@code pieces}), as {slot, row, col}: for
     * games whose seed the test does not know. Null when none fits.
     */
    @SuppressWarnings("unchecked")
    static int[] firstLegal(List<String> board, List<Map<String, Object>> pieces) {
        long b = Board.parse(board.toArray(String[]::new));
        for (Map<String, Object> p : pieces) {
            if (Boolean.TRUE.equals(p.get("placed"))) {
                continue;
            }
            Piece piece = Piece.ofRows(((List<String>) p.get("rows")).toArray(String[]::new));
            for (int row = 0; row < 8; row++) {
                for (int col = 0; col < 8; col++) {
                    if (Rules.illegalReason(b, piece, row, col) == null) {
                        return new int[] {(Integer) p.get("slot"), row, col};
                    }
                }
            }
        }
        return null;
    }

    /** Plays the first legal placement over REST and on the shadow game; answers the move number used. */
    static int playOne(Started g, int moveNumber) {
        int[] m = firstLegal(g.shadow());
        g.shadow().place(m[0], m[1], m[2]);
        move(g, moveNumber, m[0], m[1], m[2]).statusCode(200);
        return moveNumber;
    }

    /** Plays until game over; answers the last move number. */
    static int playToTheEnd(Started g, int fromMoveNumber) {
        int n = fromMoveNumber;
        while (!g.shadow().gameOver()) {
            playOne(g, n++);
        }
        return n - 1;
    }
}
