package com.bloceclat.game;

import static com.bloceclat.game.Play.As;
import static com.bloceclat.game.Play.Started;
import static com.bloceclat.game.Play.create;
import static com.bloceclat.game.Play.firstLegal;
import static com.bloceclat.game.Play.move;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.sql.DataSource;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Board;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Piece;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayValidator;
import com.bloceclat.common.security.ClientKey;
import com.bloceclat.game.service.DailyChallenge;
import com.bloceclat.game.service.GameService;
import com.bloceclat.game.service.Requester;
import com.bloceclat.testsupport.RawBodies;
import com.bloceclat.testsupport.Tokens;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.HttpClientConfig;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

@QuarkusTest
class GameResourceTest {

    /**
     * A body past 16K is refused before it is read (Quarkus's default let 10 MB in), and a level of thousands of
     * characters is not answered back whole: a request made the service parse, copy and echo all it was sent.
     */
    @Test
    void anOversizedBodyIs413AndAnOversizedLevelIsNotEchoedBack() {
        given().contentType(ContentType.JSON).body("{\"level\": \"" + "A".repeat(20_000) + "\"}")
                .when().post("/api/games").then().statusCode(413).contentType("application/problem+json")
                .body("detail", containsString("max-body-size"));
        String detail = given().contentType(ContentType.JSON).body("{\"level\": \"" + "A".repeat(15_000) + "\"}")
                .when().post("/api/games").then().statusCode(400).contentType("application/problem+json")
                .extract().path("detail");
        assertTrue(detail.startsWith("level: unknown level \"AAAA"), detail.substring(0, 40));
        assertTrue(detail.length() < 1100, "a detail of " + detail.length() + " characters");
        // sent in chunks, with no length to refuse it by: cut off at the limit, with the same problem body
        String chunked = RawBodies.chunked(RestAssured.port, "/api/games",
                ("{\"level\": \"" + "A".repeat(20_000) + "\"}").getBytes(StandardCharsets.UTF_8));
        assertTrue(chunked.startsWith("HTTP/1.1 413 ") && chunked.contains("application/problem+json")
                && chunked.contains("max-body-size"), chunked);
        // and one of no chunks is an empty body, refused as any (it hung: the body read, Quarkus REST waited for more)
        String empty = RawBodies.chunked(RestAssured.port, "/api/games", new byte[0]);
        assertTrue(empty.startsWith("HTTP/1.1 400 ") && empty.contains("application/problem+json"), empty);
    }

    @Test
    void uploadsStalledMidBodyHoldNoWorkerThread() {
        // More stalled bodies than worker threads, within the 16K limit: Quarkus REST read a blocking endpoint's body on
        // its worker thread, blocking, so they held every one, and every request a worker serves waited behind them.
        try (RawBodies stalled = RawBodies.stalled(RestAssured.port, "/api/games", RawBodies.workerThreads() + 8,
                16_000, 12_000)) {
            impatient().when().get("/api/games/" + UUID.randomUUID()).then().statusCode(404)
                    .contentType("application/problem+json");
        }
    }

    @Test
    void aClientAskingForHttp2IsAnsweredInHttp1() throws Exception {
        // Java's HttpClient asks to upgrade to cleartext HTTP/2 (h2c) with its first request, body and all: upgraded,
        // the body had been read by Vert.x already, and reading it again failed (a 500, "Request has already been read")
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port
                + "/api/games")).header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString("{\"level\": \"EASY\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, answer.statusCode(), answer.body());
        assertEquals(HttpClient.Version.HTTP_1_1, answer.version());
    }

    @Test
    void guestCreatesAGameWithTheSeedsStartBoardAndFirstPieces() {
        Game engine = new Game(42, Level.HARD);
        var created = given().contentType(ContentType.JSON).body("{\"level\": \"hard\", \"seed\": 42}")
                .when().post("/api/games")
                .then()
                .statusCode(201)
                .body("mode", equalTo("SOLO"))
                .body("level", equalTo("HARD"))
                .body("seed", equalTo(42))
                .body("status", equalTo("PLAYING"))
                .body("score", equalTo(0))
                .body("round", equalTo(0))
                .body("board", equalTo(List.of(Board.rows(engine.board()))))
                .body("pieces.id", equalTo(List.of(engine.pieces()).stream().map(Piece::name).toList()))
                .body("pieces.placed", equalTo(List.of(false, false, false)))
                .body("assisted", equalTo(false))
                .body("nextMoveNumber", equalTo(1))
                .body("gameToken", notNullValue())
                .extract();
        String id = created.path("id");
        assertTrue(created.header("Location").endsWith("/api/games/" + id));

        given().header("X-Game-Token", (String) created.path("gameToken"))
                .when().get("/api/games/" + id)
                .then().statusCode(200)
                .body("id", equalTo(id))
                .body("gameToken", nullValue())
                .body("board", equalTo(List.of(Board.rows(engine.board()))));
    }

    @Inject
    DataSource dataSource;

    @Test
    void someoneElsesRequestsNeitherWaitForAGamesLockNorTakeIt() throws Exception {
        // while the owner's move holds the game's row lock, another player's move or resignation and a guest game's
        // move with a wrong token are refused at once; before, they were locked first and refused after, so each
        // waited for the owner's change and then held up the next one (an opponent knows your game's id in a race)
        Started alices = create(As.player(Tokens.player("alice")), "EASY", 7);
        Started guests = create(As.guest(null), "EASY", 7);
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement lock = c.prepareStatement("SELECT id FROM game WHERE id IN (?, ?) FOR UPDATE")) {
                lock.setObject(1, UUID.fromString(alices.id()));
                lock.setObject(2, UUID.fromString(guests.id()));
                lock.executeQuery().close();
            }
            Map<String, Integer> move = Map.of("moveNumber", 1, "slot", 0, "row", 0, "col", 0);
            impatient().auth().oauth2(Tokens.player("bob")).contentType(ContentType.JSON).body(move)
                    .when().post("/api/games/" + alices.id() + "/moves").then().statusCode(403)
                    .body("detail", equalTo("This game belongs to another player."));
            impatient().auth().oauth2(Tokens.player("bob")).when()
                    .post("/api/games/" + alices.id() + "/resign").then().statusCode(403);
            impatient().header("X-Game-Token", "not-the-token").contentType(ContentType.JSON).body(move)
                    .when().post("/api/games/" + guests.id() + "/moves").then().statusCode(403);
            c.rollback();
        }
        int[] m = firstLegal(alices.shadow());
        move(alices, 1, m[0], m[1], m[2]).statusCode(200);
        given().auth().oauth2(Tokens.player("bob")).when().post("/api/games/" + UUID.randomUUID() + "/resign").then()
                .statusCode(404);
    }

    @Inject
    GameService games;

    @Inject
    MeterRegistry metrics;

    @Test
    void aClientGetsAtMostTwoReplaysBuiltAtOnceAndThe429SaysWhy() {
        // a long game's replay is megabytes, built and written whole; before, every request at once held its own
        // copies (the replay's JSON, a tree of it, the answer), without a bound
        Started g = create(As.guest(null), "EASY", 12);
        g.as().spec().when().post("/api/games/" + g.id() + "/resign").then().statusCode(200);
        Requester owner = new Requester(null, null, g.as().gameToken());
        String client = ClientKey.ofAddress("127.0.0.1"); // this test's requests, as a guest
        double refusedBefore = metrics.counter("game.in.flight.refused", "kind", "replays").count();
        String refused = games.replay(UUID.fromString(g.id()), owner, client, first ->
                games.replay(UUID.fromString(g.id()), owner, client, second ->
                        g.as().spec().when().get("/api/games/" + g.id() + "/replay").then().statusCode(429)
                                .contentType("application/problem+json").header("Retry-After", "1")
                                .extract().path("detail")));
        assertEquals("Too many replays at once: at most 2 being built for one client; ask again once one is given.",
                refused);
        assertEquals(refusedBefore + 1, metrics.counter("game.in.flight.refused", "kind", "replays").count(),
                "counted for operators: game_in_flight_refused_total{kind=\"replays\"}");
        // another client is not held back meanwhile, and once they are written the next is served
        games.replay(UUID.fromString(g.id()), owner, "address:192.0.2.1", first ->
                games.replay(UUID.fromString(g.id()), owner, "address:192.0.2.1", second ->
                        g.as().spec().when().get("/api/games/" + g.id() + "/replay").then().statusCode(200)));
        g.as().spec().when().get("/api/games/" + g.id() + "/replay").then().statusCode(200)
                .body("seed", equalTo(12)).body("level", equalTo("EASY")).body("events", hasSize(0))
                .body("start", equalTo(List.of(Board.rows(new Game(12, Level.EASY).board()))));
    }

    /**
     * Anyone may read a finished game's replay, and a long one the replica lacks is read from its events: a client may
     * ask for {@code bloc.limits.replays-per-minute-per-client} (30) a minute, then 429 with Retry-After, before any
     * work (no game is looked up: an unknown id is refused too). Other clients are not held back.
     */
    @Test
    void aClientAsksForAtMostThirtyReplaysAMinute() {
        As nia = As.player(Tokens.player("nia-" + UUID.randomUUID()));
        var created = nia.spec().contentType(ContentType.JSON).body("{\"level\": \"MEDIUM\"}")
                .when().post("/api/games").then().statusCode(201).extract();
        String id = created.path("id");
        nia.spec().when().post("/api/games/" + id + "/resign").then().statusCode(200);
        double refusedBefore = metrics.counter("game.rate.refused", "kind", "replays").count();
        // 30 at once, then one more every 2 s: answered until the burst is spent (a slow machine gets the one or two
        // the rate gave back meanwhile), then refused. Past the 30th the ids are of no game: answered 404 while the
        // burst lasts, so the refusal comes before any lookup (one request, not a second after it, which the rate
        // might have let through meanwhile)
        long start = System.nanoTime();
        int answered = 0;
        var last = nia.spec().when().get("/api/games/" + id + "/replay").then().extract();
        while (last.statusCode() != 429 && answered < 100) {
            assertEquals(answered < 30 ? 200 : 404, last.statusCode(), "request " + answered);
            answered++;
            String asked = answered < 30 ? id : UUID.randomUUID().toString();
            last = nia.spec().when().get("/api/games/" + asked + "/replay").then().extract();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(answered >= 30 && answered <= 30 + seconds / 2 + 1, answered + " answered in " + seconds + " s");
        assertTrue(last.contentType().startsWith("application/problem+json"), last.contentType());
        assertEquals("2", last.header("Retry-After"));
        String detail = last.path("detail");
        assertEquals("Too many replays: at most 30 a minute for one client; ask again in 2 s.", detail);
        assertEquals(refusedBefore + 1, metrics.counter("game.rate.refused", "kind", "replays").count(),
                "counted for operators: game_rate_refused_total{kind=\"replays\"}");
        As.player(Tokens.player("nia-friend-" + UUID.randomUUID())).spec().when().get("/api/games/" + id + "/replay")
                .then().statusCode(200);
    }

    /**
     * A client's start that finds another start of the same client counting its limits is refused at once: it waited
     * for that start's lock holding a pool connection, so one client's starts sent all at once filled the pool (an
     * attacker's review). Here the client's lock is held by the test, as by a start of theirs that takes long.
     */
    @Test
    void aStartWhileAnotherStartOfTheSameClientIsBeingMadeIsRefusedAtOnceNotQueued() throws Exception {
        try (HeldLock busy = new HeldLock(ClientKey.ofSubject("sub-busy-starter"))) {
            impatient().auth().oauth2(Tokens.player("busy-starter")).contentType(ContentType.JSON)
                    .body("{\"level\": \"EASY\"}").when().post("/api/games").then().statusCode(429)
                    .header("Retry-After", "1").contentType("application/problem+json")
                    .body("detail", equalTo("Another start of this client is being made: one at a time; try again "
                            + "in a second."));
        }
        // once that start has ended, the next one is made
        given().auth().oauth2(Tokens.player("busy-starter")).contentType(ContentType.JSON)
                .body("{\"level\": \"EASY\"}").when().post("/api/games").then().statusCode(201);
    }

    /** A request that fails after 5 s without an answer, instead of waiting as long as the service does. */
    private static RequestSpecification impatient() {
        return given().config(RestAssured.config().httpClient(HttpClientConfig.httpClientConfig()
                .setParam("http.socket.timeout", 5000)));
    }

    @Inject
    TestClock clock;

    @AfterEach
    void putTheClockBack() {
        clock.reset();
    }

    @Test
    void aServerSeedIsShownInNoAnswerBeforeTheGameHasEndedAndThenIsTheSeedPlayed() {
        As harry = As.player(Tokens.player("harry"));
        var created = harry.spec().contentType(ContentType.JSON).body("{\"level\": \"MEDIUM\"}")
                .when().post("/api/games").then().statusCode(201)
                .body("seed", nullValue()).body("seedSource", equalTo("SERVER")).body("day", nullValue())
                .extract();
        String id = created.path("id");
        List<String> startBoard = created.path("board");
        List<String> firstPieces = created.path("pieces.id");
        Started g = new Started(id, harry, null);

        int[] m = Play.firstLegal(startBoard, created.path("pieces"));
        move(g, 1, m[0], m[1], m[2]).statusCode(200)
                .body("game.seed", nullValue()).body("game.seedSource", equalTo("SERVER"));
        move(g, 1, m[0], m[1], m[2]).statusCode(200).body("repeated", equalTo(true)).body("game.seed", nullValue());
        harry.spec().when().get("/api/games/" + id).then().statusCode(200)
                .body("seed", nullValue()).body("seedSource", equalTo("SERVER"));
        harry.spec().when().get("/api/games/" + id + "/replay").then().statusCode(409);

        Number seed = harry.spec().when().post("/api/games/" + id + "/resign").then().statusCode(200)
                .body("seed", notNullValue()).body("seedSource", equalTo("SERVER")).extract().path("seed");
        harry.spec().when().get("/api/games/" + id).then().body("seed", equalTo(seed));
        // the seed shown is the one the game was dealt from
        Game dealt = new Game(seed.longValue(), Level.MEDIUM);
        assertEquals(List.of(Board.rows(dealt.board())), startBoard);
        assertEquals(List.of(dealt.pieces()).stream().map(Piece::name).toList(), firstPieces);
        harry.spec().when().get("/api/games/" + id + "/replay").then().statusCode(200)
                .body("seed", equalTo(seed));
    }

    /**
     * The link a player shares after a game (the web UI's "Share": {@code #/replay/<id>}) opens its replay for anyone
     * who has it once the seed may be shown; before that, another player gets 403 as for the game itself, and learns
     * nothing of its state. It was the owner's alone, so the link worked for no one it was shared with.
     */
    @Test
    void aFinishedGamesReplayIsServedToAnyoneWithItsLinkOnceItsSeedMayBeShown() {
        As lou = As.player(Tokens.player("lou"));
        As other = As.player(Tokens.player("mia"));
        As anyone = new As(null, null);
        var created = lou.spec().contentType(ContentType.JSON).body("{\"level\": \"MEDIUM\"}")
                .when().post("/api/games").then().statusCode(201).extract();
        String id = created.path("id");
        int[] m = Play.firstLegal(created.path("board"), created.path("pieces"));
        move(new Started(id, lou, null), 1, m[0], m[1], m[2]).statusCode(200);
        for (As stranger : List.of(other, anyone)) {
            stranger.spec().when().get("/api/games/" + id + "/replay").then().statusCode(403)
                    .contentType("application/problem+json");
        }
        Number seed = lou.spec().when().post("/api/games/" + id + "/resign").then().statusCode(200)
                .extract().path("seed");
        String owners = lou.spec().when().get("/api/games/" + id + "/replay").then().statusCode(200)
                .body("seed", equalTo(seed)).extract().asString();
        // docs/security.md: a replay carries no player's name or account, for anyone may read it
        assertFalse(owners.contains("lou"), owners);
        for (As stranger : List.of(other, anyone)) {
            assertEquals(owners, stranger.spec().when().get("/api/games/" + id + "/replay").then().statusCode(200)
                    .extract().asString());
            // the replay only: the game itself stays its player's
            stranger.spec().when().get("/api/games/" + id).then().statusCode(403);
        }

        // a guest's finished game, without its game token
        var guest = given().contentType(ContentType.JSON).body("{\"level\": \"EASY\"}")
                .when().post("/api/games").then().statusCode(201).extract();
        As.guest(guest.path("gameToken")).spec().when().post("/api/games/" + guest.path("id") + "/resign").then()
                .statusCode(200);
        anyone.spec().when().get("/api/games/" + guest.path("id") + "/replay").then().statusCode(200)
                .body("level", equalTo("EASY"));

        // a daily game's: nobody's before its day is over, its player's own 409, then anyone's
        var daily = lou.spec().contentType(ContentType.JSON).body("{\"level\": \"EXPERT\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(201).extract();
        String dailyId = daily.path("id");
        lou.spec().when().post("/api/games/" + dailyId + "/resign").then().statusCode(200);
        lou.spec().when().get("/api/games/" + dailyId + "/replay").then().statusCode(409);
        other.spec().when().get("/api/games/" + dailyId + "/replay").then().statusCode(403);
        clock.advance(Duration.ofDays(1));
        other.spec().when().get("/api/games/" + dailyId + "/replay").then().statusCode(200)
                .body("seed", equalTo(DailyChallenge.seed(TestKeys.dailySecret(),
                        LocalDate.parse(daily.path("day")), Level.EXPERT)));
        anyone.spec().when().get("/api/games/" + UUID.randomUUID() + "/replay").then().statusCode(404);
    }

    /**
     * docs/game-service.md "Who may play a game": a guest's game token is 32 random bytes (base64url, 43 characters),
     * answered once; the database keeps only its SHA-256, so whoever reads the table cannot play the game with it.
     */
    @Test
    void aGuestsGameTokenIsThirtyTwoRandomBytesAndOnlyItsHashIsKept() {
        var created = given().contentType(ContentType.JSON).body("{\"level\": \"EASY\"}")
                .when().post("/api/games").then().statusCode(201).extract();
        String token = created.path("gameToken");
        assertEquals(32, Base64.getUrlDecoder().decode(token).length);
        String stored = QuarkusTransaction.requiringNew().call(
                () -> GameEntity.<GameEntity>findById(UUID.fromString(created.path("id"))).guestTokenHash);
        assertNotEquals(token, stored);
        assertEquals(HexFormat.of().formatHex(sha256(token)), stored);
        // the hash is no key: sent as the token, it is refused
        given().header("X-Game-Token", stored).when().get("/api/games/" + created.path("id")).then().statusCode(403);
        As.guest(token).spec().when().post("/api/games/" + created.path("id") + "/resign").then().statusCode(200);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aChosenSeedIsPlayedNormallyAndShown() {
        given().auth().oauth2(Tokens.player("ivy")).contentType(ContentType.JSON)
                .body("{\"level\": \"EXPERT\", \"seed\": 1234}")
                .when().post("/api/games").then().statusCode(201)
                .body("seed", equalTo(1234)).body("seedSource", equalTo("CHOSEN")).body("day", nullValue())
                .body("board", equalTo(List.of(Board.rows(new Game(1234, Level.EXPERT).board()))));
    }

    @Test
    void aDailyGameShowsNoSeedNorReplayUntilItsDayIsOverEvenOnceItHasEnded() {
        As jane = As.player(Tokens.player("jane"));
        var created = jane.spec().contentType(ContentType.JSON).body("{\"level\": \"HARD\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(201)
                .body("seed", nullValue()).body("seedSource", equalTo("DAILY")).body("day", notNullValue())
                .extract();
        String id = created.path("id");
        LocalDate day = LocalDate.parse(created.path("day"));
        Started g = new Started(id, jane, null);
        int[] m = Play.firstLegal(created.path("board"), created.path("pieces"));
        move(g, 1, m[0], m[1], m[2]).statusCode(200).body("game.seed", nullValue());
        jane.spec().when().post("/api/games/" + id + "/resign").then().statusCode(200)
                .body("status", equalTo("RESIGNED")).body("seed", nullValue()).body("day", equalTo(day.toString()));
        jane.spec().when().get("/api/games/" + id).then().statusCode(200).body("seed", nullValue());
        jane.spec().when().get("/api/games/" + id + "/replay").then().statusCode(409)
                .contentType("application/problem+json")
                .body("detail", equalTo("The replay of a daily game is served once its day is over, at "
                        + day.plusDays(1) + "T00:00:00Z: it carries the seed, which is everyone's seed on " + day
                        + "."));
        clock.advance(Duration.ofDays(1));
        long expected = DailyChallenge.seed(TestKeys.dailySecret(), day, Level.HARD);
        jane.spec().when().get("/api/games/" + id).then().statusCode(200).body("seed", equalTo(expected));
        jane.spec().when().get("/api/games/" + id + "/replay").then().statusCode(200).body("seed", equalTo(expected));
    }

    @Test
    void theDailySeedIsEveryonesThatDayAndLevelFromTheSecretNotThePublicFormula() {
        var guest = given().contentType(ContentType.JSON).body("{\"level\": \"EXPERT\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(201).body("seed", nullValue()).extract();
        As kim = As.player(Tokens.player("kim"));
        var player = kim.spec().contentType(ContentType.JSON).body("{\"level\": \"EXPERT\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(201).body("seed", nullValue()).extract();
        var easy = kim.spec().contentType(ContentType.JSON).body("{\"level\": \"EASY\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(201).extract();
        assertEquals((Object) guest.path("board"), player.path("board"));
        assertEquals((Object) guest.path("pieces.id"), player.path("pieces.id"));
        LocalDate day = LocalDate.parse(player.path("day"));

        As guestOwner = As.guest(guest.path("gameToken"));
        guestOwner.spec().when().post("/api/games/" + guest.path("id") + "/resign").then().statusCode(200);
        kim.spec().when().post("/api/games/" + player.path("id") + "/resign").then().statusCode(200);
        kim.spec().when().post("/api/games/" + easy.path("id") + "/resign").then().statusCode(200);
        clock.advance(Duration.ofDays(1));
        long expert = ((Number) guestOwner.spec().when().get("/api/games/" + guest.path("id")).then()
                .statusCode(200).extract().path("seed")).longValue();
        kim.spec().when().get("/api/games/" + player.path("id")).then().body("seed", equalTo(expert));
        long easySeed = ((Number) kim.spec().when().get("/api/games/" + easy.path("id")).then().extract()
                .path("seed")).longValue();
        assertEquals(DailyChallenge.seed(TestKeys.dailySecret(), day, Level.EXPERT), expert);
        assertEquals(DailyChallenge.seed(TestKeys.dailySecret(), day, Level.EASY), easySeed);
        assertNotEquals(expert, easySeed);
        assertNotEquals(oldPublicDailySeed(day, Level.EXPERT), expert);
        assertNotEquals(oldPublicDailySeed(day, Level.EASY), easySeed);
        // the next day's game is another seed
        var next = kim.spec().contentType(ContentType.JSON).body("{\"level\": \"EXPERT\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(201).body("day", equalTo(day.plusDays(1).toString()))
                .extract();
        assertEquals(List.of(Board.rows(new Game(DailyChallenge.seed(TestKeys.dailySecret(), day.plusDays(1),
                Level.EXPERT), Level.EXPERT).board())), next.path("board"));
    }

    @Test
    void theDailyEndpointSaysTodayAndWhichLevelsThePlayerStartedAndFinished() {
        String lena = Tokens.player("lena");
        var today = given().auth().oauth2(lena).when().get("/api/daily").then().statusCode(200)
                .body("levels.level", equalTo(List.of("EASY", "MEDIUM", "HARD", "EXPERT", "DIABOLICAL")))
                .body("levels.started", equalTo(List.of(false, false, false, false, false)))
                .body("levels.finished", equalTo(List.of(false, false, false, false, false))).extract();
        LocalDate day = LocalDate.parse(today.path("day"));
        assertEquals(day.plusDays(1) + "T00:00:00Z", today.path("endsAt"));

        String id = given().auth().oauth2(lena).contentType(ContentType.JSON)
                .body("{\"level\": \"MEDIUM\", \"daily\": true}").when().post("/api/games").then()
                .statusCode(201).extract().path("id");
        // a game still being played is started, not finished; a chosen seed on the same level is no daily game
        given().auth().oauth2(lena).when().get("/api/daily").then().body("levels[1].finished", equalTo(false))
                .body("levels.started", equalTo(List.of(false, true, false, false, false)));
        Started chosen = create(As.player(lena), "HARD", 77);
        chosen.as().spec().when().post("/api/games/" + chosen.id() + "/resign").then().statusCode(200);
        given().auth().oauth2(lena).when().post("/api/games/" + id + "/resign").then().statusCode(200);
        given().auth().oauth2(lena).when().get("/api/daily").then()
                .body("levels.finished", equalTo(List.of(false, true, false, false, false)));
        given().when().get("/api/daily").then().statusCode(200).body("day", equalTo(day.toString()))
                .body("levels", hasSize(5)).body("levels.findAll { it.containsKey('finished') }", hasSize(0))
                .body("levels.findAll { it.containsKey('started') }", hasSize(0));

        clock.advance(Duration.ofDays(1));
        given().auth().oauth2(lena).when().get("/api/daily").then().body("day", equalTo(day.plusDays(1).toString()))
                .body("levels.finished", equalTo(List.of(false, false, false, false, false)));
    }

    /** The daily seed before this version: a public formula, so anyone could deal any day in advance. */
    private static long oldPublicDailySeed(LocalDate day, Level level) {
        return UUID.nameUUIDFromBytes(("bloc-eclat daily " + day + " " + level.name())
                .getBytes(StandardCharsets.UTF_8)).getMostSignificantBits();
    }

    @Test
    void badCreationRequestsAreExplained() {
        given().contentType(ContentType.JSON).body("{\"level\": \"IMPOSSIBLE\"}")
                .when().post("/api/games").then().statusCode(400)
                .contentType("application/problem+json")
                .body("detail", containsString("unknown level \"IMPOSSIBLE\""));
        given().contentType(ContentType.JSON).body("{}")
                .when().post("/api/games").then().statusCode(400)
                .body("detail", containsString("level: name a level"));
        given().contentType(ContentType.JSON).body("{\"level\": \"HARD\", \"seed\": 3, \"daily\": true}")
                .when().post("/api/games").then().statusCode(400)
                .body("detail", equalTo("Choose either a seed or the daily game, not both."));
        given().contentType(ContentType.JSON).body("{\"level\": ")
                .when().post("/api/games").then().statusCode(400)
                .body("detail", containsString("Malformed JSON"));
        given().contentType(ContentType.JSON).body("{\"level\": \"HARD\", \"seed\": \"abc\"}")
                .when().post("/api/games").then().statusCode(400);
        given().contentType(ContentType.JSON).body("{\"level\": \"HARD\", \"practice\": true}")
                .when().post("/api/games").then().statusCode(400).contentType("application/problem+json")
                .body("detail", equalTo("practice is for the daily game: send it with daily: true."));
    }

    @Test
    void aMoveAnswersWhatHappenedAndTheNewState() {
        Started g = create(As.guest(null), "MEDIUM", 7);
        int[] m = firstLegal(g.shadow());
        Game.Move expected = g.shadow().place(m[0], m[1], m[2]);
        Rules.Outcome o = expected.outcome();
        move(g, 1, m[0], m[1], m[2])
                .statusCode(200)
                .body("repeated", equalTo(false))
                .body("move.moveNumber", equalTo(1))
                .body("move.slot", equalTo(m[0]))
                .body("move.piece", equalTo(expected.piece().name()))
                .body("move.placed", hasSize(Long.bitCount(o.placed())))
                .body("move.cleared", hasSize(Long.bitCount(o.cleared())))
                .body("move.lines", equalTo(o.lines()))
                .body("move.cellPoints", equalTo(o.cellPoints()))
                .body("move.multiplier", equalTo(o.multiplier()))
                .body("move.linePoints", equalTo(o.linePoints()))
                .body("move.cleanBonus", equalTo(o.cleanBonus()))
                .body("move.points", equalTo(o.points()))
                .body("game.score", equalTo(g.shadow().score()))
                .body("game.board", equalTo(List.of(Board.rows(g.shadow().board()))))
                .body("game.pieces[" + m[0] + "].placed", equalTo(true))
                .body("game.nextMoveNumber", equalTo(2));
    }

    @Test
    void aRepeatedMoveIsAnsweredNotAppliedTwice() {
        Started g = create(As.player(Tokens.player("dora")), "HARD", 11);
        int[] m = firstLegal(g.shadow());
        g.shadow().place(m[0], m[1], m[2]);
        String first = move(g, 1, m[0], m[1], m[2]).statusCode(200).extract().path("game.board").toString();
        move(g, 1, m[0], m[1], m[2])
                .statusCode(200)
                .body("repeated", equalTo(true))
                .body("game.board.toString()", equalTo(first))
                .body("game.score", equalTo(g.shadow().score()))
                .body("game.nextMoveNumber", equalTo(2));
        g.as().spec().when().get("/api/games/" + g.id()).then()
                .body("score", equalTo(g.shadow().score()))
                .body("pieces.placed.findAll { it }", hasSize(1));

        int[] other = firstLegal(g.shadow());
        move(g, 1, other[0], other[1], other[2])
                .statusCode(409)
                .body("detail", equalTo("Move 1 was already played, as slot " + m[0] + " at (" + m[1] + "," + m[2]
                        + "); the next move number is 2."));
        move(g, 5, other[0], other[1], other[2])
                .statusCode(409)
                .body("detail", equalTo("Move number 5 is out of order: the next move number is 2."));
    }

    @Test
    void illegalAndMalformedMovesAreRefusedWithAReason() {
        Started g = create(As.guest(null), "HARD", 5);
        int[] m = firstLegal(g.shadow());
        Piece piece = g.shadow().pieces()[m[0]];
        g.shadow().place(m[0], m[1], m[2]);
        move(g, 1, m[0], m[1], m[2]).statusCode(200);

        move(g, 2, m[0], m[1], m[2]).statusCode(409)
                .contentType("application/problem+json")
                .body("detail", equalTo("Illegal move: the piece in slot " + m[0] + " of round 0 is already placed."));
        int[] overlap = overlapping(g.shadow());
        Piece other = g.shadow().pieces()[overlap[0]];
        move(g, 2, overlap[0], overlap[1], overlap[2]).statusCode(409)
                .body("detail", equalTo("Illegal move: " + other.name() + " at (" + overlap[1] + "," + overlap[2]
                        + ") " + Rules.illegalReason(g.shadow().board(), other, overlap[1], overlap[2]) + "."));

        g.as().spec().contentType(ContentType.JSON).body(Map.of("moveNumber", 2, "slot", 3, "row", 8, "col", -1))
                .when().post("/api/games/" + g.id() + "/moves").then().statusCode(400)
                .body("detail", equalTo("col: must be between 0 and 7; row: must be between 0 and 7; "
                        + "slot: must be 0, 1 or 2"));
        g.as().spec().contentType(ContentType.JSON).body("{\"slot\": 1, \"row\": 1, \"col\": 1}")
                .when().post("/api/games/" + g.id() + "/moves").then().statusCode(400)
                .body("detail", containsString("moveNumber: is required"));
        g.as().spec().contentType(ContentType.JSON).body("{\"moveNumber\": 0, \"slot\": 1, \"row\": 1, \"col\": 1}")
                .when().post("/api/games/" + g.id() + "/moves").then().statusCode(400)
                .body("detail", equalTo("moveNumber: starts at 1"));
        g.as().spec().contentType(ContentType.JSON).body("[1, 2]")
                .when().post("/api/games/" + g.id() + "/moves").then().statusCode(400);
        g.as().spec().contentType(ContentType.JSON).body("not json")
                .when().post("/api/games/" + g.id() + "/moves").then().statusCode(400)
                .body("detail", containsString("Malformed JSON"));
        // nothing of that changed the game
        g.as().spec().when().get("/api/games/" + g.id()).then().body("nextMoveNumber", equalTo(2))
                .body("board", equalTo(List.of(Board.rows(g.shadow().board())))).body("score", equalTo(g.shadow().score()));
    }

    /**
     * A body is read as strictly as a socket frame: a fraction, a quoted number, a number for true or false, an unknown
     * field (a typo) or anything after the object is a 400 naming the field, and changes nothing. Before, Jackson's
     * defaults played {moveNumber 1.9, slot -0.5, row "6", col 6.99} as move 1 of slot 0 at (6, 6), started a game
     * on seed 1 for 1.5, and a server-seeded game for "dialy".
     */
    @Test
    void aBodyOfTheWrongKindIsRefusedNotRoundedOrIgnored() {
        Started g = create(As.guest(null), "EASY", 6);
        int[] m = firstLegal(g.shadow());
        String path = "/api/games/" + g.id() + "/moves";
        String[][] bad = {
                {"{\"moveNumber\":1.9,\"slot\":" + m[0] + ",\"row\":" + m[1] + ",\"col\":" + m[2] + "}",
                        "Field \"moveNumber\" must be a whole number"},
                {"{\"moveNumber\":1,\"slot\":" + m[0] + ",\"row\":\"" + m[1] + "\",\"col\":" + m[2] + "}",
                        "Field \"row\" must be a whole number"},
                {"{\"moveNumber\":1,\"slot\":" + m[0] + ".0,\"row\":" + m[1] + ",\"col\":" + m[2] + "}",
                        "Field \"slot\" must be a whole number"},
                {"{\"moveNumber\":1,\"slot\":" + m[0] + ",\"row\":" + m[1] + ",\"col\":" + m[2] + ",\"cell\":3}",
                        "Unknown field \"cell\": the body takes col, moveNumber, row, slot"},
                {"{\"moveNumber\":1,\"slot\":" + m[0] + ",\"row\":" + m[1] + ",\"col\":" + m[2] + "} {}",
                        "Malformed JSON: the body must be one JSON object"},
                {"[1]", "Malformed JSON: the body must be one JSON object"},
                {"{\"" + "q".repeat(5000) + "\":1}", "Unknown field \"" + "q".repeat(64) + "…\": the body takes"},
        };
        for (String[] body : bad) {
            g.as().spec().contentType(ContentType.JSON).body(body[0]).when().post(path).then().statusCode(400)
                    .contentType("application/problem+json").body("detail", startsWith(body[1]))
                    .body("detail", not(containsString("com.bloceclat")));
        }
        g.as().spec().when().get("/api/games/" + g.id()).then().body("nextMoveNumber", equalTo(1));

        given().contentType(ContentType.JSON).body("{\"level\":\"HARD\",\"seed\":1.5}").when().post("/api/games")
                .then().statusCode(400).body("detail", equalTo("Field \"seed\" must be a whole number"));
        given().contentType(ContentType.JSON).body("{\"level\":\"HARD\",\"dialy\":true}").when().post("/api/games")
                .then().statusCode(400)
                .body("detail", equalTo("Unknown field \"dialy\": the body takes daily, level, practice, seed"));
        given().contentType(ContentType.JSON).body("{\"level\":\"HARD\",\"daily\":1}").when().post("/api/games")
                .then().statusCode(400).body("detail", equalTo("Field \"daily\" must be true or false"));
        given().contentType(ContentType.JSON).body("{\"level\":7}").when().post("/api/games")
                .then().statusCode(400).body("detail", equalTo("Field \"level\" must be text"));
    }

    @Test
    void aGameIsItsOwnersAlone() {
        Started alices = create(As.player(Tokens.player("alice")), "HARD", 1);
        given().auth().oauth2(Tokens.player("bob")).when().get("/api/games/" + alices.id())
                .then().statusCode(403).body("detail", equalTo("This game belongs to another player."));
        given().when().get("/api/games/" + alices.id()).then().statusCode(403);
        given().auth().oauth2(Tokens.player("bob")).contentType(ContentType.JSON)
                .body(Map.of("moveNumber", 1, "slot", 0, "row", 0, "col", 0))
                .when().post("/api/games/" + alices.id() + "/moves").then().statusCode(403);
        given().auth().oauth2(Tokens.player("alice")).when().get("/api/games/" + alices.id()).then().statusCode(200);

        Started guests = create(As.guest(null), "HARD", 1);
        given().when().get("/api/games/" + guests.id()).then().statusCode(403)
                .body("detail", containsString("X-Game-Token"));
        given().header("X-Game-Token", "not-the-token").when().get("/api/games/" + guests.id())
                .then().statusCode(403);
        given().auth().oauth2(Tokens.player("alice")).when().get("/api/games/" + guests.id())
                .then().statusCode(403);

        given().when().get("/api/games/7d1f5e0e-0000-4000-8000-000000000000").then().statusCode(404)
                .contentType("application/problem+json")
                .body("detail", equalTo("There is no game 7d1f5e0e-0000-4000-8000-000000000000."));
        given().when().get("/api/games/not-a-uuid").then().statusCode(404)
                .body("detail", equalTo("There is no game 'not-a-uuid': game ids are UUIDs."));
        given().auth().oauth2(Tokens.forged("alice")).when().get("/api/games/" + alices.id()).then().statusCode(401);
    }

    @Test
    void undoTakesBackTheLastMoveOfTheRoundAndMarksTheGameAssisted() {
        Started g = create(As.guest(null), "EASY", 3);
        Game before = new Game(3, Level.EASY);
        Play.playOne(g, 1);
        int[] second = firstLegal(g.shadow());
        g.shadow().place(second[0], second[1], second[2]);
        move(g, 2, second[0], second[1], second[2]).statusCode(200).body("game.undoMoveNumber", equalTo(2))
                .body("game.version", equalTo(2));

        undo(g, 1).statusCode(409).body("detail", equalTo("Only the last move of this round, move 2, can be taken back."));
        undo(g, 9).statusCode(409).body("detail", equalTo("There is no move 9 to undo."));
        undo(g, 2).statusCode(200).body("assisted", equalTo(true)).body("pieces[" + second[0] + "].placed",
                equalTo(false)).body("nextMoveNumber", equalTo(3)).body("undoMoveNumber", equalTo(1));
        undo(g, 2).statusCode(200).body("assisted", equalTo(true)); // repeated: answered, not applied again
        undo(g, 1).statusCode(200).body("score", equalTo(0)).body("undoMoveNumber", nullValue())
                .body("board", equalTo(List.of(Board.rows(before.board()))));
        undo(g, 1).statusCode(200);
        g.as().spec().contentType(ContentType.JSON).body("{}").when().post("/api/games/" + g.id() + "/undo")
                .then().statusCode(400).body("detail", containsString("moveNumber: is required"));

        // a whole round played: its moves can no longer be undone
        Game shadow = new Game(3, Level.EASY);
        Started again = new Started(g.id(), g.as(), shadow);
        Play.playOne(again, 3);
        Play.playOne(again, 4);
        Play.playOne(again, 5);
        assertEquals(1, shadow.round());
        g.as().spec().when().get("/api/games/" + g.id()).then().body("undoMoveNumber", nullValue());
        undo(again, 5).statusCode(409)
                .body("detail", equalTo("Nothing to undo in round 1: undo never goes back across a deal."));
    }

    @Test
    void aHintComesFromSolverServiceAndMarksTheGameAssisted() {
        Started g = create(As.guest(null), "HARD", 8);
        Play.playOne(g, 1);
        var hint = g.as().spec().when().post("/api/games/" + g.id() + "/hint").then().statusCode(200)
                .body("game.assisted", equalTo(true))
                .body("placements", hasSize(2))
                .extract();
        List<Integer> slots = hint.path("placements.slot");
        List<Integer> rows = hint.path("placements.row");
        List<Integer> cols = hint.path("placements.col");
        // the suggestion is playable as it stands
        for (int i = 0; i < slots.size(); i++) {
            g.shadow().place(slots.get(i), rows.get(i), cols.get(i));
            move(g, 2 + i, slots.get(i), rows.get(i), cols.get(i)).statusCode(200)
                    .body("game.assisted", equalTo(true));
        }
        assertEquals(1, g.shadow().round());
    }

    @Test
    void resignEndsTheGameAndTheReplayIsServedOnlyOnceItIsFinished() {
        Started g = create(As.player(Tokens.player("erin")), "HARD", 21);
        Play.playOne(g, 1);
        g.as().spec().when().get("/api/games/" + g.id() + "/replay").then().statusCode(409)
                .body("detail", containsString("once the game is finished"));
        g.as().spec().when().post("/api/games/" + g.id() + "/resign").then().statusCode(200)
                .body("status", equalTo("RESIGNED")).body("seed", equalTo(21)).body("finishedAt", notNullValue());
        g.as().spec().when().post("/api/games/" + g.id() + "/resign").then().statusCode(409)
                .body("detail", equalTo("The game was resigned."));
        int[] next = firstLegal(g.shadow());
        move(g, 2, next[0], next[1], next[2]).statusCode(409).body("detail", equalTo("The game was resigned."));
        undo(g, 1).statusCode(409);
        g.as().spec().when().post("/api/games/" + g.id() + "/hint").then().statusCode(409);

        String replay = g.as().spec().when().get("/api/games/" + g.id() + "/replay").then().statusCode(200)
                .body("start", equalTo(List.of(Board.rows(new Game(g.shadow().seed(), g.shadow().level()).board()))))
                .extract().asString();
        ReplayValidator.Result result = ReplayValidator.validate(Replay.fromJson(replay));
        assertTrue(result.valid(), result.error());
        assertEquals(g.shadow().score(), result.score());
        assertEquals(false, result.gameOver());
    }

    @Test
    void aGamePlayedToTheEndIsOverAndItsReplayValidates() {
        Started g = create(As.guest(null), "DIABOLICAL", 99);
        int last = Play.playToTheEnd(g, 1);
        g.as().spec().when().get("/api/games/" + g.id()).then()
                .body("status", equalTo("OVER")).body("gameOver", equalTo(true))
                .body("score", equalTo(g.shadow().score()));
        int[] any = {0, 0, 0};
        move(g, last + 1, any[0], any[1], any[2]).statusCode(409).body("detail", containsString("The game is over"));
        // the move that ended the game, repeated, is still answered
        var lastPlace = (com.bloceclat.engine.replay.Event.Place) g.shadow().events().get(last - 1);
        move(g, last, lastPlace.slot(), lastPlace.row(), lastPlace.col()).statusCode(200)
                .body("repeated", equalTo(true)).body("move.gameOver", equalTo(true));
        String replay = g.as().spec().when().get("/api/games/" + g.id() + "/replay").then().statusCode(200)
                .extract().asString();
        ReplayValidator.Result result = ReplayValidator.validate(Replay.fromJson(replay));
        assertTrue(result.valid(), result.error());
        assertTrue(result.gameOver());
        assertEquals(g.shadow().score(), result.score());
        assertNotNull(replay);
    }

    private static io.restassured.response.ValidatableResponse undo(Started g, int moveNumber) {
        return g.as().spec().contentType(ContentType.JSON).body(Map.of("moveNumber", moveNumber))
                .when().post("/api/games/" + g.id() + "/undo").then();
    }

    /** A placement on the board whose only fault is covering a filled cell. */
    private static int[] overlapping(Game game) {
        Piece[] remaining = game.remaining();
        for (int slot = 0; slot < remaining.length; slot++) {
            if (remaining[slot] == null) {
                continue;
            }
            for (int row = 0; row < 8; row++) {
                for (int col = 0; col < 8; col++) {
                    if (remaining[slot].onBoard(row, col)
                            && Rules.illegalReason(game.board(), remaining[slot], row, col) != null) {
                        return new int[] {slot, row, col};
                    }
                }
            }
        }
        throw new AssertionError("no overlapping placement on\n" + Board.text(game.board()));
    }
}
