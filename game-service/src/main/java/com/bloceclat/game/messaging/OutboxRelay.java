package com.bloceclat.game.messaging;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.jboss.logging.Logger;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.game.OutboxMessage;
import com.bloceclat.game.config.GameConfig;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.kafka.Record;

/**
 * Sends the outbox to Kafka: woken after each commit that wrote messages, and every poll interval in case a wake-up
 * was missed or Kafka was down. A batch is marked sent only once the broker acknowledged all of it; when Kafka is
 * unavailable the rows stay and are sent on a later pass, so a message may be sent twice but is never lost
 * (consumers deduplicate by game id or event id). Rows are locked with SKIP LOCKED, so several replicas can relay
 * one outbox.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);

    @Inject
    GameConfig.Outbox config;

    @Inject
    @Channel(GameMessages.EVENTS_CHANNEL)
    Emitter<Record<String, String>> events;

    @Inject
    @Channel(GameFinished.CHANNEL)
    Emitter<Record<String, String>> finished;

    private final AtomicBoolean pending = new AtomicBoolean();
    private ScheduledExecutorService executor;

    void start(@Observes StartupEvent event) {
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "outbox-relay"));
        long every = config.pollInterval().toMillis();
        executor.scheduleWithFixedDelay(this::relaySafely, every, every, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) {
        if (executor != null) {
            executor.shutdownNow();
        }
    }

    /** Asks for a pass soon; wake-ups that arrive while one is pending are merged. */
    public void wake() {
        if (executor != null && pending.compareAndSet(false, true)) {
            executor.execute(() -> {
                pending.set(false);
                relaySafely();
            });
        }
    }

    private void relaySafely() {
        try {
            while (relayBatch() == config.batchSize()) {
                // a full batch: there may be more
            }
        } catch (RuntimeException e) {
            LOG.warnf("Outbox not relayed this time (%s); will retry", e.getMessage());
        }
    }

    /** Sends one batch and marks it sent; answers how many were sent. */
    int relayBatch() {
        return QuarkusTransaction.requiringNew().call(() -> {
            List<OutboxMessage> batch = OutboxMessage.nextUnsent(config.batchSize());
            if (batch.isEmpty()) {
                return 0;
            }
            List<CompletableFuture<Void>> acks = new ArrayList<>(batch.size());
            for (OutboxMessage m : batch) {
                Emitter<Record<String, String>> emitter = switch (m.topic) {
                    case GameMessages.EVENTS_CHANNEL -> events;
                    case GameFinished.CHANNEL -> finished;
                    default -> throw new IllegalStateException("outbox row " + m.id + " has unknown topic " + m.topic);
                };
                acks.add(emitter.send(Record.of(m.key, m.payload)).toCompletableFuture());
            }
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
                    .get(config.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
            // one UPDATE for the batch, not one per row
            OutboxMessage.markSent(batch.stream().map(m -> m.id).toList(), OffsetDateTime.now(ZoneOffset.UTC));
            return batch.size();
        });
    }
}
