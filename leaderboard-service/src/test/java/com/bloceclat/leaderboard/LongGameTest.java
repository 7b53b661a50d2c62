package com.bloceclat.leaderboard;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.engine.Game;
import com.bloceclat.engine.Level;
import com.bloceclat.engine.SelfPlay;
import com.bloceclat.testsupport.KafkaResource;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

/**
 * Issue 13: a solo game of 20,000 rounds (EASY is endless for a strong player) still reaches the leaderboard. Its
 * message is sent as game-service sends it (signed, zstd-compressed, into a broker with Kafka's default 1 MiB limit:
 * the raw message is about 3.6 MiB) and judged a RECORD with every round. The cheat detector's schedule is an hour in
 * tests; the record and its audit are then removed, because measuring 20,000 rounds is minutes of CPU that says
 * nothing here and SuspicionTest's passes, in the same application, would take it from the queue.
 */
@QuarkusTest
class LongGameTest {

    static final int ROUNDS = 20_000;

    @Test
    void aSoloGameOf20000RoundsReachesTheLeaderboardAsARecord() {
        // the engine's strength-3 AI from the first seed that lives that long, as game-service's OutboxRelayTest
        Game game = SelfPlay.firstGameLasting(Level.EASY, 3, ROUNDS);
        Instant finishedAt = Instant.now();
        GameFinished finished = Games.finished(UUID.randomUUID(), Games.player("marathon"), GameFinished.Mode.SOLO,
                GameFinished.SeedSource.SERVER, null, finishedAt.minusSeconds(3600), finishedAt, game.replay().toJson());
        try (KafkaCompanion companion = KafkaResource.companion()) {
            companion.produceStrings()
                    .withProp(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd")
                    .withProp(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 << 20)
                    .fromRecords(Games.message(finished)).awaitCompletion(Duration.ofSeconds(60));
        }
        try {
            GameRecord record = await().atMost(Duration.ofSeconds(120)).until(
                    () -> QuarkusTransaction.requiringNew().call(
                            () -> GameRecord.<GameRecord>findById(finished.gameId())),
                    r -> r != null);
            assertNotNull(record);
            assertEquals(game.score(), record.score);
            assertTrue(record.rounds >= ROUNDS, record.rounds + " rounds");
        } finally {
            // whatever the outcome and the order the classes run in: the EASY board is LeaderboardResourceTest's, and
            // the detector's queue SuspicionTest's, whose passes would spend minutes measuring this record
            QuarkusTransaction.requiringNew().run(() -> {
                GameRecord.deleteById(finished.gameId());
                GameAudit.deleteById(finished.gameId());
            });
        }
    }
}
