package com.bloceclat.leaderboard.messaging;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.bloceclat.common.events.GameFinished;
import com.bloceclat.common.events.GameFinished.MalformedEventException;
import com.bloceclat.common.events.GameFinishedDeadLetter;
import com.bloceclat.leaderboard.service.GameFinishedService;
import com.bloceclat.leaderboard.service.Verdict;

import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;

/**
 * Consumes {@value GameFinished#CHANNEL} as group {@code leaderboard-service-game-finished}, in batches (what
 * one poll returns), one batch at a time. A message is acknowledged (its offset may be committed) only after the transaction that stored its verdict
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
     * Receives what one poll returned (up to {@code max.poll.records}), in partition order. Not itself
     * transactional: the verdicts are stored in {@link GameFinishedService#process}'s one transaction, which has
     * committed when this returns (and the batch is acknowledged); a dead letter is published outside any
     * transaction, before.
     */
    @Incoming(GameFinished.CHANNEL)
    @Blocking
    public void receive(ConsumerRecords<String, String> records) {
        List<GameFinishedService.Received> batch = new ArrayList<>(records.count());
        for (ConsumerRecord<String, String> record : records) {
            try {
                batch.add(new GameFinishedService.Received(GameFinished.fromJson(record.value()),
                        record.timestamp() > 0 ? Instant.ofEpochMilli(record.timestamp()) : null));
            } catch (MalformedEventException e) {
                deadLetter(record, e.getMessage());
            }
        }
        if (!batch.isEmpty()) {
            for (Verdict verdict : games.process(batch)) {
                count(verdict == null ? "DUPLICATE" : verdict.outcome().name());
            }
        }
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
        count("DEAD_LETTER");
    }

    private void count(String outcome) {
        registry.counter("leaderboard.games", "outcome", outcome).increment();
    }
}
