package com.bloceclat.leaderboard.messaging;

import java.time.temporal.ChronoUnit;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.faulttolerance.Retry;
import org.jboss.logging.Logger;

import com.bloceclat.leaderboard.messaging.Faults.PermanentFault;
import com.bloceclat.leaderboard.messaging.Faults.TransientFault;
import com.bloceclat.leaderboard.service.GameFinishedService;

import io.smallrye.faulttolerance.api.ExponentialBackoff;

/**
 * Stores what the consumer read, retrying as {@link Faults} says. Guarantees: a {@link TransientFault} (the database
 * unreachable) is retried for as long as it lasts, with an exponential back-off from 200 ms to 30 s, so the message
 * is neither skipped nor dead-lettered and the consumer waits on its partition; a {@link PermanentFault} of a batch
 * is thrown at once (the consumer then stores the batch message by message); a permanent fault of one message is
 * retried a bounded number of times ({@link OneAttempt}) and then thrown, for the consumer to dead-letter it.
 * The retry policies are SmallRye Fault Tolerance's, configurable by its keys (e.g.
 * {@code com.bloceclat.leaderboard.messaging.StoreAttempts/batch/Retry/delay}).
 */
@ApplicationScoped
public class StoreAttempts {

    private static final Logger LOG = Logger.getLogger(StoreAttempts.class);

    @Inject
    GameFinishedService games;

    @Inject
    OneAttempt single;

    /** Stores the whole batch in one transaction; the outcome of each item, in order. */
    @Retry(maxRetries = -1, maxDuration = 0, delay = 200, jitter = 100, retryOn = TransientFault.class,
            abortOn = PermanentFault.class)
    @ExponentialBackoff(factor = 2, maxDelay = 30, maxDelayUnit = ChronoUnit.SECONDS)
    public List<String> batch(List<GameFinishedService.Item> items) {
        return Faults.classified(() -> logged(() -> games.process(items)));
    }

    /** Stores one item in its own transaction, retried a few times when it fails for a reason of its own. */
    @Retry(maxRetries = -1, maxDuration = 0, delay = 200, jitter = 100, retryOn = TransientFault.class,
            abortOn = PermanentFault.class)
    @ExponentialBackoff(factor = 2, maxDelay = 30, maxDelayUnit = ChronoUnit.SECONDS)
    public String one(GameFinishedService.Item item) {
        return single.attempt(item);
    }

    private static <T> T logged(java.util.function.Supplier<T> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            if (Faults.isTransient(e)) {
                LOG.warnf("The database is unreachable, retrying with back-off: %s", Faults.describe(e));
            }
            throw e;
        }
    }

    /** One item's bounded attempts (a bean of its own, so that its retry policy applies). */
    @ApplicationScoped
    public static class OneAttempt {

        @Inject
        GameFinishedService games;

        /** Three attempts in all, 100 ms apart; a transient fault goes up to {@link StoreAttempts#one}. */
        @Retry(maxRetries = 2, delay = 100, jitter = 0, retryOn = PermanentFault.class, abortOn = TransientFault.class)
        public String attempt(GameFinishedService.Item item) {
            return Faults.classified(() -> logged(() -> games.process(List.of(item)).get(0)));
        }
    }
}
