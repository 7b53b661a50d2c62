package com.bloceclat.game.messaging;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletionException;

import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

class OutboxOutcomeTest {

    @Test
    void acknowledgedIsSent() {
        assertInstanceOf(OutboxOutcome.Sent.class, OutboxOutcome.of(null));
    }

    @Test
    void aRecordTooLargeForTheProducerOrTheBrokerIsParkedWithItsReason() {
        OutboxOutcome o = OutboxOutcome.of(new CompletionException(
                new RecordTooLargeException("The request included a message larger than the max message size")));
        OutboxOutcome.Park park = assertInstanceOf(OutboxOutcome.Park.class, o);
        assertTrue(park.reason().startsWith("RecordTooLargeException: The request included"), park.reason());
        assertInstanceOf(OutboxOutcome.Park.class,
                OutboxOutcome.of(new OutboxOutcome.UnknownTopic("outbox row 1 has unknown topic nope")));
    }

    @Test
    void faultsOfThePlatformAreRetriedNeverParked() {
        // a broker away, a timeout, an ACL not (yet) granted: the row is fine, the platform is not
        for (Throwable t : new Throwable[] {new TimeoutException("expired"), new NetworkException("gone"),
                new TopicAuthorizationException("not authorised"), new IllegalStateException("anything else")}) {
            OutboxOutcome o = OutboxOutcome.of(new CompletionException(t));
            OutboxOutcome.Retry retry = assertInstanceOf(OutboxOutcome.Retry.class, o, t.toString());
            assertTrue(retry.reason().startsWith(t.getClass().getSimpleName()), retry.reason());
        }
    }

    /** Before, a cycle of causes (each the other's) spun the relay's thread for good, the outbox lock held. */
    @Test
    void aCycleOfCausesEnds() {
        IllegalStateException a = new IllegalStateException("a");
        CompletionException b = new CompletionException("b", a);
        a.initCause(b);
        OutboxOutcome o = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> OutboxOutcome.of(b));
        assertInstanceOf(OutboxOutcome.Retry.class, o);
        CompletionException c = new CompletionException("c") { }; // its cause not set yet
        CompletionException d = new CompletionException("d", c);
        c.initCause(d);
        assertInstanceOf(OutboxOutcome.Retry.class,
                assertTimeoutPreemptively(Duration.ofSeconds(10), () -> OutboxOutcome.of(c)));
    }
}
