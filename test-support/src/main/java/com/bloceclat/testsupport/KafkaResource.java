package com.bloceclat.testsupport;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.smallrye.reactive.messaging.kafka.companion.test.EmbeddedKafkaBroker;

/**
 * A real Kafka broker (KRaft, single node) started inside the test JVM on a free port; the application's
 * {@code kafka.bootstrap.servers} points at it, and {@link #companion()} gives tests a client to produce and consume.
 */
public class KafkaResource implements QuarkusTestResourceLifecycleManager {

    private static volatile String bootstrapServers;

    private EmbeddedKafkaBroker broker;

    @Override
    public Map<String, String> start() {
        broker = new EmbeddedKafkaBroker().withDeleteLogDirsOnClose(true).start();
        bootstrapServers = broker.getAdvertisedListeners().replaceAll("[A-Za-z_]+://", "");
        return Map.of("kafka.bootstrap.servers", bootstrapServers);
    }

    @Override
    public void stop() {
        if (broker != null) {
            broker.close();
        }
        bootstrapServers = null;
    }

    /** A client of the running broker; the caller closes it. */
    public static KafkaCompanion companion() {
        if (bootstrapServers == null) {
            throw new IllegalStateException("The Kafka test broker is not running");
        }
        return new KafkaCompanion(bootstrapServers);
    }
}
