package com.bloceclat.game.messaging;

import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.Record;

@ApplicationScoped
public class CanaryPublisher {

    /** Channel and Kafka topic, one name. */
    public static final String CHANNEL = "bloc-canary";

    @Inject
    @Channel(CHANNEL)
    Emitter<Record<String, Canary>> emitter;

    /** Publishes a new canary keyed by its id; the Uni completes once the broker has acknowledged it. */
    public Uni<Canary> publish() {
        Canary canary = new Canary(UUID.randomUUID(), Instant.now());
        return Uni.createFrom()
                .completionStage(() -> emitter.send(Record.of(canary.id().toString(), canary)))
                .replaceWith(canary);
    }
}
