package com.bloceclat.leaderboard.messaging;

import java.time.temporal.ChronoUnit;
import java.util.function.BooleanSupplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.jboss.logging.Logger;

import com.bloceclat.common.events.GameFinishedDeadLetter;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.faulttolerance.api.ExponentialBackoff;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Publishes the consumer's dead letters and waits for the broker to have each one. Guarantees:
 * <ul>
 * <li>A letter the broker or the producer refuses as too large goes again without its payload, saying so in its
 * error.</li>
 * <li>Any other failure (the broker away, the topic short of in-sync replicas, a write the ACLs deny, even the letter
 * without its payload refused) is retried with an exponential back-off from 200 ms to 30 s for as long as it lasts,
 * counted in {@code leaderboard.dead_letters.retried}: the message is never acknowledged without its letter, and the
 * consumer waits, as it waits for the database ({@link StoreAttempts}), rather than stop. Before each attempt the
 * stop is asked about: once the application stops, the wait ends with
 * {@link GameFinishedConsumer.StoppingException} and the batch is left to the group's next consumer.</li>
 * </ul>
 */
@ApplicationScoped
public class DeadLetters {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);

    @Inject
    @Channel(GameFinishedDeadLetter.CHANNEL)
    MutinyEmitter<String> emitter;

    @Inject
    MeterRegistry registry;

    /**
     * Publishes {@code letter}, keyed by {@code key}; {@code batch} is the size of the batch waiting on it (for the
     * stop's message), {@code stopping} whether the application has begun to stop.
     */
    @Retry(maxRetries = -1, maxDuration = 0, delay = 200, jitter = 100,
            abortOn = GameFinishedConsumer.StoppingException.class)
    @ExponentialBackoff(factor = 2, maxDelay = 30, maxDelayUnit = ChronoUnit.SECONDS)
    public void publish(String key, GameFinishedDeadLetter letter, int batch, BooleanSupplier stopping) {
        if (stopping.getAsBoolean()) {
            throw new GameFinishedConsumer.StoppingException(batch);
        }
        try {
            try {
                emitter.sendMessageAndAwait(KafkaRecord.of(key, letter.toJson()));
            } catch (RuntimeException e) {
                if (!tooLarge(e)) {
                    throw e;
                }
                LOG.warnf("Dead letter for %s-%d offset %d refused as too large (%s); sent without its payload",
                        letter.topic(), letter.partition(), letter.offset(), Faults.describe(e));
                GameFinishedDeadLetter bare = new GameFinishedDeadLetter(letter.schemaVersion(), letter.topic(),
                        letter.partition(), letter.offset(), letter.key(), null, letter.error() + " (payload of "
                                + (letter.payload() == null ? 0 : letter.payload().length()) + " characters not carried: "
                                + Faults.describe(e) + ")", letter.failedAt());
                emitter.sendMessageAndAwait(KafkaRecord.of(key, bare.toJson()));
            }
        } catch (RuntimeException e) {
            registry.counter("leaderboard.dead_letters.retried").increment();
            LOG.warnf("Dead letter for %s-%d offset %d not sent (%s): retrying with back-off; the consumer waits",
                    letter.topic(), letter.partition(), letter.offset(), Faults.describe(e));
            throw e;
        }
    }

    private static boolean tooLarge(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RecordTooLargeException || t instanceof RecordBatchTooLargeException) {
                return true;
            }
        }
        return false;
    }
}
