package com.bloceclat.leaderboard.messaging;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.GameFinished.MalformedEventException;
import com.bloceclat.common.events.GameFinishedDeadLetter;
import com.bloceclat.common.events.SignedMessage;
import com.bloceclat.leaderboard.config.LeaderboardConfig;
import com.bloceclat.leaderboard.messaging.Faults.PermanentFault;
import com.bloceclat.leaderboard.service.GameFinishedService;
import com.bloceclat.leaderboard.service.Verdict;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.Blocking;

/**
 * Consumes {@value GameFinished#CHANNEL} as group {@code leaderboard-service-game-finished}, in batches (what one poll
 * returns), one batch at a time (docs/leaderboard-service.md "Consumer", docs/events.md).
 *
 * <p>Guarantees:
 * <ul>
 * <li>A key longer than {@code bloc.leaderboard.max-key-bytes} (1 KiB; game-service keys by game id) is refused as
 * {@code key too large: N bytes, limit M}, and a dead letter carries at most that much of the key, so that the broker
 * always takes the letter.</li>
 * <li>A value larger than {@code bloc.leaderboard.max-message-bytes} (16 MiB, the most game-service's producer sends)
 * is refused as {@code too large: N bytes, limit M} before anything parses it (it is refused, not judged, like a
 * message whose signature does not hold: nothing vouches for it).</li>
 * <li>The signature is checked before anything else ({@code bloc.signing.public-keys}, several keys during a
 * rotation): a message that is unsigned, signed by an unknown key or mis-signed is never judged; it is kept in the
 * refused trail ({@code refused_message}, not {@code game_audit}: it takes no game id), dead-lettered with its reason
 * and counted as {@code REFUSED}.</li>
 * <li>A signed message that cannot be read ({@link GameFinished#fromJson}: malformed or out of bounds) is
 * dead-lettered with its reason.</li>
 * <li>A signed game of another rules version than this replica's engine plays ({@link Verdict#unjudgeable}) is not
 * judged (it would be REJECTED for what is no fault of its player's): it is dead-lettered as
 * {@code unjudgeable: rules version N (this replica judges version M)}, for a redrive once a replica that judges it
 * runs.</li>
 * <li>A batch is stored in one transaction; if that fails for a reason of its own, its messages are stored one by
 * one, each in its own transaction, so that only a message that fails alone (after bounded attempts) is
 * dead-lettered, with the database's reason, and the others are judged. The database unreachable is retried with
 * back-off for as long as it lasts ({@link StoreAttempts}): nothing is skipped, the consumer waits.</li>
 * <li>Nothing a message contains makes this method throw: the channel never stops and readiness stays up. A dead
 * letter the broker does not take is retried until it does ({@link DeadLetters}): the consumer waits, it does not
 * stop, and the message is not acknowledged without its letter.</li>
 * <li>A message is acknowledged (its offset may be committed) only after what it led to has committed, so a crash
 * loses nothing; a redelivered message finds its game (or its refusal) known and changes nothing. A dead letter is
 * published before, outside any transaction (at least once).</li>
 * <li>A graceful stop (SIGTERM) loses nothing: the stop waits up to {@code bloc.leaderboard.shutdown-drain} for the
 * batch being stored to commit; a batch that arrives after the stop began, or whose storing fails once it began (the
 * database closing under it), is neither judged nor acknowledged ({@link StoppingException}), so the group's next
 * consumer reads it again (a message refused or unreadable was dead-lettered as it was read: its letter is sent
 * again then, at least once).</li>
 * </ul>
 * Every outcome is counted in {@code leaderboard.games{outcome}}: RECORD, VALID_NOT_ELIGIBLE, REJECTED, DUPLICATE,
 * REFUSED, DEAD_LETTER, REDELIVERED.
 */
@ApplicationScoped
@Startup // made at start-up, not at the first message: a trusted key that cannot be read stops the start (trustedKeys)
public class GameFinishedConsumer {

    private static final Logger LOG = Logger.getLogger(GameFinishedConsumer.class);

    public static final String DEAD_LETTER = "DEAD_LETTER";

    /** How the letter of a game this replica cannot judge begins ({@link Verdict#unjudgeable}). */
    public static final String UNJUDGEABLE = "unjudgeable: ";

    @Inject
    StoreAttempts store;

    @Inject
    DeadLetters deadLetters;

    @Inject
    MeterRegistry registry;

    @Inject
    LeaderboardConfig config;

    /** Trusted public keys, {@code keyId:base64X509}, comma-separated; required (no default outside tests). */
    @ConfigProperty(name = "bloc.signing.public-keys")
    List<String> publicKeys;

    SignedMessage.Verifier verifier;

    /** Held while a batch is being stored: the stop waits for it ({@link #drain}). */
    private final ReentrantLock storing = new ReentrantLock();

    /** Set when the application begins to stop, before the database and the channels close. */
    private volatile boolean stopping;

    /** Reads the trusted keys at start-up: a key that cannot be read stops the service with the reason. */
    @PostConstruct
    void trustedKeys() {
        verifier = SignedMessage.Verifier.of(publicKeys);
        LOG.infof("Trusting %d signing key(s) for %s", publicKeys.size(), GameFinished.CHANNEL);
    }

    /**
     * Receives what one poll returned (up to {@code max.poll.records}), in partition order. Returns once everything
     * it read is committed or dead-lettered (the batch is then acknowledged).
     */
    @Incoming(GameFinished.CHANNEL)
    @Blocking
    public void receive(ConsumerRecords<String, String> records) {
        if (stopping) {
            throw new StoppingException(records.count());
        }
        storing.lock();
        try {
            if (stopping) {
                throw new StoppingException(records.count()); // the drain began while this batch waited for the lock
            }
            store(records);
        } finally {
            storing.unlock();
        }
    }

    /**
     * Stores a poll's records in order, a part at a time ({@link #parts}): a record read is a parsed replay, many
     * times its text, so a poll of long games (each up to 6 MB of text, a 100,000-event game; a poll holds as many as
     * its fetch brought) read at once before any was stored was more than the heap, and since nothing was committed,
     * again at every restart.
     */
    private void store(ConsumerRecords<String, String> records) {
        List<ConsumerRecord<String, String>> all = new ArrayList<>(records.count());
        records.forEach(all::add);
        int from = 0;
        for (int end : parts(all.stream().mapToInt(r -> Math.max(0, r.serializedValueSize())).toArray(),
                config.maxMessageBytes())) {
            store(all.subList(from, end), records.count());
            from = end;
        }
    }

    /**
     * Where a poll of records of these sizes is cut into parts of at most {@code maxBytes} in all, in order, a record
     * larger than that alone: the end (exclusive) of each part.
     */
    static int[] parts(int[] sizes, long maxBytes) {
        List<Integer> ends = new ArrayList<>();
        long inPart = 0;
        for (int i = 0; i < sizes.length; i++) {
            if (inPart > 0 && inPart + sizes[i] > maxBytes) {
                ends.add(i);
                inPart = 0;
            }
            inPart += Math.max(1, sizes[i]);
        }
        if (sizes.length > 0) {
            ends.add(sizes.length);
        }
        return ends.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Stores one part of a poll of {@code batch} records: read, then stored in one transaction, or one by one. */
    private void store(List<ConsumerRecord<String, String>> part, int batch) {
        List<GameFinishedService.Item> items = new ArrayList<>(part.size());
        List<ConsumerRecord<String, String>> origins = new ArrayList<>(part.size());
        for (ConsumerRecord<String, String> record : part) {
            GameFinishedService.Item item = read(record, batch);
            if (item != null) {
                items.add(item);
                origins.add(record);
            }
        }
        if (items.isEmpty()) {
            return;
        }
        List<String> outcomes;
        try {
            outcomes = store.batch(items);
        } catch (PermanentFault e) {
            stoppingCheck(e, batch);
            LOG.infof("A batch of %d %s messages failed (%s); storing them one by one", items.size(),
                    GameFinished.CHANNEL, e.getMessage());
            outcomes = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                try {
                    outcomes.add(store.one(items.get(i)));
                } catch (PermanentFault f) {
                    stoppingCheck(f, batch);
                    if (!(items.get(i) instanceof GameFinishedService.Refused)) {
                        // a refused message was dead-lettered when it was read; its refusal just was not stored
                        deadLetter(origins.get(i), Faults.storeFailure(f), batch);
                    }
                    outcomes.add(DEAD_LETTER);
                }
            }
        }
        outcomes.forEach(this::count);
    }

    /**
     * A fault while the application stops says nothing about the messages (the database is closing under them): they
     * are left unacknowledged for the next consumer instead of being dead-lettered.
     */
    private void stoppingCheck(PermanentFault fault, int batch) {
        if (stopping) {
            throw new StoppingException(batch, fault);
        }
    }

    /**
     * The first step of a stop (before the datasource, Hibernate and the channels close): no new batch is taken, and
     * the batch being stored gets up to {@code bloc.leaderboard.shutdown-drain} to commit and be acknowledged.
     */
    void drain(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent event) {
        stopping = true;
        try {
            if (storing.tryLock(config.shutdownDrain().toMillis(), TimeUnit.MILLISECONDS)) {
                storing.unlock();
            } else {
                LOG.warnf("Stopping with a %s batch still being stored after %s: it is not acknowledged, and the next"
                        + " consumer reads it again", GameFinished.CHANNEL, config.shutdownDrain());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The message as an item to store, or null when it was dead-lettered as unreadable. */
    private GameFinishedService.Item read(ConsumerRecord<String, String> record, int batch) {
        Instant published = record.timestamp() > 0 ? Instant.ofEpochMilli(record.timestamp()) : null;
        String message;
        try {
            String tooLarge = keyTooLarge(record.serializedKeySize(), config.maxKeyBytes());
            if (tooLarge == null) {
                tooLarge = tooLarge(record.serializedValueSize(), config.maxMessageBytes());
            }
            if (tooLarge != null) {
                throw new SignedMessage.RefusedException(tooLarge);
            }
            message = verifier.open(record.value());
        } catch (SignedMessage.RefusedException e) {
            publishDeadLetter(record, "refused: " + e.getMessage(), batch);
            LOG.warnf("Refused %s message at %s-%d offset %d (key %s): %s", GameFinished.CHANNEL, record.topic(),
                    record.partition(), record.offset(), letterKey(record), e.getMessage());
            return new GameFinishedService.Refused(record.topic(), record.partition(), record.offset(), record.key(),
                    record.value(), e.getMessage(), published);
        }
        GameFinished game;
        try {
            game = GameFinished.fromJson(message);
        } catch (MalformedEventException e) {
            deadLetter(record, e.getMessage(), batch);
            count(DEAD_LETTER);
            return null;
        }
        String unjudgeable = Verdict.unjudgeable(game.replay());
        if (unjudgeable != null) {
            // game-service's signed game, of rules this replica does not play: kept for a redrive, never REJECTED
            deadLetter(record, UNJUDGEABLE + unjudgeable, batch);
            count(DEAD_LETTER);
            return null;
        }
        return new GameFinishedService.Received(game, published);
    }

    /**
     * The refusal of a value of {@code bytes} bytes (as received, after Kafka's decompression; negative for a
     * tombstone) when it is larger than {@code limit}, else null.
     */
    static String tooLarge(int bytes, int limit) {
        return bytes > limit ? "too large: " + bytes + " bytes, limit " + limit : null;
    }

    /**
     * The refusal of a key of {@code bytes} bytes when it is longer than {@code limit}, else null: game-service keys
     * by game id (36 characters), and a dead letter must be able to carry the key.
     */
    static String keyTooLarge(int bytes, int limit) {
        return bytes > limit ? "key too large: " + bytes + " bytes, limit " + limit : null;
    }

    /** The key a dead letter carries ({@link DeadLetters#key}). */
    private String letterKey(ConsumerRecord<String, String> record) {
        return deadLetters.key(record.key());
    }

    private void deadLetter(ConsumerRecord<String, String> record, String error, int batch) {
        LOG.warnf("%s message at %s-%d offset %d (key %s) sent to %s: %s", GameFinished.CHANNEL, record.topic(),
                record.partition(), record.offset(), letterKey(record), GameFinishedDeadLetter.CHANNEL, error);
        publishDeadLetter(record, error, batch);
    }

    /** Publishes the message to the dead-letter topic and waits for the broker to have it ({@link DeadLetters}). */
    private void publishDeadLetter(ConsumerRecord<String, String> record, String error, int batch) {
        String key = letterKey(record);
        try {
            deadLetters.game(key, new GameFinishedDeadLetter(GameFinishedDeadLetter.SCHEMA_VERSION, record.topic(),
                    record.partition(), record.offset(), key, record.value(), error, Instant.now()), () -> stopping);
        } catch (DeadLetters.Stopping e) {
            throw new StoppingException(batch);
        }
    }

    /**
     * A batch not stored because the application is stopping: thrown out of the channel's method, so that the batch
     * is not acknowledged and its offsets are not committed (the group's next consumer reads it again).
     */
    public static final class StoppingException extends RuntimeException {
        StoppingException(int batch) {
            super("the service is stopping: a batch of " + batch + " " + GameFinished.CHANNEL
                    + " messages is left to the next consumer");
        }

        StoppingException(int batch, PermanentFault cause) {
            super("the service is stopping: a batch of " + batch + " " + GameFinished.CHANNEL
                    + " messages is left to the next consumer (" + cause.getMessage() + ")", cause);
        }
    }

    private void count(String outcome) {
        registry.counter("leaderboard.games", "outcome", outcome).increment();
    }
}
