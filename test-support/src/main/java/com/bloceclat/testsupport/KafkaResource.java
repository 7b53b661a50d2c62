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
        return started(new EmbeddedKafkaBroker());
    }

    /**
     * Starts a broker again on the port the last one had, so that the clients which knew that one find this one: a
     * broker back after an outage, as far as they can tell (its topics are new and empty).
     */
    public Map<String, String> startOnTheSamePort() {
        if (bootstrapServers == null) {
            throw new IllegalStateException("No broker ran before");
        }
        int port = Integer.parseInt(bootstrapServers.substring(bootstrapServers.lastIndexOf(':') + 1));
        return started(new EmbeddedKafkaBroker().withKafkaPort(port));
    }

    private Map<String, String> started(EmbeddedKafkaBroker configured) {
        broker = configured.withDeleteLogDirsOnClose(true).start();
        bootstrapServers = broker.getAdvertisedListeners().replaceAll("[A-Za-z_]+://", "");
        return Map.of("kafka.bootstrap.servers", bootstrapServers);
    }

    /** Stops the broker; {@link #startOnTheSamePort} may start one again where it was. */
    public void stopForNow() {
        if (broker != null) {
            broker.close();
            broker = null;
        }
    }

    @Override
    public void stop() {
        stopForNow();
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
