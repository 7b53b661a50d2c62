package com.bloceclat.leaderboard.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

import org.eclipse.microprofile.faulttolerance.Retry;
import org.junit.jupiter.api.Test;

import io.smallrye.faulttolerance.api.ExponentialBackoff;

/**
 * docs/leaderboard-service.md "Faults": the database away, or a dead letter the broker does not take, is waited out
 * for as long as it lasts, never dead-lettered nor skipped. The waits are SmallRye Fault Tolerance's {@code @Retry}s;
 * {@code ConsumerFaultsTest} sees them through an outage of a second or so, which a bound would not show:
 * MicroProfile's default {@code maxDuration} is 180 s, after which the fault would leave the consumer's method and
 * stop its channel for good (run 2 of docs/reliability.md). So each is read here: unbounded in count and in time,
 * backing off to at most 30 s, and not bounded by configuration either.
 */
class RetryPoliciesTest {

    record Wait(Class<?> owner, String method) {
    }

    private static final List<Wait> UNBOUNDED = List.of(new Wait(StoreAttempts.class, "batch"),
            new Wait(StoreAttempts.class, "one"), new Wait(DeadLetters.class, "game"),
            new Wait(DeadLetters.class, "canary"), new Wait(CanaryConsumer.class, "receive"));

    private static Method method(Wait wait) {
        return Arrays.stream(wait.owner().getDeclaredMethods()).filter(m -> m.getName().equals(wait.method()))
                .findFirst().orElseThrow(() -> new AssertionError("no method " + wait));
    }

    @Test
    void everyWaitForTheDatabaseOrTheBrokerHasNoEnd() {
        for (Wait wait : UNBOUNDED) {
            Method method = method(wait);
            Retry retry = method.getAnnotation(Retry.class);
            assertNotNull(retry, wait + " is retried");
            assertEquals(-1, retry.maxRetries(), wait + ": no bound on the attempts");
            assertEquals(0, retry.maxDuration(), wait + ": no bound on the time (MicroProfile's default is 180 s)");
            ExponentialBackoff backoff = method.getAnnotation(ExponentialBackoff.class);
            assertNotNull(backoff, wait + " backs off");
            assertEquals(30, backoff.maxDelayUnit().getDuration().multipliedBy(backoff.maxDelay()).getSeconds(),
                    wait + ": at most 30 s between attempts");
        }
        // the consumer of canaries retries the database only; a message's own fault is dead-lettered at once
        assertEquals(List.of(Faults.TransientFault.class),
                List.of(method(new Wait(CanaryConsumer.class, "receive")).getAnnotation(Retry.class).retryOn()));
        assertTrue(Arrays.asList(method(new Wait(StoreAttempts.class, "batch")).getAnnotation(Retry.class).abortOn())
                .contains(Faults.PermanentFault.class), "a batch's own fault is stored again message by message");
    }

    @Test
    void noConfigurationBoundsThem() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
            assertNotNull(in, "application.properties");
            properties.load(in);
        }
        for (String key : properties.stringPropertyNames()) {
            assertFalse(key.contains("/Retry/") || key.contains("/ExponentialBackoff/")
                    || key.startsWith("smallrye.faulttolerance.") || key.startsWith("quarkus.fault-tolerance."),
                    "a fault-tolerance setting in application.properties: " + key);
        }
    }
}
