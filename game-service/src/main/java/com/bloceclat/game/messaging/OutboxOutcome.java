package com.bloceclat.game.messaging;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;

import com.bloceclat.common.db.DatabaseFaults;

/**
 * What becomes of one outbox row after its send ({@link OutboxRelay}): deleted, parked with a reason, or kept for the
 * next pass. A pure decision on the send's failure, tested alone (OutboxOutcomeTest).
 */
sealed interface OutboxOutcome {

    /** The broker acknowledged it: the row is deleted. */
    record Sent() implements OutboxOutcome {
    }

    /** It can never be sent: parked with {@code reason}, never holding back the rows after it. */
    record Park(String reason) implements OutboxOutcome {
    }

    /** It may be sent later: kept for the next pass. */
    record Retry(String reason) implements OutboxOutcome {
    }

    /** A row whose topic is not one of the relay's channels. */
    final class UnknownTopic extends RuntimeException {
        UnknownTopic(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The outcome of one send: {@code failure} null when the broker acknowledged it. Parked are only the failures
     * that are the record's own and would fail again on every try: too large for the producer's
     * {@code max.request.size} or the broker's {@code max.message.bytes}, not serializable, or a row with no topic
     * the relay knows. Everything else (timeouts, a broker away, authorisation, unknown errors) is retried later:
     * parking a row for a fault of the platform would lose it.
     */
    static OutboxOutcome of(Throwable failure) {
        if (failure == null) {
            return new Sent();
        }
        // the causes walked by DatabaseFaults.causes, at most 32: a cycle of causes (each the other's) spun the relay
        List<Throwable> causes = DatabaseFaults.causes(failure);
        for (Throwable t : causes) {
            if (t instanceof RecordTooLargeException || t instanceof RecordBatchTooLargeException
                    || t instanceof SerializationException || t instanceof InvalidRecordException
                    || t instanceof UnknownTopic) {
                return new Park(t.getClass().getSimpleName() + ": " + t.getMessage());
            }
        }
        Throwable root = causes.stream()
                .filter(t -> !(t instanceof CompletionException || t instanceof ExecutionException) || t.getCause() == null)
                .findFirst().orElse(failure);
        return new Retry(root.getClass().getSimpleName() + ": " + root.getMessage());
    }
}
