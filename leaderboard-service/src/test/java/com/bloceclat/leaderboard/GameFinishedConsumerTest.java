package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.GameFinishedDeadLetter;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.replay.Event;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.leaderboard.service.GameFinishedService;
import com.bloceclat.leaderboard.service.Verdict;
import com.bloceclat.testsupport.KafkaResource;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/** Finished games through the real broker into PostgreSQL: what becomes a record, what is kept only for audit. */
@QuarkusTest
class GameFinishedConsumerTest {

    @Inject
    MeterRegistry registry;

    static Replay honest;

    @BeforeAll
    static void playAGame() {
        honest = Games.played(42, Level.HARD, 12).replay();
        assertEquals(12, honest.claimedRounds());
    }

    static GameAudit audit(UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> GameAudit.findById(id));
    }

    static GameAudit awaitAudit(UUID id) {
        return await().atMost(Duration.ofSeconds(60)).until(() -> audit(id), a -> a != null);
    }

    static GameRecord record(UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> GameRecord.findById(id));
    }

    @Test
    void validUnassistedGamesOfPlayersBecomeRecordsOnTheLeaderboard() {
        GameFinished.Player carol = Games.player("carol-" + UUID.randomUUID());
        GameFinished game = Games.finished(carol, honest);
        Games.publish(game);

        GameAudit audit = awaitAudit(game.gameId());
        assertEquals(Outcome.RECORD, audit.outcome);
        assertNull(audit.reason);
        assertEquals(honest.claimedScore(), audit.score);
        assertEquals(honest.events().size(), audit.traceLines().size(), "one trace line per event");
        assertEquals(honest.toJson(), audit.replay);
        GameRecord record = record(game.gameId());
        assertEquals(honest.claimedScore(), record.score);
        assertEquals(carol.subject(), record.playerSubject);

        given().when().get("/api/leaderboards/hard/players/" + carol.subject()).then()
                .statusCode(200)
                .body("best.gameId", equalTo(game.gameId().toString()))
                .body("best.score", equalTo(honest.claimedScore()))
                .body("player", equalTo(carol.name()))
                .body("records", equalTo(1));
        List<String> ids = given().queryParam("size", 100).when().get("/api/leaderboards/HARD").then()
                .statusCode(200).extract().path("entries.gameId");
        assertTrue(ids.contains(game.gameId().toString()), ids.toString());
    }

    @Test
    void assistedAndGuestGamesAreKeptButNeverRecords() {
        Game assistedGame = Games.played(7, Level.MEDIUM, 4);
        assistedGame.hintShown();
        GameFinished.Player dave = Games.player("dave-" + UUID.randomUUID());
        GameFinished assisted = Games.finished(dave, assistedGame.replay());
        GameFinished guest = Games.finished(null, Games.played(8, Level.MEDIUM, 4).replay());
        Games.publish(assisted, guest);

        GameAudit a = awaitAudit(assisted.gameId());
        assertEquals(Outcome.VALID_NOT_ELIGIBLE, a.outcome);
        assertEquals(Verdict.ASSISTED, a.reason);
        assertTrue(a.assisted);
        GameAudit g = awaitAudit(guest.gameId());
        assertEquals(Outcome.VALID_NOT_ELIGIBLE, g.outcome);
        assertEquals(Verdict.GUEST, g.reason);
        assertNull(g.playerSubject);
        assertNull(record(assisted.gameId()));
        assertNull(record(guest.gameId()));
        given().when().get("/api/leaderboards/medium/players/" + dave.subject()).then().statusCode(404);
    }

    /** Every kind of tampering the engine's validator knows, each with the start of the reason it gives. */
    static Map<String, String[]> tampered() {
        Map<String, String[]> cases = new LinkedHashMap<>();
        Event.Place first = (Event.Place) honest.events().get(0);
        Event.Place second = (Event.Place) honest.events().get(1);
        cases.put("overlap", new String[] {events(ev -> {
            ev.set(1, new Event.Place(0, second.slot(), first.row(), first.col()));
            return ev;
        }).toJson(), "move 2: "});
        cases.put("off the board", new String[] {events(ev -> {
            ev.set(0, new Event.Place(0, first.slot(), 7, 8));
            return ev;
        }).toJson(), "move 1: "});
        cases.put("wrong slot", new String[] {events(ev -> {
            ev.set(0, new Event.Place(0, 3, first.row(), first.col()));
            return ev;
        }).toJson(), "move 1: slot must be 0, 1 or 2, got 3"});
        cases.put("piece used twice", new String[] {events(ev -> {
            ev.set(1, new Event.Place(0, first.slot(), second.row(), second.col()));
            return ev;
        }).toJson(), "move 2: the piece in slot"});
        List<List<String>> rounds = new ArrayList<>(honest.rounds());
        List<String> round4 = new ArrayList<>(rounds.get(4));
        round4.set(0, round4.get(0).equals("DOT") ? "I2H" : "DOT");
        rounds.set(4, round4);
        cases.put("wrong pieces", new String[] {copy(honest.seed(), honest.events(), rounds, honest.claimedScore(),
                honest.claimedRounds(), false).toJson(), "round 4 pieces differ from the seed's"});
        cases.put("wrong seed", new String[] {copy(honest.seed() + 1, honest.events(), honest.rounds(),
                honest.claimedScore(), honest.claimedRounds(), false).toJson(), ""});
        cases.put("score off by one", new String[] {copy(honest.seed(), honest.events(), honest.rounds(),
                honest.claimedScore() + 1, honest.claimedRounds(), false).toJson(),
                "claimed score " + (honest.claimedScore() + 1) + ", replay scores " + honest.claimedScore()});
        cases.put("rounds off by one", new String[] {copy(honest.seed(), honest.events(), honest.rounds(),
                honest.claimedScore(), honest.claimedRounds() + 1, false).toJson(),
                "claimed " + (honest.claimedRounds() + 1) + " completed rounds"});
        cases.put("hidden hint", new String[] {events(ev -> {
            ev.add(3, new Event.Hint(1));
            return ev;
        }).toJson(), "hint at event 4 but game marked unassisted"});
        int i = firstPlacementOfRound(honest.events(), 2);
        cases.put("hidden undo", new String[] {events(ev -> {
            ev.add(i + 1, new Event.Undo(2));
            ev.add(i + 2, ev.get(i));
            return ev;
        }).toJson(), "undo at event " + (i + 2) + " but game marked unassisted"});
        List<Event> undoFirst = new ArrayList<>(honest.events());
        undoFirst.add(0, new Event.Undo(0));
        cases.put("undo with nothing to undo", new String[] {copy(honest.seed(), undoFirst, honest.rounds(),
                honest.claimedScore(), honest.claimedRounds(), true).toJson(),
                "undo at event 1: nothing to undo in round 0"});
        cases.put("assistance claimed without any", new String[] {copy(honest.seed(), honest.events(),
                honest.rounds(), honest.claimedScore(), honest.claimedRounds(), true).toJson(),
                "game marked assisted but the replay has no hint or undo"});
        cases.put("event of the wrong round", new String[] {events(ev -> {
            ev.set(0, new Event.Place(1, first.slot(), first.row(), first.col()));
            return ev;
        }).toJson(), "event 1: says round 1 but round 0 is being played"});
        // (A replay of another rules version is not judged: a dead letter, poisonMessagesGoToTheDeadLetterTopic...)
        List<List<String>> fewer = new ArrayList<>(honest.rounds());
        fewer.remove(fewer.size() - 1);
        cases.put("fewer rounds listed than dealt", new String[] {copy(honest.seed(), honest.events(), fewer,
                honest.claimedScore(), honest.claimedRounds(), false).toJson(),
                "the replay lists " + fewer.size() + " rounds of pieces"});
        List<List<String>> unknownPiece = new ArrayList<>(honest.rounds());
        unknownPiece.set(0, List.of("NOPE", "DOT", "DOT"));
        cases.put("unknown piece id", new String[] {copy(honest.seed(), honest.events(), unknownPiece,
                honest.claimedScore(), honest.claimedRounds(), false).toJson(), "round 0 pieces differ from the seed's"});
        cases.put("unknown level", new String[] {honest.toJson().replace("\"HARD\"", "\"IMPOSSIBLE\""),
                "the replay is not valid JSON"});
        cases.put("missing events", new String[] {"{\"rulesVersion\":1,\"seed\":1,\"level\":\"EASY\"}",
                "the replay is not valid JSON"});
        // (A replay that is not a JSON object at all is refused by the reader since schema 2: a dead letter.)
        return cases;
    }

    @Test
    void tamperedReplaysOfEveryKindAreRejectedWithTheirReasonAndNeverRecords() {
        Game over = Games.played(5, Level.DIABOLICAL, Integer.MAX_VALUE);
        assertTrue(over.gameOver());
        Replay full = over.replay();
        List<Event> afterEnd = new ArrayList<>(full.events());
        afterEnd.add(new Event.Place(full.claimedRounds(), 0, 0, 0));
        Map<String, String[]> cases = tampered();
        cases.put("move after game over", new String[] {new Replay(1, full.seed(), full.level(), afterEnd, full.rounds(),
                full.claimedScore(), full.claimedRounds(), false).toJson(),
                "move " + (full.events().size() + 1) + ": after game over"});

        GameFinished.Player mallory = Games.player("mallory-" + UUID.randomUUID());
        Map<String, GameFinished> sent = new LinkedHashMap<>();
        cases.forEach((name, c) -> sent.put(name, Games.finished(UUID.randomUUID(), mallory, c[0], Instant.now())));
        Games.publish(sent.values().toArray(GameFinished[]::new));

        sent.forEach((name, game) -> {
            GameAudit audit = awaitAudit(game.gameId());
            assertEquals(Outcome.REJECTED, audit.outcome, name);
            assertNotNull(audit.reason, name);
            assertTrue(audit.reason.startsWith(cases.get(name)[1]), name + ": " + audit.reason);
            List<String> trace = audit.traceLines();
            assertEquals("rejected: " + audit.reason, trace.get(trace.size() - 1), name);
            assertNull(record(game.gameId()), name + " became a record");
        });
        assertEquals(1, audit(sent.get("overlap").gameId()).validEvents, "the valid prefix is the first move");
        assertEquals("HARD", audit(sent.get("overlap").gameId()).level);
        assertEquals(0L, QuarkusTransaction.requiringNew().call(
                () -> GameRecord.count("playerSubject", mallory.subject())));
        given().when().get("/api/leaderboards/hard/players/" + mallory.subject()).then().statusCode(404);
    }

    @Test
    void duplicatesAndRedeliveriesMakeOneAuditAndOneRecord() {
        GameFinished.Player erin = Games.player("erin-" + UUID.randomUUID());
        Replay erins = Games.quick(Games.freshSeed(), Level.HARD, 6).replay();
        GameFinished game = Games.finished(erin, erins);
        // Same id, a doctored copy: the first message judged wins, the copy changes nothing.
        GameFinished doctored = Games.finished(game.gameId(), erin, new Replay(erins.rulesVersion(), erins.seed(),
                erins.level(), erins.events(), erins.rounds(), erins.claimedScore() + 1000, erins.claimedRounds(),
                false).toJson(), Instant.now());
        GameFinished later = Games.finished(Games.player("later-" + UUID.randomUUID()),
                Games.quick(Games.freshSeed(), Level.HARD, 2).replay());
        double redelivered = redelivered();
        Games.publish(Games.message(game), Games.message(game), Games.message(doctored), Games.message(game),
                Games.message(later));

        awaitAudit(later.gameId());
        // each copy found known (REDELIVERED), not failed and dead-lettered: the counts of rows below hold either way,
        // the tables being keyed by game id
        await().atMost(Duration.ofSeconds(30)).until(() -> redelivered() - redelivered >= 3);
        assertEquals(3.0, redelivered() - redelivered, "the three copies after the first");
        assertEquals(1L, QuarkusTransaction.requiringNew().call(() -> GameAudit.count("gameId", game.gameId())));
        assertEquals(1L, QuarkusTransaction.requiringNew().call(() -> GameRecord.count("gameId", game.gameId())));
        assertEquals(Outcome.RECORD, audit(game.gameId()).outcome);
        assertEquals(erins.claimedScore(), record(game.gameId()).score);
        given().when().get("/api/leaderboards/hard/players/" + erin.subject()).then()
                .statusCode(200).body("records", equalTo(1));
    }

    private double redelivered() {
        var counter = registry.find("leaderboard.games").tag("outcome", GameFinishedService.REDELIVERED).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void poisonMessagesGoToTheDeadLetterTopicAndLaterGamesAreProcessed() {
        GameFinished valid = Games.finished(Games.player("frank-" + UUID.randomUUID()),
                Games.quick(Games.freshSeed(), Level.HARD, 3).replay());
        String unknownVersion = valid.toJson().replace("\"schemaVersion\":2", "\"schemaVersion\":9");
        String poisonKey = "poison-" + UUID.randomUUID();
        // a game of rules this engine does not play (game-service's engine newer than this replica's): not judged,
        // which rejected it (and a re-validation struck its record), but kept for a redrive by a replica that plays it
        Replay other = new Replay(Rules.RULES_VERSION + 1, honest.seed(), honest.level(), honest.events(),
                honest.rounds(), honest.claimedScore(), honest.claimedRounds(), false);
        GameFinished ofOtherRules = Games.finished(UUID.randomUUID(), Games.player("frank-" + UUID.randomUUID()),
                other.toJson(), Instant.now());
        // Signed, so that they get past the signature check to the reader (game-service's own mistakes).
        Games.publish(
                Games.signed(poisonKey, "this is not a finished game"),
                Games.signed(poisonKey, unknownVersion),
                Games.signed(poisonKey, "{\"schemaVersion\":2}"),
                Games.signed(poisonKey, ofOtherRules.toJson()),
                Games.message(valid));

        assertEquals(Outcome.RECORD, awaitAudit(valid.gameId()).outcome);
        List<GameFinishedDeadLetter> letters;
        try (KafkaCompanion companion = KafkaResource.companion()) {
            letters = companion.consumeStrings().fromTopics(GameFinishedDeadLetter.CHANNEL)
                    .awaitRecords(4, Duration.ofSeconds(30))
                    .getRecords().stream()
                    .filter(r -> poisonKey.equals(r.key()))
                    .map(ConsumerRecord::value)
                    .map(GameFinishedDeadLetter::fromJson)
                    .toList();
        }
        assertEquals(4, letters.size(), letters.toString());
        assertEquals(Games.SIGNER.sign("this is not a finished game"), letters.get(0).payload());
        assertTrue(letters.get(0).error().startsWith("not JSON: "), letters.get(0).error());
        assertEquals(Games.SIGNER.sign(unknownVersion), letters.get(1).payload());
        assertEquals("unknown schemaVersion 9 (this reader knows 2)", letters.get(1).error());
        assertEquals("\"gameId\" must be a non-empty string", letters.get(2).error());
        assertEquals(Games.SIGNER.sign(ofOtherRules.toJson()), letters.get(3).payload());
        assertEquals("unjudgeable: rules version " + (Rules.RULES_VERSION + 1) + " (this replica judges version "
                + Rules.RULES_VERSION + ")", letters.get(3).error());
        assertNull(audit(ofOtherRules.gameId()), "not judged");
        for (GameFinishedDeadLetter letter : letters) {
            assertEquals(GameFinished.CHANNEL, letter.topic());
            assertEquals(poisonKey, letter.key());
            assertNotNull(letter.failedAt());
        }
        assertTrue(letters.get(0).offset() < letters.get(1).offset());
    }

    private static Replay events(UnaryOperator<List<Event>> change) {
        return copy(honest.seed(), change.apply(new ArrayList<>(honest.events())), honest.rounds(),
                honest.claimedScore(), honest.claimedRounds(), honest.assisted());
    }

    private static Replay copy(long seed, List<Event> events, List<List<String>> rounds, int score, int completed,
            boolean assisted) {
        return new Replay(honest.rulesVersion(), seed, honest.level(), events, rounds, score, completed, assisted);
    }

    private static int firstPlacementOfRound(List<Event> events, int round) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof Event.Place p && p.round() == round) {
                return i;
            }
        }
        throw new IllegalStateException("no placement in round " + round);
    }
}
