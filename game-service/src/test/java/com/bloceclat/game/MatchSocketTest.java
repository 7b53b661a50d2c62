package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayValidator;
import com.bloceclat.game.config.GameConfig;
import com.bloceclat.game.service.RaceReaper;
import com.bloceclat.testsupport.Tokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;

@QuarkusTest
class MatchSocketTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URI base;

    @Inject
    RaceReaper reaper;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    GameConfig.Live live;

    private LiveSocket connect(String matchId, String gameToken) {
        return LiveSocket.asGuest(base, matchId, gameToken);
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
        LiveSocket socket = connect(match.get("id"), match.get("token"));
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
    void aGuestsGameTokenSentAsASubprotocolAsTheWebUiSendsItOpensTheirSeat() throws Exception {
        Map<String, String> match = guestMatch();
        LiveSocket socket = LiveSocket.asGuestInABrowser(base, match.get("id"), match.get("token"));
        assertEquals(0, socket.next("state").path("match").path("yourSeat").asInt());
        socket.connection().closeAndAwait();
        // and a wrong token that way is refused as in the header
        LiveSocket wrong = LiveSocket.asGuestInABrowser(base, match.get("id"), "not-the-token");
        assertEquals(403, wrong.next("error").path("status").asInt());
    }

    @Test
    void malformedAndIllegalFramesGetErrorFramesAndTheConnectionStays() throws Exception {
        Map<String, String> match = guestMatch();
        LiveSocket socket = connect(match.get("id"), match.get("token"));
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

    /** A binary frame is answered as a malformed one, and the socket stays (Quarkus dropped it unanswered before). */
    @Test
    void aBinaryFrameGetsAnErrorFrameAndTheConnectionStays() throws Exception {
        Map<String, String> match = guestMatch();
        LiveSocket socket = connect(match.get("id"), match.get("token"));
        socket.next("state");
        socket.connection().sendBinaryAndAwait(io.vertx.core.buffer.Buffer.buffer(new byte[] {'{', '}'}));
        JsonNode error = socket.next("error");
        assertEquals(400, error.path("status").asInt());
        assertEquals("Malformed frame: a frame is JSON text, not binary.", error.path("message").asText());
        socket.send("{\"type\": \"ping\"}");
        socket.next("pong");
        socket.connection().closeAndAwait();
    }

    @Test
    void aSocketSendingTooFastIsToldSoAndTheRestIsIgnored() throws Exception {
        Map<String, String> match = guestMatch();
        LiveSocket socket = connect(match.get("id"), match.get("token"));
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
        LiveSocket socket = connect(match.get("id"), "wrong");
        JsonNode error = socket.next("error");
        assertEquals(403, error.path("status").asInt());
        LiveSocket none = connect("00000000-0000-4000-8000-000000000000", match.get("token"));
        assertEquals(404, none.next("error").path("status").asInt());
    }

    /** The first frame that is the state or a refusal (an AI update may come before the state). */
    private static JsonNode stateOrError(LiveSocket socket) throws InterruptedException {
        return socket.next(f -> "state".equals(f.path("type").asText()) || "error".equals(f.path("type").asText()));
    }

    /** Opens sockets until one is given the state: the server counts a closed socket off once it has seen the close. */
    private static LiveSocket onceThereIsRoom(java.util.function.Supplier<LiveSocket> connect) {
        LiveSocket[] opened = new LiveSocket[1];
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            LiveSocket again = connect.get();
            boolean room = "state".equals(stateOrError(again).path("type").asText());
            opened[0] = room ? again : null;
            return room;
        });
        return opened[0];
    }

    @Test
    void socketsOfOneSeatPastTheCapAreRefusedWith429UntilOneCloses() throws Exception {
        Map<String, String> match = guestMatch();
        int cap = live.maxSocketsPerSeat();
        List<LiveSocket> open = new ArrayList<>();
        for (int i = 0; i < cap; i++) {
            LiveSocket socket = connect(match.get("id"), match.get("token"));
            assertEquals("state", stateOrError(socket).path("type").asText());
            open.add(socket);
        }
        // before: every socket was accepted, each one a database read at open and on every update of the AI's game
        LiveSocket extra = connect(match.get("id"), match.get("token"));
        JsonNode refused = stateOrError(extra);
        assertEquals("error", refused.path("type").asText(), refused.toString());
        assertEquals(429, refused.path("status").asInt());
        assertEquals("Too many sockets: at most " + cap + " to one match for one player on this server; close older "
                + "tabs of this match.", refused.path("message").asText());
        await().atMost(Duration.ofSeconds(10)).until(() -> extra.connection().isClosed());
        // the sockets already open go on
        open.get(1).send("{\"type\": \"ping\"}");
        open.get(1).next("pong");

        open.get(0).connection().closeAndAwait();
        // counted off once the server has seen the close; a refused try is closed and not counted
        open.set(0, onceThereIsRoom(() -> connect(match.get("id"), match.get("token"))));
        for (LiveSocket socket : open) {
            socket.connection().closeAndAwait();
        }
    }

    @Test
    void aClientsSocketsPastItsCapAreRefusedWhateverTheirMatches() throws Exception {
        // before, the cap was per seat only: a client opened 4 sockets to each of as many finished matches as it
        // liked to make (their games resigned, they count against no limit), every one kept on the replica
        String player = Tokens.player("many-" + UUID.randomUUID());
        int cap = live.maxSocketsPerClient();
        List<LiveSocket> open = new ArrayList<>();
        while (open.size() < cap) {
            var match = given().auth().oauth2(player).contentType(ContentType.JSON)
                    .body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                    .when().post("/api/matches").then().statusCode(201).extract();
            for (int seat = 0; seat < 2; seat++) {
                given().auth().oauth2(player).when().post("/api/games/" + match.path("games[" + seat + "].id")
                        + "/resign").then().statusCode(200);
            }
            for (int i = 0; i < live.maxSocketsPerSeat() && open.size() < cap; i++) {
                LiveSocket socket = connectAs(match.path("id"), player);
                assertEquals("state", stateOrError(socket).path("type").asText());
                open.add(socket);
            }
        }
        String another = given().auth().oauth2(player).contentType(ContentType.JSON)
                .body(Map.of("mode", "TWO_PLAYERS", "level", "EASY"))
                .when().post("/api/matches").then().statusCode(201).extract().path("id");
        LiveSocket extra = connectAs(another, player);
        JsonNode refused = stateOrError(extra);
        assertEquals(429, refused.path("status").asInt(), refused.toString());
        assertEquals("Too many sockets: at most " + cap + " open at once from one client on this server; close other "
                + "tabs.", refused.path("message").asText());
        await().atMost(Duration.ofSeconds(10)).until(() -> extra.connection().isClosed());
        // another client is not held back by it
        LiveSocket other = connectAs(another, Tokens.player("other-" + UUID.randomUUID()));
        assertEquals(403, stateOrError(other).path("status").asInt(), "refused as not seated, not as too many");

        open.get(0).connection().closeAndAwait();
        open.set(0, onceThereIsRoom(() -> connectAs(another, player)));
        for (LiveSocket socket : open) {
            socket.connection().closeAndAwait();
        }
    }

    @Test
    void reconnectingResumesFromTheCurrentState() throws Exception {
        Map<String, String> match = guestMatch();
        LiveSocket first = connect(match.get("id"), match.get("token"));
        JsonNode state = first.next("state");
        int[] m = firstLegal(state.path("match").path("games").path(0));
        first.send("{\"type\": \"move\", \"moveNumber\": 1, \"slot\": " + m[0] + ", \"row\": " + m[1] + ", \"col\": "
                + m[2] + "}");
        JsonNode moved = first.next("moved");
        first.connection().closeAndAwait();

        LiveSocket again = connect(match.get("id"), match.get("token"));
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

        LiveSocket socket = LiveSocket.asPlayer(base, id, alice);
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
        socket.connection().closeAndAwait();
    }

    private LiveSocket connectAs(String matchId, String bearer) {
        return LiveSocket.asPlayer(base, matchId, bearer);
    }

    /** A race on {@code level} between two new players: the match as the second one (seat 1) got it. */
    private static ExtractableResponse<Response> race(String first, String second, String level) {
        given().auth().oauth2(first).contentType(ContentType.JSON).body(Map.of("mode", "ONLINE_RACE", "level", level))
                .when().post("/api/matches").then().statusCode(202);
        return given().auth().oauth2(second).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", level))
                .when().post("/api/matches").then().statusCode(201).extract();
    }

    private static String move(int moveNumber, int[] m, String seat) {
        return "{\"type\": \"move\", \"moveNumber\": " + moveNumber + ", \"slot\": " + m[0] + ", \"row\": " + m[1]
                + ", \"col\": " + m[2] + (seat == null ? "" : ", \"seat\": " + seat) + "}";
    }

    private static GameEntity stored(String gameId) {
        return QuarkusTransaction.requiringNew().call(() -> GameEntity.findById(UUID.fromString(gameId)));
    }

    @Test
    void aRacePlayerGoneForLongerThanTheTimeoutIsResignedAndThePlayerStillThereWins() throws Exception {
        String stays = Tokens.player("stays-a");
        String gone = Tokens.player("gone-b");
        // "gone" joins and is never heard of again: no socket, no request
        var match = race(stays, gone, "EASY");
        String id = match.path("id");
        String goneGame = match.path("games[1].id");
        String staysGame = match.path("games[0].id");

        LiveSocket socket = connectAs(id, stays);
        JsonNode state = socket.next("state");
        socket.send(move(1, firstLegal(state.path("match").path("games").path(0)), null));
        int score = socket.next("moved").path("result").path("game").path("score").asInt();
        assertTrue(score > 0);

        // the heartbeat keeps the player with a socket; the one gone is resigned for them after the timeout
        JsonNode end = socket.next(f -> "state".equals(f.path("type").asText())
                && "FINISHED".equals(f.path("match").path("status").asText()));
        assertEquals(0, end.path("match").path("winnerSeat").asInt());
        assertEquals("seat 0 wins, " + score + " to 0 (seat 1 left the race)",
                end.path("match").path("result").asText());
        assertEquals("WON", end.path("match").path("games").path(0).path("status").asText());
        assertEquals("RESIGNED", end.path("match").path("games").path(1).path("status").asText());
        assertEquals(0, end.path("match").path("targetScore").asInt());

        GameEntity left = stored(goneGame);
        assertEquals(GameEntity.Status.RESIGNED, left.status);
        assertNotNull(left.leftAt);
        assertEquals(1, left.eventCount, "resigned once, by one replica's reaper");
        assertNotNull(stored(staysGame).finishedAt);
        // the resignation is an ordinary one in the replay, which stays valid
        String replay = given().auth().oauth2(gone).when().get("/api/games/" + goneGame + "/replay").then()
                .statusCode(200).extract().asString();
        ReplayValidator.Result result = ReplayValidator.validate(Replay.fromJson(replay));
        assertTrue(result.valid(), result.error());
        socket.send(move(2, new int[] {0, 0, 0}, null));
        assertTrue(socket.next("error").path("message").asText().startsWith("The match is over: seat 0 wins"));
        socket.connection().closeAndAwait();
    }

    @Test
    void aPlayerWhoseSocketStaysOpenWhileIdleIsNotResignedAndPlaysOnToBeatOneWhoLeft() throws Exception {
        String idle = Tokens.player("idle-a");
        String gone = Tokens.player("gone-c");
        var match = race(idle, gone, "MEDIUM");
        String id = match.path("id");
        String idleGame = match.path("games[0].id");
        String goneGame = match.path("games[1].id");
        LiveSocket socket = connectAs(id, idle);
        JsonNode state = socket.next("state");

        await().atMost(Duration.ofSeconds(30)).until(() -> stored(goneGame).status == GameEntity.Status.RESIGNED);
        // equal at 0: the player still there must beat 0, and idles with the socket open for two timeouts
        await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12))
                .until(() -> stored(idleGame).status == GameEntity.Status.PLAYING);
        given().auth().oauth2(idle).when().get("/api/matches/" + id).then().statusCode(200)
                .body("status", equalTo("PLAYING")).body("targetScore", equalTo(0));

        socket.send(move(1, firstLegal(state.path("match").path("games").path(0)), null));
        assertEquals("WON", socket.next("moved").path("result").path("game").path("status").asText());
        JsonNode end = socket.next(f -> "state".equals(f.path("type").asText())
                && "FINISHED".equals(f.path("match").path("status").asText()));
        assertEquals(0, end.path("match").path("winnerSeat").asInt());
        assertTrue(end.path("match").path("result").asText().endsWith("(seat 1 left the race)"));
        socket.connection().closeAndAwait();
    }

    /**
     * While the database is out of reach no heartbeat can mark a player seen, so after an outage longer than the
     * timeout every race in play looks gone: a replica resigns nobody until it has reached the database for a whole
     * timeout again, time for every replica's heartbeat to mark the players it holds sockets of. Before, the first
     * pass after the outage resigned them all.
     */
    @Test
    void afterAPassThatCouldNotReachTheDatabaseNoRaceIsResignedForATimeout() {
        var match = race(Tokens.player("outage-a-" + UUID.randomUUID()), Tokens.player("outage-b-" + UUID.randomUUID()),
                "EASY");
        List<UUID> seats = seats(match);
        reaper.unreached(); // the pass during the outage
        unseenForTwoTimeouts(seats); // as after such an outage
        reaper.tick(); // the first pass once it is back
        for (UUID id : seats) {
            assertEquals(GameEntity.Status.PLAYING, stored(id.toString()).status, "not resigned right after");
        }
        // players still gone once the database has been reached for the timeout: resigned then
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertEquals(GameEntity.Status.RESIGNED,
                stored(seats.get(0).toString()).status));
    }

    /**
     * A database that answers reads but refuses the heartbeat's write (read-only, full): nobody can be marked seen, so
     * every race in play looks gone once the timeout has passed, though its players sit there with their sockets
     * open. The replica whose beat failed resigns nobody until its beats have gone through for a whole timeout again.
     * Before, its reaper, whose reads went through, resigned them.
     */
    @Test
    void whileTheHeartbeatCannotWriteNoRaceOfItsSocketsIsResigned() throws Exception {
        String a = Tokens.player("beat-a-" + UUID.randomUUID());
        String b = Tokens.player("beat-b-" + UUID.randomUUID());
        var match = race(a, b, "EASY");
        String id = match.path("id");
        List<UUID> seats = seats(match);
        LiveSocket first = connectAs(id, a);
        first.next("state");
        LiveSocket second = connectAs(id, b);
        second.next("state");
        refuseWrites("beat_" + seats.get(0).toString().replace('-', '_'), "last_seen_at", seats, "53100");
        try {
            // twice the test profile's 4 s timeout without a beat going through
            await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12)).until(() ->
                    seats.stream().allMatch(g -> stored(g.toString()).status == GameEntity.Status.PLAYING));
        } finally {
            allowWrites("beat_" + seats.get(0).toString().replace('-', '_'));
        }
        // the writes are back: the beats mark them seen before the reaper may resign anyone
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10)).until(() ->
                seats.stream().allMatch(g -> stored(g.toString()).status == GameEntity.Status.PLAYING));
        first.connection().closeAndAwait();
        second.connection().closeAndAwait();
    }

    /**
     * A replica whose pool an overload keeps full still marks the players of its sockets seen: the heartbeat writes on
     * a connection of its own. With a pooled connection its beats timed out, and the other replicas' reapers, whose
     * pools were free, resigned its players while they sat there.
     */
    @Test
    void whileThePoolIsFullTheHeartbeatStillMarksThePlayersOfItsSocketsSeen() throws Exception {
        String a = Tokens.player("full-a-" + UUID.randomUUID());
        String b = Tokens.player("full-b-" + UUID.randomUUID());
        var match = race(a, b, "EASY");
        UUID game = seats(match).get(0);
        LiveSocket first = connectAs(match.path("id"), a);
        first.next("state");
        var config = ConfigProvider.getConfig();
        List<Connection> held = new ArrayList<>();
        try (Connection outside = DriverManager.getConnection(
                config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class))) {
            while (true) { // every connection the pool will give
                try {
                    held.add(dataSource.getConnection());
                } catch (SQLException acquisitionTimeout) {
                    break;
                }
            }
            OffsetDateTime before = lastSeen(outside, game);
            await().atMost(Duration.ofSeconds(8)).until(() -> lastSeen(outside, game).isAfter(before));
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
        first.connection().closeAndAwait();
    }

    private static OffsetDateTime lastSeen(Connection c, UUID game) throws SQLException {
        try (var q = c.prepareStatement("SELECT last_seen_at FROM game WHERE id = ?")) {
            q.setObject(1, game);
            try (var r = q.executeQuery()) {
                r.next();
                return r.getObject(1, OffsetDateTime.class);
            }
        }
    }

    /**
     * A resignation of a gone player that the database refuses as a database fault (here read-only, 25006) says what a
     * refused heartbeat says: writes are not going through, so players elsewhere may look gone only for want of a
     * beat. The pass stops, and the next resign nobody for a whole timeout after that refusal (the last one may have
     * been up to a timeout before the writes came back); before, the first pass once the writes were back resigned
     * every race that looked gone.
     */
    @Test
    void afterAResignationTheDatabaseRefusedTheFirstPassOnceTheWritesAreBackResignsNobody() {
        var match = race(Tokens.player("refused-a-" + UUID.randomUUID()),
                Tokens.player("refused-b-" + UUID.randomUUID()), "EASY");
        List<UUID> seats = seats(match);
        String trigger = "resign_" + seats.get(0).toString().replace('-', '_');
        refuseWrites(trigger, "status", seats, "25006");
        try {
            unseenForTwoTimeouts(seats);
            // the passes of more than a timeout try to resign them and are refused (so before, when a refusal was only
            // logged, the database had been "reached" for longer than the timeout when the writes came back)
            await().pollDelay(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(6)).until(() -> true);
            reaper.tick();
        } finally {
            allowWrites(trigger);
        }
        reaper.tick(); // the first pass once the writes are back
        for (UUID id : seats) {
            assertEquals(GameEntity.Status.PLAYING, stored(id.toString()).status, "not resigned right after");
        }
        // still gone once the writes have gone through for the timeout: resigned then
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertEquals(GameEntity.Status.RESIGNED,
                stored(seats.get(0).toString()).status));
    }

    /** The games of a match's two seats. */
    private static List<UUID> seats(ExtractableResponse<Response> match) {
        return List.of(UUID.fromString(match.path("games[0].id")), UUID.fromString(match.path("games[1].id")));
    }

    /** The games' players not seen for twice the test profile's 4 s timeout, nor the games created since. */
    private static void unseenForTwoTimeouts(List<UUID> games) {
        for (UUID id : games) {
            QuarkusTransaction.requiringNew().run(() -> GameEntity.getEntityManager().createNativeQuery(
                    "UPDATE game SET last_seen_at = now() - interval '8 seconds', created_at = now() - interval "
                            + "'8 seconds' WHERE id = :id").setParameter("id", id).executeUpdate());
        }
    }

    /** A trigger that refuses, with {@code state}, every update of {@code column} of the games {@code ids}. */
    private static void refuseWrites(String trigger, String column, List<UUID> ids, String state) {
        String in = String.join(", ", ids.stream().map(g -> "CAST('" + g + "' AS uuid)").toList());
        QuarkusTransaction.requiringNew().run(() -> {
            var em = GameEntity.getEntityManager();
            em.createNativeQuery("CREATE OR REPLACE FUNCTION match_socket_test_refuse() RETURNS trigger AS "
                    + "$$ BEGIN RAISE EXCEPTION 'refused by MatchSocketTest' USING ERRCODE = TG_ARGV[0]; END $$ "
                    + "LANGUAGE plpgsql").executeUpdate();
            em.createNativeQuery("CREATE TRIGGER " + trigger + " BEFORE UPDATE OF " + column + " ON game FOR EACH ROW "
                    + "WHEN (OLD.id IN (" + in + ")) EXECUTE FUNCTION match_socket_test_refuse('" + state + "')")
                    .executeUpdate();
        });
    }

    private static void allowWrites(String trigger) {
        QuarkusTransaction.requiringNew().run(() -> GameEntity.getEntityManager()
                .createNativeQuery("DROP TRIGGER " + trigger + " ON game").executeUpdate());
    }

    /**
     * A race player whose connection went silent (a phone asleep, a network dropped: the socket stays open on the
     * server's side, nothing comes from it) is gone: no pong to the server's pings, so the heartbeat no longer keeps
     * them, their socket is closed and their game resigned after the disconnect timeout. Before, an open socket kept
     * its player there until the kernel gave up on the connection, a quarter of an hour, or until open-for.
     */
    @Test
    void aRacePlayerWhoseConnectionWentSilentIsGoneAndResigned() throws Exception {
        String there = Tokens.player("there-" + UUID.randomUUID());
        String silent = Tokens.player("silent-" + UUID.randomUUID());
        var match = race(there, silent, "EASY");
        String id = match.path("id");
        String silentGame = match.path("games[1].id");
        String thereGame = match.path("games[0].id");
        LiveSocket socket = connectAs(id, there); // its client answers every ping
        socket.next("state");
        try (java.net.Socket asleep = silentSocket(id, silent)) {
            await().atMost(Duration.ofSeconds(30)).until(() -> stored(silentGame).status == GameEntity.Status.RESIGNED);
            assertNotNull(stored(silentGame).leftAt);
            assertEquals(GameEntity.Status.PLAYING, stored(thereGame).status, "the player answering pings stays");
        }
        socket.connection().closeAndAwait();
    }

    /**
     * A socket to the match's live endpoint whose client, once upgraded, reads and answers nothing (raw TCP: no
     * WebSocket client answers pings on its own here).
     */
    private java.net.Socket silentSocket(String matchId, String bearer) throws java.io.IOException {
        RawUpgrade raw = rawUpgrade("/api/matches/" + matchId + "/live", "Authorization: Bearer " + bearer);
        assertTrue(raw.status().startsWith("HTTP/1.1 101"), raw.status());
        return raw.socket(); // nothing more is read from it or written to it
    }

    private RawUpgrade rawUpgrade(String pathAndQuery, String header) throws java.io.IOException {
        return RawUpgrade.send(base, pathAndQuery, header == null ? List.of() : List.of(header), 0);
    }

    /**
     * A game token in the address that is not URL-encoded is a 400 (the HTTP server's, or an error frame): never an
     * exception out of the socket's opening, which closed it with 1011 and no frame.
     */
    @Test
    void aGameTokenInTheAddressThatIsNotUrlEncodedIsRefusedWith400() throws Exception {
        String id = guestMatch().get("id");
        for (String query : List.of("gameToken=%zz", "gameToken=%4", "a&".repeat(1100) + "gameToken=%zz")) {
            RawUpgrade raw = rawUpgrade("/api/matches/" + id + "/live?" + query, null);
            try (java.net.Socket socket = raw.socket()) {
                if (raw.status().startsWith("HTTP/1.1 400")) {
                    continue; // refused by the HTTP server before the socket
                }
                assertTrue(raw.status().startsWith("HTTP/1.1 101"), query + ": " + raw.status());
                JsonNode error = new com.fasterxml.jackson.databind.ObjectMapper().readTree(raw.frame());
                assertEquals("error", error.path("type").asText(), error.toString());
                assertEquals(400, error.path("status").asInt(), error.toString());
            }
        }
    }

    /**
     * The score to beat that a player who left sets is their score at their last placement: while their grid is held
     * back to your round, so is it. Before, it was shown whole, and its difference to the held-back score told the
     * size of a piece of a round not dealt to you yet.
     */
    @Test
    void theScoreToBeatOfAPlayerWhoLeftFromALaterRoundIsHeldBackWithTheirGrid() throws Exception {
        String behind = Tokens.player("behind-" + UUID.randomUUID());
        String gone = Tokens.player("gone-" + UUID.randomUUID());
        var match = race(behind, gone, "EASY");
        String id = match.path("id");
        String goneGame = match.path("games[1].id");
        LiveSocket socket = connectAs(id, behind);
        socket.next("state");
        // the player who leaves plays round 0 and one piece of round 1 over REST, then is never heard of again
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        for (int n = 1; n <= 4; n++) {
            JsonNode g = json.readTree(given().auth().oauth2(gone).when().get("/api/games/" + goneGame).then()
                    .statusCode(200).extract().asString());
            int[] m = firstLegal(g);
            Play.move(new Play.Started(goneGame, Play.As.player(gone), null), n, m[0], m[1], m[2]).statusCode(200);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> stored(goneGame).status == GameEntity.Status.RESIGNED);
        int left = stored(goneGame).score;

        var seen = given().auth().oauth2(behind).when().get("/api/matches/" + id).then().statusCode(200)
                .body("status", equalTo("PLAYING")).body("games[1].gridRound", equalTo(0)).extract();
        int shown = seen.path("games[1].score");
        assertTrue(shown < left, "the round-1 piece scored: " + shown + " then " + left);
        assertNull(seen.path("targetScore"), "the score to beat, " + left + ", is from round 1");
        socket.connection().closeAndAwait();
    }

    @Test
    void aRacePlayerWhoKeepsTheSocketOpenButHasNotPlayedForOpenForIsResignedAndTheMatchEnds() throws Exception {
        // before, a player behind who kept the socket open (a script is enough) was never gone, so the match never
        // finished and the other seat, ended, never had its result. The player behind, socket open, last played 31
        // minutes ago (open-for is 30 minutes)
        theSeatBehindIsResignedAndTheMatchEnds("UPDATE game SET updated_at = now() - interval '31 minutes', "
                + "created_at = now() - interval '31 minutes' WHERE id = :id", true);
    }

    /**
     * A race player behind, socket open, who places a piece every 29 minutes is never idle for open-for (30 minutes),
     * and kept the match in play, and the ended seat from its result, for ever. Once the other seat has ended for
     * open-for, the game still playing is resigned however it plays, and the best score wins.
     */
    @Test
    void aRaceGameStillPlayingOpenForAfterTheOtherSeatEndedIsResignedAndTheMatchEnds() throws Exception {
        // the seat ahead ended 31 minutes ago; the one behind played a moment ago
        theSeatBehindIsResignedAndTheMatchEnds(
                "UPDATE game SET finished_at = now() - interval '31 minutes' WHERE id = :id", false);
    }

    /**
     * A MEDIUM race whose seat 1 places a piece and resigns while seat 0, behind, keeps its socket open; then
     * {@code sql} (its {@code :id} the game behind, or else the game ahead) dates one of them: the match must end,
     * seat 1 winning and seat 0's game resigned.
     */
    private void theSeatBehindIsResignedAndTheMatchEnds(String sql, boolean datesTheGameBehind) throws Exception {
        String ahead = Tokens.player("ahead-" + UUID.randomUUID());
        String behind = Tokens.player("behind-" + UUID.randomUUID());
        var match = race(behind, ahead, "MEDIUM");
        String behindGame = match.path("games[0].id");
        String aheadGame = match.path("games[1].id");
        LiveSocket socket = connectAs(match.path("id"), behind);
        JsonNode state = socket.next("state");
        int[] m = firstLegal(state.path("match").path("games").path(1));
        Play.move(new Play.Started(aheadGame, Play.As.player(ahead), null), 1, m[0], m[1], m[2]).statusCode(200);
        given().auth().oauth2(ahead).when().post("/api/games/" + aheadGame + "/resign").then().statusCode(200);
        UUID dated = UUID.fromString(datesTheGameBehind ? behindGame : aheadGame);
        QuarkusTransaction.requiringNew().run(() -> GameEntity.getEntityManager().createNativeQuery(sql)
                .setParameter("id", dated).executeUpdate());
        JsonNode end = socket.next(f -> "state".equals(f.path("type").asText())
                && "FINISHED".equals(f.path("match").path("status").asText()));
        assertEquals(1, end.path("match").path("winnerSeat").asInt());
        assertEquals(GameEntity.Status.RESIGNED, stored(behindGame).status);
        socket.connection().closeAndAwait();
    }

    @Test
    void twoPlayersOnOneDeviceNameTheSeatOfAMoveOrResignation() throws Exception {
        var match = given().contentType(ContentType.JSON).body(Map.of("mode", "TWO_PLAYERS", "level", "HARD"))
                .when().post("/api/matches").then().statusCode(201).extract();
        String id = match.path("id");
        LiveSocket socket = connect(id, match.path("gameToken"));
        JsonNode state = socket.next("state");
        int[] m = firstLegal(state.path("match").path("games").path(1));

        socket.send(move(1, m, "2"));
        JsonNode bad = socket.next("error");
        assertEquals(400, bad.path("status").asInt());
        assertEquals("Malformed frame: \"seat\" is 0 (player 1) or 1 (player 2), got 2", bad.path("message").asText());

        socket.send(move(1, m, "1"));
        JsonNode early = socket.next("error");
        assertEquals(409, early.path("status").asInt());
        assertEquals("Player 2 plays once player 1's game has ended.", early.path("message").asText());

        socket.send(move(1, m, "0"));
        assertEquals(match.path("games[0].id"), socket.next("moved").path("result").path("game").path("id").asText());
        socket.send("{\"type\": \"resign\", \"seat\": 0}");
        JsonNode afterFirst = socket.next("state");
        assertEquals("RESIGNED", afterFirst.path("match").path("games").path(0).path("status").asText());
        assertEquals("PLAYING", afterFirst.path("match").path("games").path(1).path("status").asText());

        Thread.sleep(1500); // the test profile allows bursts of 5 frames, then 1 a second
        socket.send(move(1, m, "1"));
        JsonNode moved = socket.next("moved");
        assertEquals(match.path("games[1].id"), moved.path("result").path("game").path("id").asText());
        socket.send("{\"type\": \"resign\", \"seat\": 1}");
        JsonNode end = socket.next(f -> "state".equals(f.path("type").asText())
                && "FINISHED".equals(f.path("match").path("status").asText()));
        // the same placement on the same grid: a draw
        assertTrue(end.path("match").path("winnerSeat").isMissingNode(), end.toString());
        assertEquals("draw at " + moved.path("result").path("game").path("score").asInt(),
                end.path("match").path("result").asText());
        socket.connection().closeAndAwait();

        // in another mode a frame may name only the caller's own seat
        Map<String, String> ai = guestMatch();
        LiveSocket versus = connect(ai.get("id"), ai.get("token"));
        versus.next("state");
        versus.send("{\"type\": \"resign\", \"seat\": 1}");
        JsonNode refused = versus.next("error");
        assertEquals(403, refused.path("status").asInt());
        assertEquals("Seat 1 is not yours: this socket plays seat 0 (only a two-players match lets a frame name "
                + "either seat).", refused.path("message").asText());
        versus.send("{\"type\": \"resign\", \"seat\": 0}");
        assertEquals("RESIGNED", versus.next("state").path("match").path("games").path(0).path("status").asText());
        versus.connection().closeAndAwait();
    }

    @Test
    void inARaceThePlayerAheadShowsTheOneBehindNoGridOfALaterRoundUntilTheyCatchUp() throws Exception {
        String ahead = Tokens.player("ahead-a");
        String behind = Tokens.player("behind-b");
        var match = race(behind, ahead, "EASY");
        String id = match.path("id");
        String aheadGame = match.path("games[1].id");
        // both keep a socket open (the heartbeat keeps them in the race)
        LiveSocket behindSocket = connectAs(id, behind);
        LiveSocket aheadSocket = connectAs(id, ahead);
        JsonNode behindState = behindSocket.next("state");
        aheadSocket.next("state");
        assertEquals(0, behindState.path("match").path("yourSeat").asInt());

        // the player ahead completes round 0 and places the first piece of round 1, over REST
        JsonNode afterRound0 = null;
        JsonNode afterMove4 = null;
        for (int n = 1; n <= 4; n++) {
            JsonNode game = JSON.readTree(given().auth().oauth2(ahead).when().get("/api/games/" + aheadGame).then()
                    .statusCode(200).extract().asString());
            int[] m = firstLegal(game);
            JsonNode moved = JSON.readTree(given().auth().oauth2(ahead).contentType(ContentType.JSON)
                    .body(Map.of("moveNumber", n, "slot", m[0], "row", m[1], "col", m[2]))
                    .when().post("/api/games/" + aheadGame + "/moves").then().statusCode(200).extract().asString())
                    .path("game");
            if (n == 3) {
                afterRound0 = moved;
            }
            afterMove4 = moved;
        }
        assertEquals(1, afterMove4.path("round").asInt());
        assertTrue(!afterMove4.path("board").equals(afterRound0.path("board")));

        // the socket of the player behind (round 0): the grid and score as they were at the end of round 0 (a
        // placement's points would tell the size of a piece of round 1), the round live
        JsonNode seen = behindSocket.next(f -> "update".equals(f.path("type").asText())
                && f.path("game").path("seat").asInt() == 1 && f.path("game").path("moveNumber").asInt() == 4)
                .path("game");
        assertEquals(afterRound0.path("board"), seen.path("board"));
        assertEquals(0, seen.path("gridRound").asInt());
        assertTrue(seen.path("piece").isMissingNode() && seen.path("row").isMissingNode(), seen.toString());
        assertEquals(afterRound0.path("score").asInt(), seen.path("score").asInt());
        assertEquals(1, seen.path("round").asInt());
        // and over REST
        JsonNode held = JSON.readTree(given().auth().oauth2(behind).when().get("/api/matches/" + id).then()
                .statusCode(200).extract().asString()).path("games").path(1);
        assertEquals(afterRound0.path("board"), held.path("board"));
        assertEquals(0, held.path("gridRound").asInt());
        assertTrue(held.path("pieces").isMissingNode(), held.toString());
        assertEquals(afterRound0.path("score").asInt(), held.path("score").asInt());
        assertTrue(held.path("seed").isMissingNode());
        // the player ahead sees the one behind as is
        JsonNode other = JSON.readTree(given().auth().oauth2(ahead).when().get("/api/matches/" + id).then()
                .statusCode(200).extract().asString()).path("games").path(0);
        assertTrue(other.path("gridRound").isMissingNode());
        assertEquals(3, other.path("pieces").size());

        // the player behind completes round 0 over their socket: a state frame brings the grid held back
        JsonNode mine = behindState.path("match").path("games").path(0);
        for (int n = 1; n <= 3; n++) {
            behindSocket.send(move(n, firstLegal(mine), null));
            mine = behindSocket.next("moved").path("result").path("game");
        }
        assertEquals(1, mine.path("round").asInt());
        JsonNode caughtUp = behindSocket.next(f -> "state".equals(f.path("type").asText())
                && f.path("match").path("games").path(0).path("round").asInt() == 1)
                .path("match").path("games").path(1);
        assertEquals(afterMove4.path("board"), caughtUp.path("board"));
        assertTrue(caughtUp.path("gridRound").isMissingNode(), caughtUp.toString());
        assertEquals(afterMove4.path("pieces"), caughtUp.path("pieces"));
        behindSocket.connection().closeAndAwait();
        aheadSocket.connection().closeAndAwait();
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
