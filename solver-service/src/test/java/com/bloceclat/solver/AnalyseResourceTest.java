package com.bloceclat.solver;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.solver.Mode;
import com.bloceclat.engine.solver.Solution;
import com.bloceclat.engine.solver.SolveRequest;
import com.bloceclat.engine.solver.Solver;
import com.bloceclat.testsupport.RawBodies;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;

/** {@code POST /api/solver/analyse}: pages of the analysis of a real game, and a problem body for each bad input. */
@QuarkusTest
class AnalyseResourceTest {

    private static final String ANALYSE = "/api/solver/analyse";

    /** A real game: the full-strength AI's sequence in every round, for {@code rounds} rounds (or until it ends). */
    static Replay game(long seed, int rounds) {
        Game game = new Game(seed, Level.MEDIUM);
        while (!game.gameOver() && game.round() < rounds) {
            List<Piece> pieces = List.of(game.remaining());
            Solution s = Solver.solve(SolveRequest.of(game.board(), pieces, game.streak(), game.miss(), Level.MEDIUM,
                    Mode.HINT));
            for (Solution.Placement p : s.best().placements()) {
                game.place(p.piece(), p.row(), p.col());
            }
        }
        return game.replay();
    }

    private static Response post(String body, String query) {
        return given().auth().oauth2(Callers.service()).contentType("application/json").body(body)
                .when().post(ANALYSE + query);
    }

    @Test
    void aGameIsAnalysedInPages() {
        Replay replay = game(77, 4);
        Response first = post(replay.toJson(), "?rounds=2");
        first.then().statusCode(200).contentType("application/json")
                .body("fromRound", equalTo(0)).body("nextRound", equalTo(2)).body("rounds.size()", equalTo(2));
        List<Map<String, Object>> moves = first.jsonPath().getList("moves");
        assertEquals(6, moves.size());
        for (Map<String, Object> m : moves) {
            assertTrue(((Number) m.get("loss")).intValue() >= 0);
            assertEquals(8, ((List<?>) m.get("board")).size());
            assertTrue(m.get("ai") instanceof Map, "the AI's choice");
        }
        Response rest = post(replay.toJson(), "?fromRound=2");
        rest.then().statusCode(200).body("nextRound", equalTo(-1)).body("moves[0].move", equalTo(7));
        assertEquals(replay.events().size(), moves.size() + rest.jsonPath().getList("moves").size());
        // an analysis waits for a worker as a search does, and is counted so (it was not: a flood of analyses left
        // the queue's wait unmeasured)
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("solver_queue_wait_seconds_count{caller=\"service\",mode=\"analyse\"}"),
                metrics);
    }

    @Test
    void aStartBoardFromGameServiceIsAccepted() {
        // game-service serves the replay with "start" for viewers; the page passes it on as it is.
        Replay replay = game(78, 1);
        String served = replay.toJson().replaceFirst("\\{", "{\"start\":" + "[\"........\"],");
        post(served, "").then().statusCode(200).body("totalRounds", equalTo(1));
        // The page keeps a 64-bit seed exact as a string: the engine reads it as the number.
        String quoted = replay.toJson().replace("\"seed\":" + replay.seed(), "\"seed\":\"" + replay.seed() + "\"");
        assertTrue(quoted.contains("\"seed\":\""), quoted);
        post(quoted, "").then().statusCode(200).body("totalRounds", equalTo(1));
    }

    @Test
    void badInputIsAProblem() {
        Replay good = game(79, 1);
        Replay lying = new Replay(good.rulesVersion(), good.seed(), good.level(), good.events(), good.rounds(),
                good.claimedScore() + 5, good.claimedRounds(), good.assisted());
        post(lying.toJson(), "").then().statusCode(400).contentType("application/problem+json")
                .body("status", equalTo(400)).body("detail", containsString("claimed score"));
        post("{\"seed\": 1}", "").then().statusCode(400).contentType("application/problem+json");
        post("not json", "").then().statusCode(400).contentType("application/problem+json");
        post("", "").then().statusCode(400).contentType("application/problem+json");
        post(good.toJson(), "?rounds=0").then().statusCode(400).body("detail", containsString("rounds"));
        post(good.toJson(), "?fromRound=-1").then().statusCode(400).body("detail", containsString("fromRound"));
        post(good.toJson(), "?fromRound=x").then().statusCode(400).contentType("application/problem+json");
        given().auth().oauth2(Callers.service()).contentType("text/plain").body(good.toJson())
                .when().post(ANALYSE).then().statusCode(415);
        String huge = " ".repeat(300 * 1024);
        // refused before it is read, with a problem body (Quarkus's own 413 had none)
        post("{" + huge + "}", "").then().statusCode(413).contentType("application/problem+json")
                .body("detail", containsString("max-body-size"));
        // sent in chunks, with no length to refuse it by: cut off at the limit, with the same problem body
        String chunked = RawBodies.chunked(RestAssured.port, ANALYSE,
                ("{" + huge + "}").getBytes(StandardCharsets.UTF_8));
        assertTrue(chunked.startsWith("HTTP/1.1 413 ") && chunked.contains("application/problem+json")
                && chunked.contains("max-body-size"), chunked);
    }

    @Test
    void aPageFromPastTheLastRoundIsEmptyAndSaysTheEnd() {
        Replay replay = game(81, 2);
        post(replay.toJson(), "?fromRound=99").then().statusCode(200)
                .body("fromRound", equalTo(99)).body("rounds.size()", equalTo(0)).body("moves.size()", equalTo(0))
                .body("nextRound", equalTo(-1));
    }

    @Test
    void aPageIsClampedToTheConfiguredRounds() {
        Replay replay = game(80, 12);
        post(replay.toJson(), "?rounds=1000").then().statusCode(200)
                .body("rounds.size()", equalTo(10)).body("nextRound", equalTo(10));
    }
}
