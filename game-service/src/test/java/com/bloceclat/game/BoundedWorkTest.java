package com.bloceclat.game;

import static com.bloceclat.game.Play.As;
import static com.bloceclat.game.Play.Started;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import com.bloceclat.testsupport.PostgresResource;
import com.bloceclat.game.live.RaceHeartbeat;
import com.bloceclat.game.live.SocketPings;
import com.bloceclat.game.messaging.OutboxBacklog;
import com.bloceclat.game.messaging.OutboxRelay;
import com.bloceclat.game.service.AiClaims;
import com.bloceclat.game.service.GameRetention;
import com.bloceclat.game.service.RaceReaper;
import com.bloceclat.testsupport.Tokens;

import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

/**
 * Bounded work (docs/game-service.md "Limits"), with small limits so that reaching them takes a few requests: caps
 * per game (events, undos, hints: 409), limits per client (open games and versus-AI matches: 429 with Retry-After),
 * and, last (it stops this profile's PostgreSQL for good), the database gone: 503 with Retry-After from every
 * endpoint, never a 500.
 */
@QuarkusTest
@TestProfile(BoundedWorkTest.SmallLimits.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BoundedWorkTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    MeterRegistry metrics;

    @Inject
    EntityManager em;

    @Inject
    AgroalDataSource dataSource;

    @Inject
    RaceReaper reaper;

    @Inject
    GameRetention retention;

    @Inject
    Scheduler scheduler;

    private double jobFailures(String job) {
        var counter = metrics.find("bloc.job.failures").tag("job", job).counter();
        return counter == null ? 0 : counter.count();
    }

    public static class SmallLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> limits = new HashMap<>(Map.of(
                    "bloc.limits.events-per-game", "8",
                    "bloc.limits.undos-per-game", "2",
                    "bloc.limits.hints-per-game", "1",
                    "bloc.limits.ai-matches-per-client", "2",
                    "bloc.limits.games-per-client", "4",
                    // as k8s/config.yaml trusts the Ingress: the tests' own address is a proxy that appends
                    "quarkus.http.proxy.proxy-address-forwarding", "true",
                    "quarkus.http.proxy.allow-x-forwarded", "true",
                    "quarkus.http.proxy.trusted-proxies", "127.0.0.1",
                    // when the database is gone, do not wait the default 5 s for a connection (12 requests wait,
                    // in turn)
                    "quarkus.datasource.jdbc.acquisition-timeout", "0.5S"));
            limits.put("bloc.limits.starts-per-client", "8");
            limits.put("bloc.limits.starts-window", "1h");
            Map<String, String> both = new HashMap<>(limits);
            limits.forEach((k, v) -> both.put("%test." + k, v)); // over the %test values of application.properties
            return both;
        }
    }

    private static ValidatableResponse problem(ValidatableResponse r, int status) {
        return r.statusCode(status).contentType("application/problem+json").body("status", equalTo(status));
    }

    @Test
    @Order(1)
    void aGameAtItsCapOfEventsRefusesMovesWith409AndCanStillBeResigned() {
        Started g = Play.create(As.player(Tokens.player("cap-events")), "EASY", 41);
        for (int n = 1; n <= 8; n++) {
            Play.playOne(g, n);
        }
        int[] m = Play.firstLegal(g.shadow());
        problem(Play.move(g, 9, m[0], m[1], m[2]), 409).body("detail", containsString("cap of 8 events"));
        g.as().spec().when().post("/api/games/" + g.id() + "/resign").then().statusCode(200)
                .body("status", equalTo("RESIGNED"));
    }

    @Test
    @Order(2)
    void undosPastTheCapAre409() {
        Started g = Play.create(As.player(Tokens.player("cap-undos")), "EASY", 42);
        for (int n = 1; n <= 2; n++) {
            Play.playOne(g, n);
            g.shadow().undo();
            undo(g, n).statusCode(200);
        }
        Play.playOne(g, 3);
        problem(undo(g, 3), 409).body("detail", containsString("2 undos"));
    }

    @Test
    @Order(3)
    void hintsPastTheCapAre409() {
        Started g = Play.create(As.player(Tokens.player("cap-hints")), "EASY", 43);
        g.as().spec().when().post("/api/games/" + g.id() + "/hint").then().statusCode(200);
        problem(g.as().spec().when().post("/api/games/" + g.id() + "/hint").then(), 409)
                .body("detail", containsString("1 hints"));
    }

    @Test
    @Order(4)
    void aClientPastItsOpenMatchesOrGamesGets429WithRetryAfter() {
        // a guest: limited by its address (127.0.0.1 here); 2 versus-AI matches (2 of its 4 games), then no more
        startMatch(null).statusCode(201);
        startMatch(null).statusCode(201);
        problem(startMatch(null), 429).header("Retry-After", notNullValue())
                .body("detail", containsString("at most 2 at once"));
        // behind a trusted proxy that appends to X-Forwarded-For, the first addresses are the client's own words:
        // the client is the last address no trusted proxy wrote. Before, it was the first, so a guest could name a
        // new address on each request and start matches without end.
        for (int n = 1; n <= 3; n++) {
            // 127.0.0.1, a trusted proxy's address (this profile trusts it), is passed over: were it taken, this
            // client would be the guest of the two matches above, already at its limit
            ValidatableResponse r = given().header("X-Forwarded-For", "203.0.113." + n + ", 198.51.100.7, 127.0.0.1")
                    .contentType(ContentType.JSON).body(Map.of("mode", "VERSUS_AI", "level", "EASY")).when()
                    .post("/api/matches").then();
            if (n <= 2) {
                r.statusCode(201);
            } else {
                problem(r, 429).body("detail", containsString("at most 2 at once"));
            }
        }

        Started solo = Play.create(As.guest(null), "EASY", 44);
        Play.create(As.guest(null), "EASY", 45);
        ValidatableResponse refused = problem(startGame(As.guest(null)), 429)
                .body("detail", containsString("at most 4 at once"));
        long retryAfter = Long.parseLong(refused.extract().header("Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= 30 * 60 + 1, "Retry-After " + retryAfter);

        // a player is limited by their own subject, not by the address they share
        startGame(As.player(Tokens.player("limits-player"))).statusCode(201);
        // a game finished frees its place
        solo.as().spec().when().post("/api/games/" + solo.id() + "/resign").then().statusCode(200);
        startGame(As.guest(null)).statusCode(201);
    }

    @Test
    @Order(5)
    void aClientThatStartsAndResignsInALoopIsStoppedPastItsStartsInTheWindow() {
        // nothing stays open, so the open-games limit (4) never stops this loop; before, every start was 201
        As loop = As.player(Tokens.player("start-and-resign"));
        for (int n = 1; n <= 8; n++) {
            Started g = Play.create(loop, "EASY", 500 + n);
            g.as().spec().when().post("/api/games/" + g.id() + "/resign").then().statusCode(200);
        }
        ValidatableResponse refused = problem(startGame(loop), 429)
                .body("detail", equalTo("Too many games started: at most 8 in 60 min per client, finished or not."));
        long retryAfter = Long.parseLong(refused.extract().header("Retry-After"));
        assertTrue(retryAfter > 55 * 60 && retryAfter <= 60 * 60 + 1, "Retry-After " + retryAfter);
        // a match is a start too, and another client is not held back by this one
        problem(startMatch(Tokens.player("start-and-resign")), 429)
                .body("detail", containsString("Too many games started"));
        startGame(As.player(Tokens.player("starts-elsewhere"))).statusCode(201);
    }

    @Test
    @Order(6)
    void aRaceIsAGameOfEachPlayerSoRacesPastTheirOpenGamesAreRefused() {
        // a player with as many games open as they may (4) joins no race: neither the queue nor a link
        String full = Tokens.player("race-full");
        for (int i = 0; i < 4; i++) {
            startGame(As.player(full)).statusCode(201);
        }
        problem(joinQueue(full, "MEDIUM"), 429).header("Retry-After", notNullValue())
                .body("detail", containsString("at most 4 at once"));
        String host = Tokens.player("race-host");
        String code = link(host);
        problem(join(full, code), 429).body("detail", containsString("at most 4 at once"));
        // and nobody joins the link of a maker past their limit: the maker would be past it (counted as the maker's
        // refusal, not as a game the one who opened the link was refused)
        double refusedGames = refused("GAME");
        double refusedMakers = refused("LINK_MAKER");
        problem(join(host, link(full)), 409).body("detail", containsString("made this link"));
        assertEquals(refusedGames, refused("GAME"));
        assertEquals(refusedMakers + 1, refused("LINK_MAKER"));

        // a link's race counts among its players' games: three games and a race, then no fifth game
        String racer = Tokens.player("race-counted");
        for (int i = 0; i < 3; i++) {
            startGame(As.player(racer)).statusCode(201);
        }
        join(racer, code).statusCode(200).body("mode", equalTo("ONLINE_RACE"));
        problem(startGame(As.player(racer)), 429).body("detail", containsString("at most 4 at once"));

        // so does a race made by the queue, for both its players
        String waiter = Tokens.player("race-waiter");
        for (int i = 0; i < 3; i++) {
            startGame(As.player(waiter)).statusCode(201);
        }
        joinQueue(waiter, "MEDIUM").statusCode(202);
        String joiner = Tokens.player("race-joiner");
        joinQueue(joiner, "MEDIUM").statusCode(201);
        problem(startGame(As.player(waiter)), 429).body("detail", containsString("at most 4 at once"));
        for (int i = 0; i < 3; i++) {
            startGame(As.player(joiner)).statusCode(201);
        }
        problem(startGame(As.player(joiner)), 429);
    }

    private double refused(String start) {
        var counter = metrics.find("game.limits.refused").tag("start", start).tag("limit", "held").counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    @Order(7)
    void aVersusAiMatchCountsWhileItsAiPlaysOnAfterItsPersonsGameEnded() {
        // the person's game ended long ago at a score the AI has not reached: the AI plays on, searching at its pace
        // (up to the cap of events), so the match must still count against the client
        String player = Tokens.player("ai-plays-on");
        String match = startMatch(player).statusCode(201).extract().path("id");
        startMatch(player).statusCode(201);
        problem(startMatch(player), 429).body("detail", containsString("at most 2 at once"));
        QuarkusTransaction.requiringNew().run(() -> {
            // this test's AI is kept off its game (a lease of another holder), as if between two of its placements;
            // one placement already under way cannot reach the score to beat
            em.createNativeQuery("UPDATE game SET ai_lease_holder = :h, ai_lease_until = now() + interval '1 hour' "
                    + "WHERE match_id = :m AND seat = 1").setParameter("h", UUID.randomUUID())
                    .setParameter("m", UUID.fromString(match)).executeUpdate();
            em.createNativeQuery("UPDATE game SET status = 'OVER', score = 1000, "
                    + "finished_at = now() - interval '2 hours', updated_at = now() - interval '2 hours' "
                    + "WHERE match_id = :m AND seat = 0")
                    .setParameter("m", UUID.fromString(match)).executeUpdate();
        });
        problem(startMatch(player), 429).header("Retry-After", notNullValue())
                .body("detail", containsString("at most 2 at once"));
    }

    private static ValidatableResponse joinQueue(String bearer, String level) {
        return given().auth().oauth2(bearer).contentType(ContentType.JSON)
                .body(Map.of("mode", "ONLINE_RACE", "level", level)).when().post("/api/matches").then();
    }

    private static String link(String bearer) {
        return given().auth().oauth2(bearer).contentType(ContentType.JSON).body(Map.of("level", "MEDIUM"))
                .when().post("/api/races/private").then().statusCode(201).extract().path("code");
    }

    private static ValidatableResponse join(String bearer, String code) {
        return given().auth().oauth2(bearer).when().post("/api/races/private/" + code + "/join").then();
    }

    @Test
    @Order(8)
    void aLoopOfJoinsAndLeavesOfTheRaceQueueIsStoppedPastItsStartsInTheWindow() {
        // it starts no game, so the starts limit did not count it, and each join left a ticket row: before, every
        // join was 202 (no one else waits on DIABOLICAL in this class, so each join waits)
        String looper = Tokens.player("join-and-leave");
        for (int n = 1; n <= 8; n++) {
            String ticket = joinQueue(looper, "DIABOLICAL").statusCode(202).extract().path("ticket");
            given().auth().oauth2(looper).when().delete("/api/matches/queue/" + ticket).then().statusCode(204);
        }
        problem(joinQueue(looper, "DIABOLICAL"), 429).header("Retry-After", notNullValue())
                .body("detail", equalTo("Too many games started: at most 8 in 60 min per client, finished or not."));
        assertEquals(8L, QuarkusTransaction.requiringNew().call(() -> ((Number) em.createNativeQuery(
                "SELECT count(*) FROM race_ticket WHERE subject = :s").setParameter("s", "sub-join-and-leave")
                .getSingleResult()).longValue()));
    }

    /**
     * docs/game-service.md "Private race by link": a link whose maker is past their open games is refused (409) and
     * counted in {@code game_private_race_total{outcome="refused_host_busy"}}, not as a race joined. Here, where the
     * limit is 4 games; PrivateRaceTest counts the other outcomes.
     */
    @Test
    @Order(9)
    void aLinkWhoseMakerIsPastTheirGamesIsCountedAsRefusedHostBusy() {
        String busy = Tokens.player("busy-maker-" + UUID.randomUUID());
        String code = link(busy);
        for (int i = 0; i < 4; i++) {
            startGame(As.player(busy)).statusCode(201);
        }
        Map<String, Double> before = PrivateRaceTest.raceOutcomes();
        problem(join(Tokens.player("busy-maker-friend-" + UUID.randomUUID()), code), 409)
                .body("detail", containsString("made this link"));
        Map<String, Double> counted = PrivateRaceTest.counted(before, PrivateRaceTest.raceOutcomes());
        assertEquals(1.0, counted.get("refused_host_busy"), counted.toString());
        assertEquals(0.0, counted.get("joined"), counted.toString());
    }

    /**
     * A trusted proxy passes on what a client inside the trusted ranges wrote before its own address: 400 characters
     * of no address were its key as they were, longer than the column that keeps a game's client, so starting a game
     * or a match was a 500, and each such text a new budget. Now every such text is one client, "address:invalid",
     * counted as any other: its third versus-AI match at once is refused (2 at once here), whatever text it sends.
     */
    @Test
    @Order(10)
    void aForwardedTextThatIsNoAddressIsOneBoundedClientNotA500() {
        given().header("X-Forwarded-For", "w".repeat(400) + ", 127.0.0.1").contentType(ContentType.JSON)
                .body(Map.of("level", "EASY")).when().post("/api/games").then().statusCode(201);
        for (String text : new String[] {"x".repeat(400), "y".repeat(300), "z".repeat(100)}) {
            ValidatableResponse r = given().header("X-Forwarded-For", text + ", 127.0.0.1")
                    .contentType(ContentType.JSON).body(Map.of("mode", "VERSUS_AI", "level", "EASY")).when()
                    .post("/api/matches").then();
            if (text.startsWith("z")) {
                problem(r, 429).body("detail", containsString("at most 2 at once"));
            } else {
                r.statusCode(201);
            }
        }
    }

    /**
     * An overload that keeps every pooled connection busy is the service working, not failing: the requests past the
     * pool are 503 on their own, and readiness stays UP (DatabaseReadiness asks on a connection of its own). Quarkus's
     * datasource check borrowed from the pool, so such a flood took every replica out of its Service at once.
     */
    @Test
    @Order(99)
    void aPoolKeptFullByAnOverloadLeavesTheReplicaReady() throws Exception {
        List<Connection> held = new ArrayList<>();
        try {
            while (true) { // every connection the pool will give, the background jobs' included
                try {
                    held.add(dataSource.getConnection());
                } catch (SQLException acquisitionTimeout) {
                    break;
                }
            }
            assertTrue(!held.isEmpty(), "the pool gave connections");
            problem(given().header("X-Game-Token", "t").when().get("/api/games/" + UUID.randomUUID()).then(), 503)
                    .body("detail", equalTo("The database is unavailable or busy; try again shortly."));
            given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                    .body("checks.find { it.name == 'database' }.status", equalTo("UP"));
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
    }

    @Test
    @Order(100)
    void withPostgreSqlGoneEveryEndpointAnswers503WithRetryAfterNever500() throws Exception {
        Started g = Play.create(As.player(Tokens.player("db-down")), "EASY", 46);
        String player = Tokens.player("db-down");
        // a match's socket, open before the database goes: its frames are answered like the REST calls
        String racer = Tokens.player("db-down-socket");
        String matchId = given().auth().oauth2(racer).contentType(ContentType.JSON)
                .body(Map.of("mode", "VERSUS_AI", "level", "EASY")).when().post("/api/matches")
                .then().statusCode(201).extract().path("id");
        LiveSocket socket = LiveSocket.asPlayer(base, matchId, racer);
        socket.next("state");
        // every job's failure counter exists from the start, at zero: a first failure is an increase an alert sees
        // (every job the scheduler runs here, so that one added later is not forgotten; the AI's claims and the
        // outbox relay were counted nowhere)
        Set<String> jobs = new TreeSet<>(List.of(GameRetention.JOB, RaceReaper.JOB, RaceHeartbeat.JOB,
                SocketPings.JOB, AiClaims.JOB, OutboxRelay.JOB));
        scheduler.getScheduledJobs().forEach(trigger -> jobs.add(trigger.getId()));
        for (String job : jobs) { // the outbox backlog's read has a counter of its own
            assertNotNull(job.equals(OutboxBacklog.JOB) ? metrics.find(OutboxBacklog.READ_FAILURES).counter()
                    : metrics.find("bloc.job.failures").tag("job", job).counter(), job);
        }
        double failedClaims = jobFailures(AiClaims.JOB);
        double failedRelays = jobFailures(OutboxRelay.JOB);
        PostgresResource.stopServer();

        // a frame on the open socket, and a socket opened now: an error frame 503, never 500
        socket.send("{\"type\": \"sync\"}");
        assertEquals(503, socket.next("error").path("status").asInt());
        socket.send("{\"type\": \"move\", \"moveNumber\": 1, \"slot\": 0, \"row\": 0, \"col\": 0}");
        assertEquals(503, socket.next("error").path("status").asInt());
        socket.connection().closeAndAwait();
        assertEquals(503, LiveSocket.asPlayer(base, matchId, racer).next("error").path("status").asInt());

        String unknown = UUID.randomUUID().toString();
        ValidatableResponse[] answers = {
                given().auth().oauth2(player).when().get("/api/games/" + g.id()).then(),
                given().header("X-Game-Token", "t").when().get("/api/games/" + unknown).then(),
                Play.move(g, 1, 0, 0, 0),
                given().auth().oauth2(player).when().post("/api/games/" + g.id() + "/hint").then(),
                given().auth().oauth2(player).contentType(ContentType.JSON).body(Map.of("moveNumber", 1))
                        .when().post("/api/games/" + g.id() + "/undo").then(),
                given().auth().oauth2(player).when().post("/api/games/" + g.id() + "/resign").then(),
                startGame(As.guest(null)),
                startGame(As.player(player)),
                startMatch(null),
                given().auth().oauth2(player).contentType(ContentType.JSON)
                        .body(Map.of("mode", "ONLINE_RACE", "level", "EASY")).when().post("/api/matches").then(),
                given().header("X-Game-Token", "t").when().get("/api/matches/" + unknown).then(),
                // a player not seen lately: their row is written (one seen within the minute is answered from the
                // token alone, PlayerService)
                given().auth().oauth2(Tokens.player("first-seen-while-the-database-is-gone")).when()
                        .get("/api/players/me").then(),
        };
        for (ValidatableResponse answer : answers) {
            problem(answer, 503).header("Retry-After", equalTo("5"))
                    .body("detail", equalTo("The database is unavailable or busy; try again shortly."));
        }
        // and readiness says so: the platform can route around this replica until the database is back
        given().when().get("/q/health/ready").then().statusCode(503);
        // a scheduled job's pass that fails is counted for operators, not only logged (bloc_job_failures_total{job})
        double failedPasses = jobFailures(RaceReaper.JOB);
        reaper.tick();
        assertTrue(jobFailures(RaceReaper.JOB) > failedPasses, "the race reaper's failed pass is counted");
        double failedSteps = jobFailures(GameRetention.JOB);
        retention.prune(Instant.now(), retention.policy()); // its steps fail, and the pass goes on
        assertTrue(jobFailures(GameRetention.JOB) > failedSteps, "the retention's failed steps are counted");
        // the scheduler's own passes of the AI's claims (every second) and of the outbox relay (every 2 s)
        await().atMost(Duration.ofSeconds(20)).until(() -> jobFailures(AiClaims.JOB) > failedClaims
                && jobFailures(OutboxRelay.JOB) > failedRelays);
    }

    private static ValidatableResponse undo(Started g, int moveNumber) {
        return g.as().spec().contentType(ContentType.JSON).body(Map.of("moveNumber", moveNumber))
                .when().post("/api/games/" + g.id() + "/undo").then();
    }

    private static ValidatableResponse startGame(As as) {
        return as.spec().contentType(ContentType.JSON).body(Map.of("level", "EASY")).when().post("/api/games").then();
    }

    private static ValidatableResponse startMatch(String bearer) {
        As as = bearer == null ? As.guest(null) : As.player(bearer);
        return as.spec().contentType(ContentType.JSON).body(Map.of("mode", "VERSUS_AI", "level", "EASY"))
                .when().post("/api/matches").then();
    }
}
