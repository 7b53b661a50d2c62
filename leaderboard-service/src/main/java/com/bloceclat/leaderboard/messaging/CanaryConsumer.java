package com.bloceclat.leaderboard.messaging;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import com.bloceclat.leaderboard.Canary;

import io.smallrye.common.annotation.Blocking;

@ApplicationScoped
public class CanaryConsumer {

    /** Channel and Kafka topic, one name. */
    public static final String CHANNEL = "bloc-canary";

    private static final Logger LOG = Logger.getLogger(CanaryConsumer.class);

    @Incoming(CHANNEL)
    @Blocking
    @Transactional
    public void receive(ConsumerRecord<String, CanaryMessage> record) {
        CanaryMessage canary = record.value();
        if (canary == null || canary.id() == null || canary.sentAt() == null) {
            LOG.warnf("Skipping unreadable canary at %s-%d offset %d", record.topic(), record.partition(),
                    record.offset());
            return;
        }
        Canary.seen(canary.id(), canary.sentAt().atOffset(ZoneOffset.UTC), OffsetDateTime.now(ZoneOffset.UTC));
    }
}
