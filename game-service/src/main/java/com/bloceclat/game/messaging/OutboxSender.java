package com.bloceclat.game.messaging;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.game.OutboxMessage;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * Hands the outbox's rows to the Kafka producers, and remembers the sends a pass of {@link OutboxRelay} left
 * unsettled. The producer keeps a record it could not deliver, retrying, for up to its {@code delivery.timeout.ms}
 * (two minutes), far past the relay's {@code send-timeout}: without this memory, each pass while the broker was away
 * or short of in-sync replicas added a copy of every row it kept, and all of them reached the topic once the broker
 * was back (five or six of each, and the producer's buffer filled with megabyte-sized {@code game-finished} copies).
 * With it, this replica sends a row again only once its earlier send failed; a row whose earlier send was acknowledged
 * late is deleted without being sent again.
 */
@ApplicationScoped
public class OutboxSender {

    /**
     * A {@code game-events} record's header: the game's match id, empty for a solo game's change
     * ({@code LiveUpdates} skips, unread, the records of games nobody on its replica watches).
     */
    public static final String LIVE_MATCH_HEADER = "bloc-match";

    @Inject
    @Channel(GameMessages.EVENTS_CHANNEL)
    Emitter<String> events;

    @Inject
    @Channel(GameFinished.CHANNEL)
    Emitter<String> finished;

    /**
     * How long a send is remembered from the pass that made it, never renewed. A send usually settles within the
     * producer's {@code delivery.timeout.ms} (2 min), but not always: the connector hands records to the producer one at
     * a time on one thread, and a record whose topic's metadata the producer lacks waits there up to
     * {@code max.block.ms} (1 min), each in turn. Past an hour, should its outcome never come, the row is sent anew
     * rather than held back for good (both copies may then arrive). An entry whose row another replica sent and
     * deleted meanwhile goes then too.
     */
    static final Duration REMEMBERED = Duration.ofHours(1);

    /** Unsettled sends by row id, each from the pass that made it. */
    private final Cache<Long, CompletableFuture<Void>> unsettled = Caffeine.newBuilder()
            .expireAfterWrite(REMEMBERED).build();

    /** This replica's earlier send of a row, if a pass left it unsettled; {@code null} if none. */
    CompletableFuture<Void> earlier(long id) {
        return unsettled.getIfPresent(id);
    }

    /** Remembers a send its pass leaves unsettled; called once, by the pass that made it. */
    void unsettled(long id, CompletableFuture<Void> ack) {
        unsettled.put(id, ack);
    }

    /** Forgets a row's earlier send once it has settled. */
    void settled(long id) {
        unsettled.invalidate(id);
    }

    /** Sends a row to its topic, keyed by its key; completes when the broker acknowledged it or the send failed. */
    CompletableFuture<Void> send(OutboxMessage.Pending m) {
        try {
            Emitter<String> emitter = switch (m.topic()) {
                case GameMessages.EVENTS_CHANNEL -> events;
                case GameFinished.CHANNEL -> finished;
                default -> throw new OutboxOutcome.UnknownTopic("outbox row " + m.id() + " has unknown topic "
                        + m.topic());
            };
            RecordHeaders headers = new RecordHeaders();
            if (m.liveMatch() != null) {
                headers.add(LIVE_MATCH_HEADER, m.liveMatch().getBytes(StandardCharsets.US_ASCII));
            }
            CompletableFuture<Void> settled = new CompletableFuture<>();
            emitter.send(Message.of(m.payload(), Metadata.of(OutgoingKafkaRecordMetadata.<String>builder()
                    .withKey(m.key()).withHeaders(headers).build()), () -> {
                        settled.complete(null);
                        return CompletableFuture.completedFuture(null);
                    }, failure -> {
                        settled.completeExceptionally(failure);
                        return CompletableFuture.completedFuture(null);
                    }));
            return settled;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Why a settled send failed; {@code null} if it was acknowledged. */
    static Throwable failureOf(CompletableFuture<Void> ack) {
        try {
            ack.join();
            return null;
        } catch (CompletionException | CancellationException e) {
            return e.getCause() == null ? e : e.getCause();
        }
    }
}
