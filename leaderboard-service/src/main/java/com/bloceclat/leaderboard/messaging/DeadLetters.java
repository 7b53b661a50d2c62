package com.bloceclat.leaderboard.messaging;

import java.nio.charset.StandardCharsets;
import java.time.temporal.ChronoUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import com.bloceclat.common.db.DatabaseFaults;
import com.bloceclat.common.events.GameFinishedDeadLetter;
import com.bloceclat.leaderboard.config.LeaderboardConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.faulttolerance.api.ExponentialBackoff;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Publishes the consumers' dead letters ({@value GameFinishedDeadLetter#CHANNEL}, {@value CanaryConsumer#DEAD_LETTER_TOPIC})
 * and waits for the broker to have each one. Guarantees:
 * <ul>
 * <li>A letter carries at most {@code bloc.leaderboard.max-key-bytes} characters of its message's key ({@link #key}),
 * so a letter without its payload always fits.</li>
 * <li>A letter the broker or the producer refuses as too large goes again without its payload, saying so.</li>
 * <li>Any other failure (the broker away, the topic short of in-sync replicas, a write the ACLs deny, even the letter
 * without its payload refused) is retried with an exponential back-off from 200 ms to 30 s for as long as it lasts,
 * counted in {@code leaderboard.dead_letters.retried{topic}}: the message is never acknowledged without its letter,
 * and its consumer waits, as it waits for the database ({@link StoreAttempts}), rather than throw out of its channel's
 * method, which stopped the channel. Before each attempt the stop is asked about: once the application stops, the
 * wait ends with {@link Stopping} (the consumer's message is left unacknowledged for the next consumer).</li>
 * </ul>
 */
@ApplicationScoped
public class DeadLetters {

    private static final Logger LOG = Logger.getLogger(DeadLetters.class);

    /** The header a canary's dead letter says why in (as SmallRye's dead-letter-queue strategy wrote it before). */
    public static final String REASON_HEADER = "dead-letter-reason";

    @Inject
    @Channel(GameFinishedDeadLetter.CHANNEL)
    MutinyEmitter<String> games;

    @Inject
    @Channel(CanaryConsumer.DEAD_LETTER_TOPIC)
    MutinyEmitter<String> canaries;

    @Inject
    MeterRegistry registry;

    @Inject
    LeaderboardConfig config;

    private volatile boolean stopping;

    /** The wait for a letter ended because the application stops. */
    public static class Stopping extends RuntimeException {
        Stopping(String message) {
            super(message);
        }
    }

    void stop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        stopping = true;
    }

    /**
     * Publishes a {@code game-finished} message's letter, keyed by {@code key}; {@code stoppingToo} is the consumer's
     * own view of the stop (it begins before this bean's).
     */
    @Retry(maxRetries = -1, maxDuration = 0, delay = 200, jitter = 100, abortOn = Stopping.class)
    @ExponentialBackoff(factor = 2, maxDelay = 30, maxDelayUnit = ChronoUnit.SECONDS)
    public void game(String key, GameFinishedDeadLetter letter, BooleanSupplier stoppingToo) {
        checkStop(stoppingToo);
        send(games, letter.topic(), letter.partition(), letter.offset(), () -> KafkaRecord.of(key, letter.toJson()),
                failure -> KafkaRecord.of(key, new GameFinishedDeadLetter(letter.schemaVersion(), letter.topic(),
                        letter.partition(), letter.offset(), letter.key(), null, letter.error() + notCarried(
                                letter.payload(), failure), letter.failedAt()).toJson()));
    }

    /**
     * The key a letter carries (and is keyed by): the message's, cut to {@code max-key-bytes} characters (a pair of
     * surrogates kept whole), a few times that many bytes at most.
     */
    public String key(String key) {
        int max = config.maxKeyBytes();
        if (key == null || key.length() <= max) {
            return key;
        }
        return key.substring(0, Character.isHighSurrogate(key.charAt(max - 1)) ? max - 1 : max);
    }

    /** Publishes a canary's letter: its key ({@link #key}) and value as read, the reason in {@value #REASON_HEADER}. */
    @Retry(maxRetries = -1, maxDuration = 0, delay = 200, jitter = 100, abortOn = Stopping.class)
    @ExponentialBackoff(factor = 2, maxDelay = 30, maxDelayUnit = ChronoUnit.SECONDS)
    public void canary(ConsumerRecord<String, String> record, String reason) {
        checkStop(() -> false);
        String key = key(record.key());
        send(canaries, record.topic(), record.partition(), record.offset(),
                () -> KafkaRecord.of(key, record.value()).withHeader(REASON_HEADER,
                        reason.getBytes(StandardCharsets.UTF_8)),
                failure -> KafkaRecord.of(key, (String) null).withHeader(REASON_HEADER,
                        (reason + notCarried(record.value(), failure)).getBytes(StandardCharsets.UTF_8)));
    }

    private void checkStop(BooleanSupplier stoppingToo) {
        if (stopping || stoppingToo.getAsBoolean()) {
            throw new Stopping("the service is stopping: a dead letter not sent is left to the next consumer");
        }
    }

    private void send(MutinyEmitter<String> emitter, String topic, int partition, long offset,
            Supplier<Message<String>> whole, Function<RuntimeException, Message<String>> bare) {
        try {
            try {
                emitter.sendMessageAndAwait(whole.get());
            } catch (RuntimeException e) {
                if (!tooLarge(e)) {
                    throw e;
                }
                LOG.warnf("Dead letter for %s-%d offset %d refused as too large (%s); sent without its payload",
                        topic, partition, offset, Faults.describe(e));
                emitter.sendMessageAndAwait(bare.apply(e));
            }
        } catch (RuntimeException e) {
            registry.counter("leaderboard.dead_letters.retried", "topic", topic).increment();
            LOG.warnf("Dead letter for %s-%d offset %d not sent (%s): retrying with back-off; the consumer waits",
                    topic, partition, offset, Faults.describe(e));
            throw e;
        }
    }

    private static String notCarried(String payload, RuntimeException failure) {
        return " (payload of " + (payload == null ? 0 : payload.length()) + " characters not carried: "
                + Faults.describe(failure) + ")";
    }

    private static boolean tooLarge(Throwable failure) {
        for (Throwable t : DatabaseFaults.causes(failure)) { // at most 32: a cycle of causes ends
            if (t instanceof RecordTooLargeException || t instanceof RecordBatchTooLargeException) {
                return true;
            }
        }
        return false;
    }
}
