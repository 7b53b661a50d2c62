package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.testsupport.Tokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.websockets.next.BasicWebSocketConnector;
import io.quarkus.websockets.next.WebSocketClientConnection;
import io.restassured.http.ContentType;

@QuarkusTest
class MatchSocketTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI base;

    /** A socket and the frames it received, in order. */
    record Socket(WebSocketClientConnection connection, BlockingQueue<JsonNode> frames) {

        void send(String text) {
            connection.sendTextAndAwait(text);
        }

        /** The next frame that matches, skipping others (AI updates arrive at any time). */
        JsonNode next(Predicate<JsonNode> wanted) throws InterruptedException {
            while (true) {
                JsonNode frame = frames.poll(60, TimeUnit.SECONDS);
                if (frame == null) {
                    throw new AssertionError("no matching frame within 60 s");
                }
                if (wanted.test(frame)) {
                    return frame;
                }
            }
        }

        JsonNode next(String type) throws InterruptedException {
            return next(f -> type.equals(f.path("type").asText()));
        }
    }

    private Socket connect(String matchId, String gameToken) {
        BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
        BasicWebSocketConnector connector = BasicWebSocketConnector.create()
                .baseUri(base)
                .path("/api/matches/" + matchId + "/live")
                .onTextMessage((c, m) -> {
                    try {
                        frames.add(JSON.readTree(m));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
        if (gameToken != null) {
            connector = connector.addHeader("X-Game-Token", gameToken);
        }
        return new Socket(connector.connectAndAwait(), frames);
    }

    private static Map<String, String> guestMatch() {
        var created = given().contentType(ContentType.JSON)
                .body(Map.of("mode", "VERSUS_AI", "level", "MEDIUM", "strength", 3))
                .when().post("/api/matches").then().statusCode(201).extract();
        return Map.of("id", created.path("id"), "token", created.path("gameToken"));
    }

    @Test
    void theSocketSendsTheStateThenTheAisMovesThenAnswersOwnMoves() throws Exception {
        Map<String, String> match = guestMatch();
        Socket socket = connect(match.get("id"), match.get("token"));
        JsonNode state = socket.next("state");
        assertEquals(match.get("id"), state.path("match").path("id").asText());
        assertEquals(0, state.path("match").path("yourSeat").asInt());

        JsonNode update = socket.next(f -> "update".equals(f.path("type").asText())
                && f.path("game").path("seat").asInt() == 1 && "PLACE".equals(f.path("game").path("type").asText()));
        assertEquals(match.get("id"), update.path("game").path("matchId").asText());
        assertEquals(8, update.path("game").path("board").size());

        int[] m = firstLegal(state.path("match").path("games").path(0));
        socket.send("{\"type\": \"move\", \"moveNumber\": 1, \"slot\": " + m[0] + ", \"row\": " + m[1] + ", \"col\": "
                + m[2] + "}");
        JsonNode moved = socket.next("moved");
        assertEquals(false, moved.path("result").path("repeated").asBoolean());
        assertEquals(2, moved.path("result").path("game").path("nextMoveNumber").asInt());
        // our own change comes back as an update too, for every socket of the match
        socket.next(f -> "update".equals(f.path("type").asText()) && f.path("game").path("seat").asInt() == 0
                && "PLACE".equals(f.path("game").path("type").asText()));
        socket.connection().closeAndAwait();
    }

    @Test
    void malformedAndIllegalFramesGetErrorFramesAndTheConnectionStays() throws Exception {
        Map<String, String> match = guestMatch();
        Socket socket = connect(match.get("id"), match.get("token"));
        JsonNode state = socket.next("state");

        socket.send("hello");
        JsonNode error = socket.next("error");
        assertEquals(400, error.path("status").asInt());
        assertTrue(error.path("message").asText().startsWith("Malformed frame: not JSON"), error.toString());

        socket.send("{\"type\": \"dance\"}");
        assertEquals("Malformed frame: unknown type \"dance\": move, resign, sync or ping",
                socket.next("error").path("message").asText());

        socket.send("{\"type\": \"move\", \"moveNumber\": 1, \"slot\": 4, \"row\": 0, \"col\": 0}");
        assertEquals("Malformed frame: \"slot\" must be between 0 and 2, got 4",
                socket.next("error").path("message").asText());

        int[] m = firstLegal(state.path("match").path("games").path(0));
        socket.send("{\"type\": \"move\", \"moveNumber\": 3, \"slot\": " + m[0] + ", \"row\": " + m[1] + ", \"col\": "
                + m[2] + "}");
        JsonNode conflict = socket.next("error");
        assertEquals(409, conflict.path("status").asInt());
        assertEquals("Move number 3 is out of order: the next move number is 1.", conflict.path("message").asText());

        socket.send("{\"type\": \"ping\"}");
        socket.next("pong");
        socket.connection().closeAndAwait();
    }

    @Test
    void aSocketSendingTooFastIsToldSoAndTheRestIsIgnored() throws Exception {
        Map<String, String> match = guestMatch();
        Socket socket = connect(match.get("id"), match.get("token"));
        socket.next("state");
        for (int i = 0; i < 12; i++) {
            socket.send("{\"type\": \"ping\"}");
        }
        JsonNode limited = socket.next(f -> "error".equals(f.path("type").asText()));
        assertEquals(429, limited.path("status").asInt());
        socket.connection().closeAndAwait();
    }

    @Test
    void aSocketWithoutTheGameTokenIsRefusedWithAReason() throws Exception {
        Map<String, String> match = guestMatch();
        Socket socket = connect(match.get("id"), "wrong");
        JsonNode error = socket.next("error");
        assertEquals(403, error.path("status").asInt());
        Socket none = connect("00000000-0000-4000-8000-000000000000", match.get("token"));
        assertEquals(404, none.next("error").path("status").asInt());
    }

    @Test
    void reconnectingResumesFromTheCurrentState() throws Exception {
        Map<String, String> match = guestMatch();
        Socket first = connect(match.get("id"), match.get("token"));
        JsonNode state = first.next("state");
        int[] m = firstLegal(state.path("match").path("games").path(0));
        first.send("{\"type\": \"move\", \"moveNumber\": 1, \"slot\": " + m[0] + ", \"row\": " + m[1] + ", \"col\": "
                + m[2] + "}");
        JsonNode moved = first.next("moved");
        first.connection().closeAndAwait();

        Socket again = connect(match.get("id"), match.get("token"));
        JsonNode resumed = again.next("state").path("match").path("games").path(0);
        assertEquals(2, resumed.path("nextMoveNumber").asInt());
        assertEquals(moved.path("result").path("game").path("board"), resumed.path("board"));
        again.send("{\"type\": \"sync\"}");
        assertEquals(2, again.next("state").path("match").path("games").path(0).path("nextMoveNumber").asInt());
        again.connection().closeAndAwait();
    }

    @Test
    void inAnOnlineRaceEachPlayerSeesTheOthersGridLive() throws Exception {
        String alice = Tokens.player("live-a");
        String bob = Tokens.player("live-b");
        given().auth().oauth2(alice).contentType(ContentType.JSON).body(Map.of("mode", "ONLINE_RACE", "level", "HARD"))
                .when().post("/api/matches").then().statusCode(202);
        var match = given().auth().oauth2(bob).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", "HARD"))
                .when().post("/api/matches").then().statusCode(201).extract();
        String id = match.path("id");

        BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
        WebSocketClientConnection aliceSocket = BasicWebSocketConnector.create().baseUri(base)
                .path("/api/matches/" + id + "/live").addHeader("Authorization", "Bearer " + alice)
                .onTextMessage((c, m) -> {
                    try {
                        frames.add(JSON.readTree(m));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }).connectAndAwait();
        Socket socket = new Socket(aliceSocket, frames);
        JsonNode state = socket.next("state");
        assertEquals(0, state.path("match").path("yourSeat").asInt());

        // bob plays over REST; alice's socket shows his grid and score
        int[] m = firstLegal(state.path("match").path("games").path(1));
        String bobGame = match.path("games[1].id");
        var moved = given().auth().oauth2(bob).contentType(ContentType.JSON)
                .body(Map.of("moveNumber", 1, "slot", m[0], "row", m[1], "col", m[2]))
                .when().post("/api/games/" + bobGame + "/moves").then().statusCode(200).extract();
        JsonNode update = socket.next(f -> "update".equals(f.path("type").asText())
                && f.path("game").path("seat").asInt() == 1 && "PLACE".equals(f.path("game").path("type").asText()));
        assertEquals(bobGame, update.path("game").path("gameId").asText());
        assertEquals((int) moved.path("game.score"), update.path("game").path("score").asInt());
        assertEquals(JSON.valueToTree(moved.path("game.board")), update.path("game").path("board"));
        aliceSocket.closeAndAwait();
    }

    /** The first legal placement for a game as the API shows it. */
    static int[] firstLegal(JsonNode game) {
        List<String> rows = JSON.convertValue(game.path("board"), JSON.getTypeFactory()
                .constructCollectionType(List.class, String.class));
        long board = Board.parse(rows.toArray(String[]::new));
        for (JsonNode p : game.path("pieces")) {
            if (p.path("placed").asBoolean()) {
                continue;
            }
            List<String> shape = JSON.convertValue(p.path("rows"), JSON.getTypeFactory()
                    .constructCollectionType(List.class, String.class));
            Piece piece = Piece.ofRows(shape.toArray(String[]::new));
            for (int row = 0; row < 8; row++) {
                for (int col = 0; col < 8; col++) {
                    if (Rules.illegalReason(board, piece, row, col) == null) {
                        return new int[] {p.path("slot").asInt(), row, col};
                    }
                }
            }
        }
        throw new AssertionError("nothing fits");
    }

}
