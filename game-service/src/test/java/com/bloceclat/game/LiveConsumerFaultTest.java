package com.bloceclat.game;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import com.bloceclat.game.messaging.GameMessages;
import com.bloceclat.testsupport.KafkaResource;
import com.fasterxml.jackson.databind.JsonNode;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/**
 * The live consumer (every replica reads all of game-events) survives every record: one it cannot read is skipped and
 * counted, readiness stays up, and the changes after it still reach the match's sockets. Before, one record
 * {@code {"matchId":"x"}} failed the channel and took readiness down on every replica at once.
 */
@QuarkusTest
class LiveConsumerFaultTest {

    @TestHTTPResource("/")
    URI base;

    @Test
    void unreadableRecordsAreSkippedAndCountedReadinessStaysUpAndLaterChangesStillArrive() throws Exception {
        var created = given().contentType(ContentType.JSON)
                .body(Map.of("mode", "VERSUS_AI", "level", "EASY", "strength", 1))
                .when().post("/api/matches").then().statusCode(201).extract();
        String matchId = created.path("id");
        String token = created.path("gameToken");
        LiveSocket socket = LiveSocket.asGuest(base, matchId, token);
        JsonNode state = socket.next("state");

        double before = skipped();
        try (KafkaCompanion companion = KafkaResource.companion()) {
            String topic = GameMessages.EVENTS_CHANNEL;
            companion.produceStrings().fromRecords(
                    new ProducerRecord<>(topic, "x", "{\"matchId\":\"x\"}"),
                    new ProducerRecord<>(topic, "x", "{\"matchId\": 12, \"status\": \"PLAYING\"}"),
                    new ProducerRecord<>(topic, "x", "{\"matchId\":\"" + UUID.randomUUID() + "\"}"),
                    new ProducerRecord<>(topic, "x", "[\"matchId\"]"),
                    new ProducerRecord<>(topic, "x", "not JSON, \"matchId\""),
                    new ProducerRecord<>(topic, "x", null),
                    new ProducerRecord<>(topic, "x", "{\"matchId\":\"" + "9".repeat(20_000) + "\"}"))
                    .awaitCompletion();
        }
        // six at least: the connector may hand over a tombstone (counted as "null") or leave it out of the batch
        await().atMost(Duration.ofSeconds(30)).until(() -> skipped() >= before + 6);

        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));

        // a change made after the bad records were read still reaches the socket
        assertEquals(matchId, firstMoveUpdate(socket, state).path("game").path("matchId").asText());
        socket.connection().closeAndAwait();
    }

    /**
     * A solo game's changes, and those of a match with no socket on this replica, are skipped unread by their header
     * (counted by reason); a match's changes are read once a socket of it is here, and reach that socket.
     */
    @Test
    void changesNobodyHereWatchesAreSkippedUnreadByTheirHeader() throws Exception {
        String solo = "game_live_unread_total{reason=\"solo\"}";
        String unwatched = "game_live_unread_total{reason=\"unwatched\"}";
        double soloBefore = counted(solo);
        double unwatchedBefore = counted(unwatched);
        Play.Started game = Play.create(Play.As.guest(null), "EASY", 5);
        Play.playOne(game, 1);
        // its CREATED and its PLACE, and nothing else is a solo game's here
        await().atMost(Duration.ofSeconds(30)).until(() -> counted(solo) >= soloBefore + 2);
        assertEquals(soloBefore + 2, counted(solo));

        var created = given().contentType(ContentType.JSON)
                .body(Map.of("mode", "VERSUS_AI", "level", "EASY", "strength", 1))
                .when().post("/api/matches").then().statusCode(201).extract();
        // the match's two CREATED at least (its AI may have placed too), with no socket of it open yet
        await().atMost(Duration.ofSeconds(30)).until(() -> counted(unwatched) >= unwatchedBefore + 2);

        LiveSocket socket = LiveSocket.asGuest(base, created.path("id"), created.path("gameToken"));
        JsonNode state = socket.next("state");
        assertEquals(created.path("id").toString(), firstMoveUpdate(socket, state).path("game").path("matchId")
                .asText());
        socket.connection().closeAndAwait();
    }

    /** Plays the person's first move over the socket and answers the update of it that the socket gets back. */
    private static JsonNode firstMoveUpdate(LiveSocket socket, JsonNode state) throws Exception {
        int[] m = MatchSocketTest.firstLegal(state.path("match").path("games").path(0));
        socket.frames().clear();
        socket.send("{\"type\": \"move\", \"moveNumber\": 1, \"slot\": " + m[0] + ", \"row\": " + m[1]
                + ", \"col\": " + m[2] + "}");
        return socket.next(f -> "update".equals(f.path("type").asText())
                && f.path("game").path("seat").asInt() == 0 && "PLACE".equals(f.path("game").path("type").asText()));
    }

    /** game.live.skipped, summed over its reasons. */
    private static double skipped() {
        return counted("game_live_skipped_total");
    }

    /** A counter summed over its tags, or one series of it (its name with its tags, as /q/metrics prints them). */
    private static double counted(String name) {
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        String series = name.contains("{") ? Pattern.quote(name) + "()" : name + "(\\{[^}]*})?";
        Matcher counter = Pattern.compile("(?m)^" + series + " ([0-9.eE+-]+)$").matcher(metrics);
        double sum = 0;
        while (counter.find()) {
            sum += Double.parseDouble(counter.group(2));
        }
        return sum;
    }
}
