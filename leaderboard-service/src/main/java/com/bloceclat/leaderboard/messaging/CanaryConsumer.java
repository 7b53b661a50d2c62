package com.bloceclat.leaderboard.messaging;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.bloceclat.leaderboard.Canary;
import com.bloceclat.leaderboard.messaging.Faults.PermanentFault;
import com.bloceclat.leaderboard.messaging.Faults.TransientFault;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.faulttolerance.api.ExponentialBackoff;

/**
 * Stores the canaries game-service sends (docs/platform.md), one row per canary id whatever the redeliveries.
 * Guarantees: a canary that cannot be read, or that the database refuses (a {@code sentAt} PostgreSQL cannot store),
 * is counted in {@code leaderboard.canaries{outcome=DEAD_LETTER}}, logged once and dead-lettered with its reason to
 * {@value #DEAD_LETTER_TOPIC} ({@link DeadLetters}: a letter the broker does not take is retried until it does, the
 * consumer waiting), and the channel goes on; the database unreachable is retried with back-off for as long as it
 * lasts. The channel's dead-letter-queue failure strategy stays for what nothing here expects (and for a stop that
 * ends a wait for a letter).
 */
@ApplicationScoped
public class CanaryConsumer {

    /** Channel and Kafka topic, one name. */
    public static final String CHANNEL = "bloc-canary";

    public static final String DEAD_LETTER_TOPIC = "bloc-canary-dlq";

    private static final Logger LOG = Logger.getLogger(CanaryConsumer.class);

    private static final ObjectMapper MAPPER = JsonMapper.builder().addModule(new JavaTimeModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    @Inject
    MeterRegistry registry;

    @Inject
    DeadLetters deadLetters;

    /** Stores one canary; one that cannot be read or stored is dead-lettered ({@link DeadLetters}), never thrown. */
    @Incoming(CHANNEL)
    @Blocking
    @Retry(maxRetries = -1, maxDuration = 0, delay = 200, jitter = 100, retryOn = TransientFault.class)
    @ExponentialBackoff(factor = 2, maxDelay = 30, maxDelayUnit = ChronoUnit.SECONDS)
    public void receive(ConsumerRecord<String, String> record) {
        CanaryMessage canary;
        try {
            canary = record.value() == null ? null : MAPPER.readValue(record.value(), CanaryMessage.class);
        } catch (Exception e) {
            refused(record, "unreadable canary: " + Faults.describe(e));
            return;
        }
        if (canary == null || canary.id() == null || canary.sentAt() == null) {
            refused(record, "unreadable canary: id and sentAt are required");
            return;
        }
        try {
            Faults.classified(() -> {
                QuarkusTransaction.requiringNew().run(() -> Canary.seen(canary.id(),
                        canary.sentAt().atOffset(ZoneOffset.UTC), OffsetDateTime.now(ZoneOffset.UTC)));
                return null;
            });
        } catch (PermanentFault e) {
            refused(record, Faults.storeFailure(e));
            return;
        }
        registry.counter("leaderboard.canaries", "outcome", "SEEN").increment();
    }

    private void refused(ConsumerRecord<String, String> record, String reason) {
        LOG.warnf("Canary at %s-%d offset %d (key %s) sent to %s: %s", record.topic(), record.partition(),
                record.offset(), deadLetters.key(record.key()), DEAD_LETTER_TOPIC, reason);
        deadLetters.canary(record, reason);
        registry.counter("leaderboard.canaries", "outcome", "DEAD_LETTER").increment();
    }
}
