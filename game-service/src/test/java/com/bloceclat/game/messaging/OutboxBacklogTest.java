package com.bloceclat.game.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

class OutboxBacklogTest {

    private double gauge(SimpleMeterRegistry registry, String name) {
        return registry.get(name).gauge().value();
    }

    /**
     * A read that fails leaves the gauges saying nothing, not the last read's figures: they showed the old backlog
     * while the outbox could not be read, so an alert on them stayed quiet (an operator's review).
     */
    @Test
    void theGaugesSayNothingOnceAReadFailsNotTheLastReadsFigures() {
        OutboxBacklog backlog = new OutboxBacklog();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        backlog.metrics = registry;
        backlog.gauges();
        assertTrue(Double.isNaN(gauge(registry, "outbox.oldest.seconds")), "not read yet");

        backlog.took(new OutboxBacklog.Snapshot(7, Duration.ofSeconds(3), 1, Instant.now()));
        assertEquals(7, gauge(registry, "outbox.pending"));
        assertEquals(3, gauge(registry, "outbox.oldest.seconds"));
        assertEquals(1, gauge(registry, "outbox.parked.rows"));

        backlog.failed("connection refused");
        for (String name : new String[] {"outbox.pending", "outbox.oldest.seconds", "outbox.parked.rows"}) {
            assertTrue(Double.isNaN(gauge(registry, name)), name + " says nothing read");
        }
        assertEquals(1, registry.get("outbox.backlog.read.failures").counter().count(), "counted: NaN alerts on nothing");
        HealthCheckResponse check = backlog.call();
        assertEquals(HealthCheckResponse.Status.DOWN, check.getStatus());
        assertEquals("cannot read the outbox: connection refused", check.getData().orElseThrow().get("reason"));

        backlog.took(new OutboxBacklog.Snapshot(0, Duration.ZERO, 1, Instant.now()));
        assertEquals(0, gauge(registry, "outbox.pending"));
    }
}
