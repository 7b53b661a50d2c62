package com.bloceclat.leaderboard;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.GameFinished.Mode;
import com.bloceclat.common.events.GameFinished.SeedSource;
import com.bloceclat.common.events.GameFinishedDeadLetter;
import com.bloceclat.common.events.SignedMessage;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.Rules;
import com.bloceclat.engine.replay.Replay;
import com.bloceclat.leaderboard.messaging.Faults;
import com.bloceclat.leaderboard.messaging.StoreAttempts;
import com.bloceclat.leaderboard.service.ClockAheadRecovery;
import com.bloceclat.leaderboard.service.GameFinishedService;
import com.bloceclat.leaderboard.service.RecordPolicy;
import com.bloceclat.testsupport.KafkaResource;
import com.bloceclat.testsupport.PrometheusText;
import com.bloceclat.testsupport.Tokens;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.panache.common.Sort;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/**
 * Issue 12's attacks on the leaderboard, through the real broker into PostgreSQL: forged messages, claims from the
 * future, a replay sent again under a new id, games that may not set records, and the daily board.
 * (EXPERT level boards and MEDIUM daily boards are shared with other classes: assertions look at this class's games.)
 */
@QuarkusTest
class IntegrityTest {

    static GameAudit audit(UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> GameAudit.findById(id));
    }

    static GameAudit awaitAudit(UUID id) {
        return await().atMost(Duration.ofSeconds(60)).until(() -> audit(id), a -> a != null);
    }

    static GameRecord record(UUID id) {
        return QuarkusTransaction.requiringNew().call(() -> GameRecord.findById(id));
    }

    static double metric(String outcome) {
        return PrometheusText.value("leaderboard_games_total", "outcome", outcome);
    }

    static Replay fresh(Level level, int rounds) {
        return Games.quick(Games.freshSeed(), level, rounds).replay();
    }

    static GameFinished solo(UUID id, GameFinished.Player player, SeedSource source, LocalDate day, Instant createdAt,
            Instant finishedAt, Replay replay) {
        return Games.finished(id, player, Mode.SOLO, source, day, createdAt, finishedAt, replay.toJson());
    }

    @Test
    void forgedMessagesAreRefusedKeptApartFromGamesAndTakeNoGameId() {
        UUID id = UUID.randomUUID();
        String key = id.toString();
        GameFinished.Player mallory = Games.player("mallory-" + UUID.randomUUID());
        Replay replay = fresh(Level.EXPERT, 3);
        Instant future = Instant.parse("2099-06-01T12:00:00Z");
        GameFinished forged = solo(id, mallory, SeedSource.SERVER, null, future.minusSeconds(60), future, replay);
        KeyPair stranger = SignedMessage.newKeyPair();
        String underATrustedKeyId = new SignedMessage.Signer("test-1", stranger.getPrivate()).sign(forged.toJson());
        String underAnUnknownKey = new SignedMessage.Signer("evil-1", stranger.getPrivate()).sign(forged.toJson());
        // A genuine envelope of another message, its message swapped for the forged one.
        SignedMessage genuine = SignedMessage.fromJson(Games.SIGNER.sign("{\"something\":\"else\"}"));
        String swapped = new SignedMessage(genuine.keyId(), genuine.signature(), forged.toJson()).toJson();
        double refusedBefore = metric("REFUSED");

        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        GameFinished real = solo(id, mallory, SeedSource.SERVER, null, now.minusSeconds(60), now, replay);
        Games.publish(Games.unsigned(forged), new ProducerRecord<>(GameFinished.CHANNEL, key, underATrustedKeyId),
                new ProducerRecord<>(GameFinished.CHANNEL, key, underAnUnknownKey),
                new ProducerRecord<>(GameFinished.CHANNEL, key, swapped),
                // The real game of that id comes after: the forgeries did not take its id.
                Games.message(real));

        GameAudit audit = awaitAudit(id);
        assertEquals(Outcome.RECORD, audit.outcome);
        assertEquals(now.atOffset(ZoneOffset.UTC), audit.finishedAt);
        assertEquals(now.atOffset(ZoneOffset.UTC), record(id).finishedAt);

        List<RefusedMessage> refused = QuarkusTransaction.requiringNew().call(
                () -> RefusedMessage.list("messageKey", Sort.ascending("kafkaOffset"), key));
        assertEquals(4, refused.size(), refused.toString());
        assertTrue(refused.get(0).reason.startsWith("unsigned: "), refused.get(0).reason);
        assertEquals(forged.toJson(), refused.get(0).payload);
        assertTrue(refused.get(1).reason.startsWith("bad signature: key 'test-1' does not verify"),
                refused.get(1).reason);
        assertTrue(refused.get(2).reason.startsWith("unknown key 'evil-1'"), refused.get(2).reason);
        assertTrue(refused.get(3).reason.startsWith("bad signature"), refused.get(3).reason);
        assertTrue(metric("REFUSED") >= refusedBefore + 4);

        // The admins see them, with the reason.
        List<Map<String, Object>> listed = given().auth().oauth2(Tokens.admin("root")).queryParam("size", 100)
                .when().get("/api/leaderboards/admin/audits/refused").then()
                .statusCode(200).extract().path("refused.findAll { it.key == '" + key + "' }");
        assertEquals(4, listed.size());
        assertEquals(refused.get(2).reason, listed.get(1).get("reason"));
        given().auth().oauth2(Tokens.player("pat")).when().get("/api/leaderboards/admin/audits/refused").then()
                .statusCode(403);

        // And each is a dead letter with its reason.
        List<ConsumerRecord<String, String>> letters = Kafka.awaitRecords(GameFinishedDeadLetter.CHANNEL, 4,
                r -> key.equals(r.key()));
        for (ConsumerRecord<String, String> letter : letters) {
            assertTrue(GameFinishedDeadLetter.fromJson(letter.value()).error().startsWith("refused: "),
                    letter.value());
        }
        assertEquals(Games.unsigned(forged).value(), GameFinishedDeadLetter.fromJson(letters.get(0).value())
                .payload());
    }

    @Test
    void aMessageLargerThanGameServiceEverSendsIsRefusedAsTooLargeNotAsUnsigned() {
        // A real game, correctly signed by a trusted key, padded with 21 million spaces after its JSON (still valid
        // JSON, still verifying): 21 MB of text, which zstd makes a few kilobytes, so the broker takes it. Before the
        // size check, the envelope's reader gave up on the 21-million-character "message" string (Jackson's default
        // limit, 20 million) and the trail said "unsigned: not JSON", which it is not.
        GameFinished game = Games.finished(Games.player("hugo-" + UUID.randomUUID()), fresh(Level.EXPERT, 2));
        String key = game.gameId().toString();
        String padded = Games.SIGNER.sign(game.toJson() + " ".repeat(21_000_000));
        int bytes = padded.getBytes(StandardCharsets.UTF_8).length;
        try (KafkaCompanion companion = KafkaResource.companion()) {
            companion.produceStrings()
                    .withProp(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd")
                    .withProp(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 32 << 20)
                    .fromRecords(new ProducerRecord<>(GameFinished.CHANNEL, key, padded))
                    .awaitCompletion(Duration.ofSeconds(60));
        }
        String reason = "too large: " + bytes + " bytes, limit " + (16 << 20);

        RefusedMessage refused = await().atMost(Duration.ofSeconds(60)).until(
                () -> QuarkusTransaction.requiringNew().call(() -> RefusedMessage.<RefusedMessage>find("messageKey",
                        key).firstResult()),
                r -> r != null);
        assertEquals(reason, refused.reason);
        assertTrue(refused.truncated);
        assertEquals(RefusedMessage.MAX_PAYLOAD, refused.payload.length());
        GameFinishedDeadLetter dead = GameFinishedDeadLetter.fromJson(Kafka.awaitRecords(
                GameFinishedDeadLetter.CHANNEL, 1, r -> key.equals(r.key())).get(0).value());
        String letter = dead.error();
        assertTrue(letter.startsWith("refused: " + reason), letter);
        // too large for the broker too: the letter goes without it, and says so (the docs said it carried it all)
        assertNull(dead.payload(), "a 21 MB payload past the broker's limit");
        assertTrue(letter.contains(" characters not carried: "), letter);
        // Refused, not judged: the game's id is not taken, and the same game sent as game-service sends it is judged.
        assertNull(audit(game.gameId()));
        Games.publish(game);
        assertEquals(Outcome.RECORD, awaitAudit(game.gameId()).outcome);
    }

    @Test
    void aMessageWithAKeyFarLongerThanAGameIdIsRefusedAndTheConsumerGoesOn() {
        // A correctly signed game under a 2-million-character key (zstd makes it a few kilobytes, so the broker takes
        // it). Before the key's size was checked it was judged, and its dead letter, which carried the key, was
        // refused by the broker twice (the second time without the payload but still with the key): the channel
        // failed, and every restart read the same message again.
        String prefix = "long-key-" + UUID.randomUUID() + "-";
        String hugeKey = prefix + "k".repeat(2_000_000);
        GameFinished game = Games.finished(Games.player("kim-" + UUID.randomUUID()), fresh(Level.EXPERT, 2));
        try (KafkaCompanion companion = KafkaResource.companion()) {
            companion.produceStrings()
                    .withProp(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd")
                    .withProp(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 32 << 20)
                    .fromRecords(new ProducerRecord<>(GameFinished.CHANNEL, hugeKey, Games.SIGNER.sign(game.toJson())))
                    .awaitCompletion(Duration.ofSeconds(60));
        }
        String reason = "key too large: " + hugeKey.length() + " bytes, limit 1024";

        RefusedMessage refused = await().atMost(Duration.ofSeconds(60)).until(
                () -> QuarkusTransaction.requiringNew().call(() -> RefusedMessage.<RefusedMessage>find("messageKey",
                        hugeKey.substring(0, 255)).firstResult()),
                r -> r != null);
        assertEquals(reason, refused.reason);
        ConsumerRecord<String, String> letter = Kafka.awaitRecords(GameFinishedDeadLetter.CHANNEL, 1,
                r -> r.key() != null && r.key().startsWith(prefix)).get(0);
        assertEquals(hugeKey.substring(0, 1024), letter.key());
        assertTrue(GameFinishedDeadLetter.fromJson(letter.value()).error().startsWith("refused: " + reason),
                letter.value());
        // the consumer goes on: the same game sent as game-service sends it is judged
        assertNull(audit(game.gameId()));
        Games.publish(game);
        assertEquals(Outcome.RECORD, awaitAudit(game.gameId()).outcome);
    }

    @Test
    void aSecondTrustedKeyIsAcceptedDuringARotation() {
        GameFinished game = Games.finished(Games.player("rita-" + UUID.randomUUID()), fresh(Level.EXPERT, 2));
        Games.publish(new ProducerRecord<>(GameFinished.CHANNEL, game.gameId().toString(),
                Games.ROTATED.sign(game.toJson())));
        assertEquals(Outcome.RECORD, awaitAudit(game.gameId()).outcome);
    }

    @Test
    void signedClaimsFromTheFutureOrBeforeTheGameBeganAreRejectedAndNeverOnToday() {
        GameFinished.Player trent = Games.player("trent-" + UUID.randomUUID());
        Instant future = Instant.parse("2099-06-01T12:00:00Z");
        GameFinished fromTheFuture = solo(UUID.randomUUID(), trent, SeedSource.SERVER, null, future.minusSeconds(60),
                future, fresh(Level.EXPERT, 3));
        Instant now = Instant.now();
        GameFinished backwards = solo(UUID.randomUUID(), trent, SeedSource.SERVER, null, now, now.minusSeconds(30),
                fresh(Level.EXPERT, 3));
        Games.publish(fromTheFuture, backwards);

        GameAudit f = awaitAudit(fromTheFuture.gameId());
        assertEquals(Outcome.REJECTED, f.outcome);
        assertTrue(f.reason.startsWith("claims: finishedAt 2099-06-01T12:00:00Z is in the future"), f.reason);
        assertTrue(f.traceLines().get(f.traceLines().size() - 1).startsWith("rejected: claims: "));
        GameAudit b = awaitAudit(backwards.gameId());
        assertEquals(Outcome.REJECTED, b.outcome);
        assertTrue(b.reason.contains("is before createdAt"), b.reason);
        assertNull(record(fromTheFuture.gameId()));
        assertNull(record(backwards.gameId()));
        List<String> today = given().queryParam("period", "today").queryParam("size", 100).when()
                .get("/api/leaderboards/expert").then().statusCode(200).extract().path("entries.gameId");
        assertFalse(today.contains(fromTheFuture.gameId().toString()));
        given().when().get("/api/leaderboards/expert/players/" + trent.subject()).then().statusCode(404);
    }

    /**
     * A game-service clock a few minutes ahead gets real games rejected as finished in the future. Once that time has
     * come, an admin's re-validation (judged at its own time) gives the record back; it used to judge against the
     * first receipt and rejected the game again, for good.
     */
    @Test
    void aGameRejectedForAClockAheadBecomesARecordWhenRevalidatedOnceItsTimeHasCome() {
        Instant ahead = Instant.now().plusSeconds(150).truncatedTo(ChronoUnit.MILLIS);
        GameFinished game = solo(UUID.randomUUID(), Games.player("ahead-" + UUID.randomUUID()), SeedSource.SERVER, null,
                ahead.minusSeconds(60), ahead, fresh(Level.EXPERT, 3));
        Games.publish(game);
        GameAudit first = awaitAudit(game.gameId());
        assertEquals(Outcome.REJECTED, first.outcome);
        assertTrue(first.reason.contains("is in the future"), first.reason);
        // the skew is 2 minutes: 30 s later the game's finishedAt is within it
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(5)).until(() -> "RECORD".equals(
                given().auth().oauth2(Tokens.admin("root")).when()
                        .post("/api/leaderboards/admin/audits/" + game.gameId() + "/revalidate")
                        .then().statusCode(200).extract().path("summary.outcome")));
        assertNotNull(record(game.gameId()));
    }

    @Inject
    ClockAheadRecovery recovery;

    /**
     * The same game with no admin: once its time has come the recovery's pass judges it again by itself (it was left
     * REJECTED, and pruned with the rejections after 90 days), and no other rejection is judged again: not one from
     * 2099, whose time has not come, nor one for another claim.
     */
    @Test
    void aGameRejectedForAClockAheadIsJudgedAgainByItselfOnceItsTimeHasCome() {
        Instant ahead = Instant.now().plusSeconds(150).truncatedTo(ChronoUnit.MILLIS);
        GameFinished.Player ada = Games.player("ahead-" + UUID.randomUUID());
        GameFinished game = solo(UUID.randomUUID(), ada, SeedSource.SERVER, null, ahead.minusSeconds(60), ahead,
                fresh(Level.EXPERT, 3));
        Instant far = Instant.parse("2099-06-01T12:00:00Z");
        GameFinished fromTheFuture = solo(UUID.randomUUID(), ada, SeedSource.SERVER, null, far.minusSeconds(60), far,
                fresh(Level.EXPERT, 3));
        Instant now = Instant.now();
        GameFinished backwards = solo(UUID.randomUUID(), ada, SeedSource.SERVER, null, now, now.minusSeconds(30),
                fresh(Level.EXPERT, 3));
        // one a second before it, whose judging fails for a fault of its own (a stored mode no code knows): it must
        // hold back no other game of the pass
        GameFinished broken = solo(UUID.randomUUID(), Games.player("ahead-" + UUID.randomUUID()), SeedSource.SERVER,
                null, ahead.minusSeconds(61), ahead.minusSeconds(1), fresh(Level.EXPERT, 3));
        Games.publish(game, fromTheFuture, backwards, broken);
        for (GameFinished g : List.of(game, fromTheFuture, backwards, broken)) {
            assertEquals(Outcome.REJECTED, awaitAudit(g.gameId()).outcome);
        }
        QuarkusTransaction.requiringNew().run(() -> GameAudit.update("mode = 'BOGUS' where gameId = ?1",
                broken.gameId()));
        try {
            judgedAgainOnceItsTimeHasCome(game, fromTheFuture, backwards, broken);
        } finally {
            // the other tests' views of every audit read its mode
            QuarkusTransaction.requiringNew().run(() -> GameAudit.update("mode = 'SOLO' where gameId = ?1",
                    broken.gameId()));
        }
    }

    private void judgedAgainOnceItsTimeHasCome(GameFinished game, GameFinished... untouched) {
        recovery.pass();
        assertEquals(List.of(), actions(game.gameId()), "not before its time");

        // the skew is 2 minutes: about 30 s later the game's finishedAt is within it
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(5)).until(() -> {
            recovery.pass();
            return audit(game.gameId()).outcome == Outcome.RECORD;
        });
        assertNotNull(record(game.gameId()));
        List<AuditAction> trail = actions(game.gameId());
        assertEquals(1, trail.size(), "judged again once");
        assertEquals(AuditAction.Kind.REVALIDATE, trail.get(0).kind);
        assertEquals(ClockAheadRecovery.ACTOR, trail.get(0).actor);
        recovery.pass();
        assertEquals(1, actions(game.gameId()).size(), "a record is not judged again");
        for (GameFinished g : untouched) {
            assertEquals(Outcome.REJECTED, audit(g.gameId()).outcome);
            assertEquals(List.of(), actions(g.gameId()));
        }
    }

    private static List<AuditAction> actions(UUID gameId) {
        return QuarkusTransaction.requiringNew().call(() -> AuditAction.list("gameId", gameId));
    }

    @Inject
    GameFinishedService service;

    @Inject
    StoreAttempts attempts;

    /**
     * Two games judged at once, each in a transaction of its own, the first committed only once the second is judged
     * and writing: neither sees the other's record when judged, so only a unique index keeps the second from being a
     * record too. Its batch then fails, and judged again alone, as the consumer does after a failed batch, it sees the
     * first. The first's outcome, what the second's batch gave, the second's outcome alone.
     */
    private List<String> judgedAtOnce(GameFinished first, GameFinished second) throws Exception {
        var written = new java.util.concurrent.CountDownLatch(1);
        var commit = new java.util.concurrent.CountDownLatch(1);
        var one = java.util.concurrent.CompletableFuture.supplyAsync(() -> QuarkusTransaction.requiringNew().call(() -> {
            String outcome = service.process(List.of(new GameFinishedService.Received(first, null))).get(0);
            GameRecord.getEntityManager().flush();
            written.countDown();
            commit.await(30, java.util.concurrent.TimeUnit.SECONDS);
            return outcome;
        }));
        assertTrue(written.await(30, java.util.concurrent.TimeUnit.SECONDS));
        var two = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return attempts.batch(List.of(new GameFinishedService.Received(second, null))).get(0);
            } catch (Faults.PermanentFault e) {
                return "batch failed: " + Faults.describe(e);
            }
        });
        Thread.sleep(1000); // the second judged, its record's insert waiting on the first's
        commit.countDown();
        String firstOutcome = one.get(30, java.util.concurrent.TimeUnit.SECONDS);
        String batch = two.get(30, java.util.concurrent.TimeUnit.SECONDS);
        return List.of(firstOutcome, batch, attempts.one(new GameFinishedService.Received(second, null)));
    }

    @Test
    void oneRecordPerSeedAndOneDailyRecordPerPlayerHoldWhenTwoGamesAreJudgedAtOnce() throws Exception {
        // the policy reads the boards before it grants a record: two consumers judging at once both read nothing;
        // the unique indexes game_record_one_per_seed and game_record_daily_once are what holds (SQL state 23505)
        Replay replay = fresh(Level.MEDIUM, 3);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        GameFinished first = solo(UUID.randomUUID(), Games.player("twin-a-" + UUID.randomUUID()), SeedSource.SERVER,
                null, now.minusSeconds(2), now.minusSeconds(1), replay);
        GameFinished second = solo(UUID.randomUUID(), Games.player("twin-b-" + UUID.randomUUID()), SeedSource.SERVER,
                null, now.minusSeconds(2), now.minusSeconds(1), replay);
        List<String> seed = judgedAtOnce(first, second);
        assertEquals("RECORD", seed.get(0));
        assertTrue(seed.get(1).startsWith("batch failed: SQL state 23505"), seed.get(1));
        assertEquals("DUPLICATE", seed.get(2));
        assertEquals(1L, QuarkusTransaction.requiringNew().call(
                () -> GameRecord.count("level = ?1 and seed = ?2", "MEDIUM", replay.seed())));

        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        GameFinished.Player dee = Games.player("twin-dee-" + UUID.randomUUID());
        GameFinished morning = solo(UUID.randomUUID(), dee, SeedSource.DAILY, today, now.minusSeconds(2),
                now.minusSeconds(1), fresh(Level.MEDIUM, 3));
        GameFinished evening = solo(UUID.randomUUID(), dee, SeedSource.DAILY, today, now.minusSeconds(2),
                now.minusSeconds(1), fresh(Level.MEDIUM, 3));
        List<String> daily = judgedAtOnce(morning, evening);
        assertEquals("RECORD", daily.get(0));
        assertTrue(daily.get(1).startsWith("batch failed: SQL state 23505"), daily.get(1));
        assertEquals("VALID_NOT_ELIGIBLE", daily.get(2));
        assertEquals(1L, QuarkusTransaction.requiringNew().call(
                () -> GameRecord.count("day = ?1 and level = ?2 and playerSubject = ?3", today, "MEDIUM",
                        dee.subject())));
    }

    @Test
    void theSameReplayUnderAnotherIdIsADuplicateKeptForAuditNotASecondRecord() {
        GameFinished.Player victor = Games.player("victor-" + UUID.randomUUID());
        GameFinished.Player copier = Games.player("copier-" + UUID.randomUUID());
        Replay replay = fresh(Level.EXPERT, 4);
        GameFinished first = Games.finished(victor, replay);
        GameFinished again = Games.finished(victor, replay);
        GameFinished byAnother = Games.finished(copier, replay);
        // In one batch (one transaction): the second sees the first's record.
        Games.publish(first, again);
        assertEquals(Outcome.RECORD, awaitAudit(first.gameId()).outcome);
        GameAudit a = awaitAudit(again.gameId());
        assertEquals(Outcome.DUPLICATE, a.outcome);
        assertEquals(RecordPolicy.duplicate("EXPERT", replay.seed(), first.gameId()), a.reason);
        Games.publish(byAnother);
        assertEquals(Outcome.DUPLICATE, awaitAudit(byAnother.gameId()).outcome);

        assertEquals(1L, QuarkusTransaction.requiringNew().call(
                () -> GameRecord.count("level = ?1 and seed = ?2", "EXPERT", replay.seed())));
        given().when().get("/api/leaderboards/expert/players/" + victor.subject()).then()
                .statusCode(200).body("records", equalTo(1));
        given().when().get("/api/leaderboards/expert/players/" + copier.subject()).then().statusCode(404);
        List<String> duplicates = given().auth().oauth2(Tokens.admin("root")).queryParam("outcome", "duplicate")
                .queryParam("size", 100).when().get("/api/leaderboards/admin/audits").then().statusCode(200)
                .extract().path("audits.gameId");
        assertTrue(duplicates.contains(again.gameId().toString()), duplicates.toString());
        // Re-validation applies the same policy: the duplicate stays one.
        given().auth().oauth2(Tokens.admin("root")).when()
                .post("/api/leaderboards/admin/audits/" + again.gameId() + "/revalidate").then()
                .statusCode(200).body("summary.outcome", equalTo("DUPLICATE"));
        given().auth().oauth2(Tokens.admin("root")).when()
                .post("/api/leaderboards/admin/audits/" + first.gameId() + "/revalidate").then()
                .statusCode(200).body("summary.outcome", equalTo("RECORD"));
    }

    @Test
    void chosenSeedsMatchesAndGuestsHaveResultsButNoRecords() {
        GameFinished.Player wendy = Games.player("wendy-" + UUID.randomUUID());
        Instant now = Instant.now();
        GameFinished chosen = solo(UUID.randomUUID(), wendy, SeedSource.CHOSEN, null, now.minusSeconds(60), now,
                fresh(Level.EXPERT, 3));
        GameFinished versusAi = Games.finished(UUID.randomUUID(), wendy, Mode.VERSUS_AI, SeedSource.SERVER, null,
                now.minusSeconds(60), now, fresh(Level.EXPERT, 3).toJson());
        GameFinished race = Games.finished(UUID.randomUUID(), wendy, Mode.ONLINE_RACE, SeedSource.SERVER, null,
                now.minusSeconds(60), now, fresh(Level.EXPERT, 3).toJson());
        GameFinished twoPlayers = Games.finished(UUID.randomUUID(), wendy, Mode.TWO_PLAYERS, SeedSource.SERVER, null,
                now.minusSeconds(60), now, fresh(Level.EXPERT, 3).toJson());
        Games.publish(chosen, versusAi, race, twoPlayers);

        assertEquals(RecordPolicy.CHOSEN, awaitAudit(chosen.gameId()).reason);
        assertEquals(RecordPolicy.notSolo(Mode.VERSUS_AI), awaitAudit(versusAi.gameId()).reason);
        assertEquals(RecordPolicy.notSolo(Mode.ONLINE_RACE), awaitAudit(race.gameId()).reason);
        assertEquals(RecordPolicy.notSolo(Mode.TWO_PLAYERS), awaitAudit(twoPlayers.gameId()).reason);
        for (GameFinished g : List.of(chosen, versusAi, race, twoPlayers)) {
            assertEquals(Outcome.VALID_NOT_ELIGIBLE, audit(g.gameId()).outcome);
            assertNull(record(g.gameId()));
        }
        given().when().get("/api/leaderboards/expert/players/" + wendy.subject()).then().statusCode(404);
        // Their results are the player's own history.
        List<String> mine = given().auth().oauth2(Tokens.of(wendy.subject(), wendy.name(), List.of("player")))
                .when().get("/api/leaderboards/me/games").then().statusCode(200).extract().path("games.gameId");
        assertEquals(4, mine.size());
    }

    /**
     * An admin who is also a player must not learn a daily game's seed (nor its replay, which shows the pieces dealt)
     * before the day is over: with it, the public CLI deals the day's pieces, and the day's record falls to foresight.
     */
    @Test
    void anAdminCannotReadADailyGamesSeedOrReplayBeforeItsDayIsOver() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        GameFinished.Player dee = Games.player("daily-dee-" + UUID.randomUUID());
        GameFinished todays = solo(UUID.randomUUID(), dee, SeedSource.DAILY, today, now.minusSeconds(1), now,
                Games.quick(Games.freshSeed(), Level.HARD, 3).replay());
        Instant yesterday = today.minusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().plusSeconds(3600);
        GameFinished yesterdays = solo(UUID.randomUUID(), dee, SeedSource.DAILY, today.minusDays(1), yesterday,
                yesterday.plusSeconds(60), Games.quick(Games.freshSeed(), Level.HARD, 3).replay());
        Games.publish(todays, yesterdays);
        awaitAudit(todays.gameId());
        awaitAudit(yesterdays.gameId());

        given().auth().oauth2(Tokens.admin("root")).when().get("/api/leaderboards/admin/audits/" + todays.gameId())
                .then().statusCode(200)
                .body("seed", nullValue())
                .body("replay", nullValue())
                .body("start", nullValue())
                .body("trace", empty())
                .body("withheldUntil", startsWith(today.plusDays(1) + "T00:00"));
        given().auth().oauth2(Tokens.admin("root")).when().get("/api/leaderboards/admin/audits/" + yesterdays.gameId())
                .then().statusCode(200)
                .body("seed", notNullValue())
                .body("replay.events", not(empty()))
                .body("withheldUntil", nullValue());
    }

    @Test
    void theValidatorsWordsAboutADailyGameAreWithheldUntilItsDayIsOverOnEveryAdminView() throws Exception {
        // a signed daily game of today whose replay lists other pieces for round 0 than the seed deals (an engine
        // changed since it was signed): the rejection's reason names the day's pieces, so it is withheld as the seed
        // is, in the list, the detail and the answer of a re-validation (and the re-validation's own words)
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        var json = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(Games.quick(Games.freshSeed(), Level.HARD, 3).replay().toJson());
        var round0 = (com.fasterxml.jackson.databind.node.ArrayNode) json.withArray("rounds").get(0);
        round0.set(0, "DOT".equals(round0.get(0).asText()) ? "O4" : "DOT");
        GameFinished.Player rae = Games.player("daily-rae-" + UUID.randomUUID());
        GameFinished todays = Games.finished(UUID.randomUUID(), rae,
                Mode.SOLO, SeedSource.DAILY, today, now.minusSeconds(1), now, json.toString());
        Games.publish(todays);
        assertTrue(awaitAudit(todays.gameId()).reason.contains("the seed deals"), "the stored reason names the pieces");
        String audits = "/api/leaderboards/admin/audits/";

        given().auth().oauth2(Tokens.admin("root")).when().get(audits + todays.gameId())
                .then().statusCode(200)
                .body("summary.outcome", equalTo("REJECTED"))
                .body("summary.reason", not(containsString("seed deals")))
                .body("summary.reason", containsString("withheld"));
        List<String> listed = given().auth().oauth2(Tokens.admin("root"))
                .queryParam("outcome", "REJECTED").queryParam("size", 100)
                .when().get(audits).then().statusCode(200)
                .extract().path("audits.findAll { it.gameId == '" + todays.gameId() + "' }.reason");
        assertEquals(1, listed.size(), listed.toString());
        assertFalse(listed.get(0).contains("seed deals"), listed.get(0));
        given().auth().oauth2(Tokens.admin("root")).when().post(audits + todays.gameId() + "/revalidate")
                .then().statusCode(200)
                .body("seed", nullValue())
                .body("replay", nullValue())
                .body("trace", empty())
                .body("summary.reason", not(containsString("seed deals")))
                .body("actions.detail", not(org.hamcrest.Matchers.hasItem(containsString("seed deals"))))
                .body("actions.detail", org.hamcrest.Matchers.hasItem(containsString("withheld")));
        // and from its player's own list (which showed the reason as stored)
        List<String> reasons = given().auth().oauth2(Tokens.of(rae.subject(), rae.name(), List.of("player")))
                .when().get("/api/leaderboards/me/games").then().statusCode(200)
                .extract().path("games.reason");
        assertEquals(1, reasons.size(), reasons.toString());
        assertFalse(reasons.get(0).contains("seed deals"), reasons.get(0));
        assertTrue(reasons.get(0).contains("withheld"), reasons.get(0));
    }

    /**
     * After a change of the rules (docs/rules.md: the version is bumped), a record of the old rules is no longer one
     * this engine can judge: re-validated, it was REJECTED and struck, every record of the old rules off the boards at
     * an admin's click. Now a 409 that says so, and nothing changes.
     */
    @Test
    void aRecordOfOtherRulesIsNotReValidatedNorStruck() {
        GameFinished.Player ruth = Games.player("ruth-" + UUID.randomUUID());
        GameFinished game = Games.finished(ruth, Games.quick(Games.freshSeed(), Level.HARD, 3).replay());
        Games.publish(game);
        assertEquals(Outcome.RECORD, awaitAudit(game.gameId()).outcome);
        String other = "\"rulesVersion\":" + (Rules.RULES_VERSION + 1);
        QuarkusTransaction.requiringNew().run(() -> GameAudit.update(
                "replay = replace(replay, ?1, ?2) where gameId = ?3", "\"rulesVersion\":" + Rules.RULES_VERSION,
                other, game.gameId()));
        String audit = "/api/leaderboards/admin/audits/" + game.gameId();
        given().auth().oauth2(Tokens.admin("root")).when().post(audit + "/revalidate").then()
                .statusCode(409).contentType("application/problem+json")
                .body("detail", equalTo("Game " + game.gameId() + " is not re-validated: its replay is of rules version "
                        + (Rules.RULES_VERSION + 1) + " (this replica judges version " + Rules.RULES_VERSION + ")"));
        given().auth().oauth2(Tokens.admin("root")).when().get(audit).then().statusCode(200)
                .body("summary.outcome", equalTo("RECORD"))
                .body("summary.struck", equalTo(false))
                .body("actions", empty());
        given().when().get("/api/leaderboards/hard/players/" + ruth.subject()).then().statusCode(200);
    }

    /**
     * The same for a daily record a re-validation strikes (security.md: "a re-validation's verdict and the strike it
     * made"): theValidatorsWordsAboutADailyGame... rejects its game at once, so it never had a record to strike.
     * Today's daily record, its stored replay then found listing other pieces for round 0: the re-validation's answer,
     * the detail, the list and the answer of an admin's own strike after it name none of the day's pieces.
     */
    @Test
    void aRevalidationsStrikeOfADailyRecordIsWithheldUntilItsDayIsOverOnEveryAdminView() throws Exception {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Replay replay = Games.quick(Games.freshSeed(), Level.HARD, 3).replay();
        GameFinished todays = Games.finished(UUID.randomUUID(), Games.player("daily-rex-" + UUID.randomUUID()),
                Mode.SOLO, SeedSource.DAILY, today, now.minusSeconds(1), now, replay.toJson());
        Games.publish(todays);
        assertEquals(Outcome.RECORD, awaitAudit(todays.gameId()).outcome);
        var json = (com.fasterxml.jackson.databind.node.ObjectNode) new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(replay.toJson());
        var round0 = (com.fasterxml.jackson.databind.node.ArrayNode) json.withArray("rounds").get(0);
        round0.set(0, "DOT".equals(round0.get(0).asText()) ? "O4" : "DOT");
        QuarkusTransaction.requiringNew().run(
                () -> GameAudit.update("replay = ?1 where gameId = ?2", json.toString(), todays.gameId()));
        String audit = "/api/leaderboards/admin/audits/" + todays.gameId();

        String revalidated = given().auth().oauth2(Tokens.admin("root")).when().post(audit + "/revalidate")
                .then().statusCode(200)
                .body("summary.struck", equalTo(true))
                .body("strike.reason", containsString("withheld"))
                .extract().asString();
        assertTrue(QuarkusTransaction.requiringNew().call(() -> GameRecord.<GameRecord>findById(todays.gameId()))
                .strikeReason.contains("the seed deals"), "the stored strike names the pieces");
        assertFalse(revalidated.contains("seed deals"), revalidated);
        String detail = given().auth().oauth2(Tokens.admin("root")).when().get(audit).then().statusCode(200)
                .extract().asString();
        assertFalse(detail.contains("seed deals"), detail);
        // its own entry: other tests' games (not daily) are listed with their reasons, which may name pieces
        Map<String, Object> listed = given().auth().oauth2(Tokens.admin("root")).queryParam("size", 100)
                .when().get("/api/leaderboards/admin/audits").then().statusCode(200)
                .extract().path("audits.find { it.gameId == '" + todays.gameId() + "' }");
        assertNotNull(listed, "listed");
        assertFalse(listed.toString().contains("seed deals"), listed.toString());
        String struck = given().auth().oauth2(Tokens.admin("root")).contentType("application/json")
                .body("{\"reason\":\"scouted the day\"}").when().post(audit + "/strike").then().statusCode(200)
                .body("strike.reason", equalTo("scouted the day")).extract().asString();
        assertFalse(struck.contains("seed deals"), struck);
    }

    @Test
    void theRefusedTrailWithholdsAMessageNamingADailyGameUntilTheMidnightAfterItWasRefused() {
        // a daily game of today, refused (signed with a key leaderboard-service does not know: a rotation done in the
        // wrong order refuses every message so): its payload deals the day's pieces, so admins do not see it today
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        GameFinished todays = solo(UUID.randomUUID(), Games.player("refused-dee-" + UUID.randomUUID()),
                SeedSource.DAILY, today, now.minusSeconds(1), now,
                Games.quick(Games.freshSeed(), Level.HARD, 3).replay());
        String key = todays.gameId().toString();
        String signed = new SignedMessage.Signer("evil-2", SignedMessage.newKeyPair().getPrivate())
                .sign(todays.toJson());
        GameFinished server = solo(UUID.randomUUID(), Games.player("refused-sam-" + UUID.randomUUID()),
                SeedSource.SERVER, null, now.minusSeconds(1), now,
                Games.quick(Games.freshSeed(), Level.HARD, 3).replay());
        Games.publish(new ProducerRecord<>(GameFinished.CHANNEL, key, signed), Games.unsigned(server));
        await().atMost(Duration.ofSeconds(60)).until(() -> QuarkusTransaction.requiringNew().call(
                () -> RefusedMessage.count("messageKey in ?1", List.of(key, server.gameId().toString())) == 2));

        Map<String, Object> daily = refusedListed(key);
        assertNull(daily.get("payload"), daily.toString());
        assertTrue(((String) daily.get("withheldUntil")).startsWith(today.plusDays(1) + "T00:00"), daily.toString());
        Map<String, Object> other = refusedListed(server.gameId().toString());
        assertEquals(server.toJson(), other.get("payload"), "a server-seed game's message is shown as received");
        assertNull(other.get("withheldUntil"));
    }

    private static Map<String, Object> refusedListed(String key) {
        List<Map<String, Object>> listed = given().auth().oauth2(Tokens.admin("root")).queryParam("size", 100)
                .when().get("/api/leaderboards/admin/audits/refused").then()
                .statusCode(200).extract().path("refused.findAll { it.key == '" + key + "' }");
        assertEquals(1, listed.size(), key + ": " + listed);
        return listed.get(0);
    }

    /**
     * A first daily attempt made with a hint does not count; a second attempt, which game-service signs as practice
     * (started after the first), does not either, and re-validation keeps it so. Before, the second attempt took the
     * daily board with the pieces the first had scouted with this system's own hints.
     */
    @Test
    void aDailyGameStartedAfterAnAssistedFirstAttemptIsPracticeNotARecord() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        long daySeed;
        Game scouted;
        do { // a seed whose quick game is not over within three rounds: a hint needs a game in play
            daySeed = Games.freshSeed();
            scouted = Games.quick(daySeed, Level.HARD, 3);
        } while (scouted.gameOver());
        GameFinished.Player cleo = Games.player("daily-cleo-" + UUID.randomUUID());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        scouted.hintShown();
        GameFinished first = solo(UUID.randomUUID(), cleo, SeedSource.DAILY, today, now.minusSeconds(60), now,
                scouted.replay());
        GameFinished second = solo(UUID.randomUUID(), cleo, SeedSource.DAILY, today, now.minusSeconds(30), now,
                Games.quick(daySeed, Level.HARD, 5).replay()).withPractice(true);
        Games.publish(first);
        assertEquals(RecordPolicy.ASSISTED, awaitAudit(first.gameId()).reason);
        Games.publish(second);
        GameAudit practice = awaitAudit(second.gameId());
        assertEquals(Outcome.VALID_NOT_ELIGIBLE, practice.outcome);
        assertEquals(RecordPolicy.startedSecond(today, "HARD"), practice.reason);
        assertTrue(practice.practice);
        assertNull(record(second.gameId()));
        given().auth().oauth2(Tokens.admin("root")).when()
                .post("/api/leaderboards/admin/audits/" + second.gameId() + "/revalidate").then()
                .statusCode(200).body("summary.outcome", equalTo("VALID_NOT_ELIGIBLE"))
                .body("summary.practice", equalTo(true));
        assertNull(record(second.gameId()));
    }

    @Test
    void eachPlayersFirstDailyGameCountsOnTheDayBoardLaterOnesArePractice() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        long daySeed = Games.freshSeed();
        GameFinished.Player ann = Games.player("daily-ann-" + UUID.randomUUID());
        GameFinished.Player bob = Games.player("daily-bob-" + UUID.randomUUID());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant created = now.minusSeconds(1);
        // The same day's seed for everyone; ann plays it twice (her second game scores more: still practice).
        GameFinished annFirst = solo(UUID.randomUUID(), ann, SeedSource.DAILY, today, created, now,
                Games.quick(daySeed, Level.MEDIUM, 2).replay());
        GameFinished annAgain = solo(UUID.randomUUID(), ann, SeedSource.DAILY, today, created, now.plusMillis(5),
                Games.quick(daySeed, Level.MEDIUM, 6).replay());
        GameFinished bobs = solo(UUID.randomUUID(), bob, SeedSource.DAILY, today, created, now,
                Games.quick(daySeed, Level.MEDIUM, 4).replay());
        GameFinished guest = solo(UUID.randomUUID(), null, SeedSource.DAILY, today, created, now,
                Games.quick(daySeed, Level.MEDIUM, 5).replay());
        Games.publish(annFirst);
        assertEquals(Outcome.RECORD, awaitAudit(annFirst.gameId()).outcome);
        Games.publish(annAgain, bobs, guest);

        GameAudit practice = awaitAudit(annAgain.gameId());
        assertEquals(Outcome.VALID_NOT_ELIGIBLE, practice.outcome);
        assertEquals(RecordPolicy.practice(today, "MEDIUM", annFirst.gameId()), practice.reason);
        assertEquals(Outcome.RECORD, awaitAudit(bobs.gameId()).outcome);
        assertEquals(RecordPolicy.GUEST, awaitAudit(guest.gameId()).reason);
        assertEquals(today, record(annFirst.gameId()).day);

        List<String> board = given().queryParam("size", 100).when().get("/api/leaderboards/medium/daily").then()
                .statusCode(200)
                .body("level", equalTo("MEDIUM"))
                .body("day", equalTo(today.toString()))
                .body("page", equalTo(0))
                .extract().path("entries.gameId");
        List<String> mine = board.stream()
                .filter(g -> g.equals(annFirst.gameId().toString()) || g.equals(bobs.gameId().toString())).toList();
        int annScore = annFirst.replay().get("claimedScore").intValue();
        int bobScore = bobs.replay().get("claimedScore").intValue();
        assertEquals(bobScore >= annScore ? List.of(bobs.gameId().toString(), annFirst.gameId().toString())
                : List.of(annFirst.gameId().toString(), bobs.gameId().toString()), mine);
        assertFalse(board.contains(annAgain.gameId().toString()), "practice is not on the board");
        Map<String, Object> entry = given().queryParam("day", today.toString()).queryParam("size", 100).when()
                .get("/api/leaderboards/MEDIUM/daily").then().statusCode(200)
                .extract().path("entries.find { it.gameId == '" + bobs.gameId() + "' }");
        assertEquals(bob.name(), entry.get("player"));
        assertEquals(bob.subject(), entry.get("playerId"));
        assertEquals(bobScore, entry.get("score"));
        assertFalse(entry.containsKey("seed"), "the day's seed is secret until the day is over");
        assertFalse(entry.containsKey("replay"));

        // The caller's own daily standing.
        given().auth().oauth2(Tokens.of(ann.subject(), ann.name(), List.of("player"))).when()
                .get("/api/leaderboards/medium/daily/me").then().statusCode(200)
                .body("best.gameId", equalTo(annFirst.gameId().toString()))
                .body("day", equalTo(today.toString()));
        given().auth().oauth2(Tokens.player("nobody-daily")).when().get("/api/leaderboards/medium/daily/me").then()
                .statusCode(200).body("best", equalTo(null));

        // The daily board is its own: none of it is on the level's boards.
        List<String> level = given().queryParam("size", 100).when().get("/api/leaderboards/medium").then()
                .statusCode(200).extract().path("entries.gameId");
        assertFalse(level.contains(annFirst.gameId().toString()));
        assertFalse(level.contains(bobs.gameId().toString()));
        given().when().get("/api/leaderboards/medium/players/" + ann.subject()).then().statusCode(404);

        // Another day's board, and days that are not days or have not begun.
        List<String> yesterday = given().queryParam("day", today.minusDays(1).toString()).when()
                .get("/api/leaderboards/medium/daily").then().statusCode(200).extract().path("entries.gameId");
        assertFalse(yesterday.contains(bobs.gameId().toString()));
        given().queryParam("day", today.plusDays(1).toString()).when().get("/api/leaderboards/medium/daily").then()
                .statusCode(400).body("detail", containsString("is after today"));
        for (String bad : new String[] {"2026-13-01", "yesterday", "2026-1-1", "1999-12-31"}) {
            given().queryParam("day", bad).when().get("/api/leaderboards/medium/daily").then()
                    .statusCode(400).body("detail", containsString("'day'"));
        }
        given().when().get("/api/leaderboards/impossible/daily").then().statusCode(400);
        assertNotNull(audit(annFirst.gameId()).day);
    }
}
