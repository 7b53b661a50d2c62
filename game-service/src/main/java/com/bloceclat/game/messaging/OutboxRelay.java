package com.bloceclat.game.messaging;

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
 * was missed or Kafka was down. A batch is deleted only once the broker acknowledged all of it; when Kafka is
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

    /**
     * Asks for a pass after {@code bloc.outbox.linger}; wake-ups that arrive meanwhile are merged into it, so under
     * load one pass (one transaction) sends the messages of many commits.
     */
    public void wake() {
        if (executor != null && pending.compareAndSet(false, true)) {
            executor.schedule(() -> {
                pending.set(false);
                relaySafely();
            }, config.linger().toMillis(), TimeUnit.MILLISECONDS);
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
            List<OutboxMessage.Pending> batch = OutboxMessage.nextPending(config.batchSize());
            if (batch.isEmpty()) {
                return 0;
            }
            List<CompletableFuture<Void>> acks = new ArrayList<>(batch.size());
            for (OutboxMessage.Pending m : batch) {
                Emitter<Record<String, String>> emitter = switch (m.topic()) {
                    case GameMessages.EVENTS_CHANNEL -> events;
                    case GameFinished.CHANNEL -> finished;
                    default -> throw new IllegalStateException("outbox row " + m.id() + " has unknown topic " + m.topic());
                };
                acks.add(emitter.send(Record.of(m.key(), m.payload())).toCompletableFuture());
            }
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
                    .get(config.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
            // one DELETE for the batch, not one per row
            OutboxMessage.deleteSent(batch.stream().map(OutboxMessage.Pending::id).toList());
            return batch.size();
        });
    }
}
