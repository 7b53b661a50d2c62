package com.bloceclat.game;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import com.bloceclat.game.live.RaceHeartbeat;
import com.bloceclat.game.messaging.GameMessages;
import com.bloceclat.game.messaging.OutboxRelay;
import com.bloceclat.game.service.RaceReaper;
import com.bloceclat.testsupport.KafkaResource;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

/**
 * The background loops are the Quarkus scheduler's jobs (no executor of their own), and their passes do their work
 * when run directly: nothing here waits for a timer.
 */
@QuarkusTest
class BackgroundJobsTest {

    @Inject
    Scheduler scheduler;

    @Inject
    OutboxRelay relay;

    @Test
    void theLoopsAreScheduledByTheQuarkusScheduler() {
        for (String job : List.of(OutboxRelay.JOB, RaceReaper.JOB, RaceHeartbeat.JOB)) {
            assertNotNull(scheduler.getScheduledJob(job), job);
        }
    }

    @Test
    void theScheduledPassSendsARowWhoseWakeUpWasLost() {
        String key = "lost-wake-" + UUID.randomUUID();
        // committed without waking the relay, as after a crash between the commit and the wake-up
        QuarkusTransaction.requiringNew().run(
                () -> OutboxMessage.enqueue(GameMessages.EVENTS_CHANNEL, key, "{\"lost\":\"wake-up\"}"));
        relay.poll();
        // The pass has returned: the row was sent and deleted, by this pass or by one that held the relay before it
        // (passes of a replica never overlap).
        assertEquals(0L, QuarkusTransaction.requiringNew().call(() -> OutboxMessage.count("key = ?1", key)));
        try (KafkaCompanion companion = KafkaResource.companion();
                ConsumerTask<String, String> task = companion.consumeStrings()
                        .fromTopics(GameMessages.EVENTS_CHANNEL)) {
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> task.getRecords().stream().map(ConsumerRecord::key).anyMatch(key::equals));
        }
    }
}
