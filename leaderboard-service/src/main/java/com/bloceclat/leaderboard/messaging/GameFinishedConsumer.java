package com.bloceclat.leaderboard.messaging;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.GameFinished.MalformedEventException;
import com.bloceclat.common.events.GameFinishedDeadLetter;
import com.bloceclat.leaderboard.service.GameFinishedService;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Consumes {@value GameFinished#CHANNEL} as group {@code leaderboard-service-game-finished}, one message at a
 * time. A message is acknowledged (its offset may be committed) only after the transaction that stored its verdict
 * has committed, so a crash loses nothing; a redelivered message finds its game known and changes nothing. A message
 * that cannot be read goes to {@value GameFinishedDeadLetter#CHANNEL}, and the consumer carries on.
 */
@ApplicationScoped
public class GameFinishedConsumer {

    private static final Logger LOG = Logger.getLogger(GameFinishedConsumer.class);

    @Inject
    GameFinishedService games;

    @Inject
    @Channel(GameFinishedDeadLetter.CHANNEL)
    MutinyEmitter<String> deadLetters;

    @Inject
    MeterRegistry registry;

    /**
     * Not itself transactional: the verdict is stored in {@link GameFinishedService#process}'s own transaction, which
     * has committed when this returns (and the message is acknowledged); a dead letter is published outside any
     * transaction.
     */
    @Incoming(GameFinished.CHANNEL)
    @Blocking
    public void receive(ConsumerRecord<String, String> record) {
        GameFinished game;
        try {
            game = GameFinished.fromJson(record.value());
        } catch (MalformedEventException e) {
            deadLetter(record, e.getMessage());
            return;
        }
        games.process(game, record.timestamp() > 0 ? Instant.ofEpochMilli(record.timestamp()) : null);
    }

    /** Publishes the message to the dead-letter topic and waits for the broker to have it. */
    private void deadLetter(ConsumerRecord<String, String> record, String error) {
        LOG.warnf("Unreadable %s message at %s-%d offset %d (key %s) sent to %s: %s", GameFinished.CHANNEL,
                record.topic(), record.partition(), record.offset(), record.key(), GameFinishedDeadLetter.CHANNEL,
                error);
        GameFinishedDeadLetter letter = new GameFinishedDeadLetter(GameFinishedDeadLetter.SCHEMA_VERSION,
                record.topic(), record.partition(), record.offset(), record.key(), record.value(), error,
                Instant.now());
        deadLetters.sendMessageAndAwait(KafkaRecord.of(record.key(), letter.toJson()));
        registry.counter("leaderboard.games", "outcome", "DEAD_LETTER").increment();
    }
}
