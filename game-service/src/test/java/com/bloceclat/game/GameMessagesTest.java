package com.bloceclat.game;

import static com.bloceclat.game.Play.As;
import static com.bloceclat.game.Play.Started;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.LocalDate;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameChanged;
import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.SignedMessage;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.engine.replay.ReplayValidator;
import com.bloceclat.game.messaging.GameMessages;
import com.bloceclat.game.messaging.OutboxSender;
import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.Tokens;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

@QuarkusTest
class GameMessagesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aFinishedGameArrivesOnceOnGameFinishedSignedWithAReplayTheValidatorAccepts() throws Exception {
        Started g = Play.create(As.player(Tokens.player("frank")), "DIABOLICAL", 2026);
        Play.playToTheEnd(g, 1);
        awaitAllSent(g.id());

        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(GameFinished.CHANNEL);
            await().atMost(Duration.ofSeconds(30)).until(() -> !ofGame(task.getRecords(), g.id()).isEmpty());
            List<ConsumerRecord<String, String>> mine = ofGame(task.getRecords(), g.id());
            assertEquals(1, mine.size(), "game-finished records keyed " + g.id());
            task.close();
            assertNull(mine.get(0).headers().lastHeader(OutboxSender.LIVE_MATCH_HEADER), "only game-events have it");

            String envelope = mine.get(0).value();
            assertEquals(TestKeys.KEY_ID, SignedMessage.fromJson(envelope).keyId());
            GameFinished message = GameFinished.fromJson(TestKeys.open(envelope));
            assertEquals(g.id(), message.gameId().toString());
            assertEquals(GameFinished.Mode.SOLO, message.mode());
            assertEquals("sub-frank", message.player().subject());
            assertEquals("frank", message.player().name());
            // a chosen seed: played normally, published as such (it never counts)
            assertEquals(GameFinished.SeedSource.CHOSEN, message.seedSource());
            assertNull(message.day());
            JsonNode view = JSON.readTree(g.as().spec().when().get("/api/games/" + g.id()).then().extract().asString());
            // the times stored
            assertEquals(instant(view, "createdAt"), message.createdAt());
            assertEquals(instant(view, "finishedAt"), message.finishedAt());
            assertTrue(message.createdAt().isBefore(message.finishedAt()));
            ReplayValidator.Result result = ReplayValidator.validate(Replay.fromJson(message.replayJson()));
            assertTrue(result.valid(), result.error());
            assertTrue(result.gameOver());
            assertFalse(result.assisted());
            assertEquals(g.shadow().score(), result.score());
            assertEquals(2026L, message.replay().get("seed").asLong());
        }
    }

    @Test
    void everyStateChangeIsOnGameEventsInOrder() throws Exception {
        Started g = Play.create(As.guest(null), "EASY", 17);
        Play.playOne(g, 1);
        Play.playOne(g, 2);
        g.as().spec().contentType("application/json").body("{\"moveNumber\": 2}")
                .when().post("/api/games/" + g.id() + "/undo").then().statusCode(200);
        g.as().spec().when().post("/api/games/" + g.id() + "/resign").then().statusCode(200);
        awaitAllSent(g.id());

        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(GameMessages.EVENTS_CHANNEL);
            await().atMost(Duration.ofSeconds(30)).until(() -> ofGame(task.getRecords(), g.id()).size() >= 5);
            List<ConsumerRecord<String, String>> mine = ofGame(task.getRecords(), g.id());
            task.close();
            assertEquals(5, mine.size());
            List<String> types = mine.stream().map(r -> read(r.value()).get("type").asText()).toList();
            assertEquals(List.of("CREATED", "PLACE", "PLACE", "UNDO", "RESIGN"), types);
            for (int i = 0; i < mine.size(); i++) {
                // a solo game's: live consumers skip it unread (LiveUpdates)
                assertArrayEquals(new byte[0], mine.get(i).headers().lastHeader(OutboxSender.LIVE_MATCH_HEADER).value());
                JsonNode event = read(mine.get(i).value());
                assertEquals(i, event.get("version").asInt());
                assertEquals(g.id() + ":" + i, event.get("eventId").asText());
                // the typed message, strictly read (GameChanged.fromJson throws on anything else)
                assertEquals(i, GameChanged.fromJson(mine.get(i).value()).version());
            }
            JsonNode first = read(mine.get(1).value());
            assertEquals(new Game(17, Level.EASY).pieces()[first.get("slot").asInt()].name(), first.get("piece").asText());
            JsonNode last = read(mine.get(4).value());
            assertEquals("RESIGNED", last.get("status").asText());
            assertTrue(last.get("assisted").asBoolean());
            assertEquals(8, last.get("board").size());

            ConsumerTask<String, String> finished = companion.consumeStrings().fromTopics(GameFinished.CHANNEL);
            await().atMost(Duration.ofSeconds(30)).until(() -> !ofGame(finished.getRecords(), g.id()).isEmpty());
            GameFinished message = GameFinished.fromJson(TestKeys.open(ofGame(finished.getRecords(), g.id()).get(0)
                    .value()));
            finished.close();
            assertNull(message.player());
            ReplayValidator.Result result = ReplayValidator.validate(Replay.fromJson(message.replayJson()));
            assertTrue(result.valid(), result.error());
            assertFalse(result.gameOver());
            assertTrue(result.assisted());
        }
    }

    @Test
    void theMessageSaysWhereTheSeedCameFromAndOnlyGameServicesKeyVerifiesIt() throws Exception {
        As gwen = As.player(Tokens.player("gwen"));
        String server = gwen.spec().contentType("application/json").body("{\"level\": \"HARD\"}")
                .when().post("/api/games").then().statusCode(201).extract().path("id");
        var daily = gwen.spec().contentType("application/json").body("{\"level\": \"EASY\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(201).extract();
        String dailyId = daily.path("id");
        assertEquals(false, daily.path("practice"));
        gwen.spec().when().post("/api/games/" + dailyId + "/resign").then().statusCode(200);
        // a second daily game of the same player, day and level is practice, from its start: the first one, ended
        // before it began, counts
        String againId = gwen.spec().contentType("application/json").body("{\"level\": \"EASY\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(201).body("practice", equalTo(true)).extract().path("id");
        // one still in play when the next one begins is practice from then: played after it, it would have known the
        // rounds the next one showed (with hints and undos)
        String scoutedId = gwen.spec().contentType("application/json").body("{\"level\": \"MEDIUM\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(201).body("practice", equalTo(false)).extract().path("id");
        // not asked for as practice (a retry, a stale page): refused, the first still counts
        gwen.spec().contentType("application/json").body("{\"level\": \"MEDIUM\", \"daily\": true}")
                .when().post("/api/games").then().statusCode(409).body("detail", containsString(scoutedId));
        gwen.spec().contentType("application/json")
                .body("{\"level\": \"MEDIUM\", \"daily\": true, \"practice\": true}")
                .when().post("/api/games").then().statusCode(201).body("practice", equalTo(true));
        gwen.spec().when().get("/api/games/" + scoutedId).then().statusCode(200).body("practice", equalTo(true));
        for (String id : List.of(server, dailyId, againId, scoutedId)) {
            if (!id.equals(dailyId)) {
                gwen.spec().when().post("/api/games/" + id + "/resign").then().statusCode(200);
            }
            awaitAllSent(id);
        }

        try (KafkaCompanion companion = KafkaResource.companion()) {
            ConsumerTask<String, String> task = companion.consumeStrings().fromTopics(GameFinished.CHANNEL);
            await().atMost(Duration.ofSeconds(30)).until(() -> !ofGame(task.getRecords(), server).isEmpty()
                    && !ofGame(task.getRecords(), dailyId).isEmpty() && !ofGame(task.getRecords(), againId).isEmpty()
                    && !ofGame(task.getRecords(), scoutedId).isEmpty());
            String serverEnvelope = ofGame(task.getRecords(), server).get(0).value();
            String dailyEnvelope = ofGame(task.getRecords(), dailyId).get(0).value();
            String againEnvelope = ofGame(task.getRecords(), againId).get(0).value();
            assertTrue(GameFinished.fromJson(TestKeys.open(ofGame(task.getRecords(), scoutedId).get(0).value()))
                    .practice(), "signed as practice");
            task.close();

            GameFinished s = GameFinished.fromJson(TestKeys.open(serverEnvelope));
            assertEquals(GameFinished.SeedSource.SERVER, s.seedSource());
            assertNull(s.day());
            GameFinished d = GameFinished.fromJson(TestKeys.open(dailyEnvelope));
            assertEquals(GameFinished.SeedSource.DAILY, d.seedSource());
            assertEquals(LocalDate.parse(daily.path("day")), d.day());
            assertEquals("sub-gwen", d.player().subject());
            assertFalse(d.practice());
            assertFalse(s.practice());
            assertTrue(GameFinished.fromJson(TestKeys.open(againEnvelope)).practice());

            // another key pair, even under game-service's key id, does not verify it; an unknown key id is named
            KeyPair other = SignedMessage.newKeyPair();
            SignedMessage.Verifier impostor = SignedMessage.Verifier.of(
                    List.of(TestKeys.KEY_ID + ":" + SignedMessage.base64(other.getPublic())));
            SignedMessage.RefusedException refused = assertThrows(SignedMessage.RefusedException.class,
                    () -> impostor.open(serverEnvelope));
            assertTrue(refused.getMessage().startsWith("bad signature"), refused.getMessage());
            SignedMessage.Verifier stranger = SignedMessage.Verifier.of(
                    List.of("other-key:" + SignedMessage.base64(other.getPublic())));
            assertTrue(assertThrows(SignedMessage.RefusedException.class, () -> stranger.open(dailyEnvelope))
                    .getMessage().startsWith("unknown key 'test-2026'"));
            // the signature covers the exact text: one character changed in the message is refused
            SignedMessage e = SignedMessage.fromJson(serverEnvelope);
            String forged = new SignedMessage(e.keyId(), e.signature(), e.message().replace("\"HARD\"", "\"EASY\""))
                    .toJson();
            assertNotEquals(serverEnvelope, forged);
            assertTrue(assertThrows(SignedMessage.RefusedException.class, () -> TestKeys.open(forged))
                    .getMessage().startsWith("bad signature"));
        }
    }

    static void awaitAllSent(String gameId) {
        await().atMost(Duration.ofSeconds(30)).until(() -> QuarkusTransaction.requiringNew()
                .call(() -> OutboxMessage.count("key = ?1", gameId)) == 0);
    }

    private static List<ConsumerRecord<String, String>> ofGame(List<ConsumerRecord<String, String>> records,
            String gameId) {
        return records.stream().filter(r -> gameId.equals(r.key())).toList();
    }

    private static java.time.Instant instant(JsonNode view, String field) {
        return OffsetDateTime.parse(view.get(field).asText()).toInstant();
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
