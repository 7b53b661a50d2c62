package com.bloceclat.leaderboard.messaging;

import java.sql.SQLException;
import java.util.function.Supplier;

import com.bloceclat.common.db.DatabaseFaults;

/**
 * Tells the faults of storing a message apart (docs/leaderboard-service.md "Faults"): a <em>transient</em> fault is the
 * database being unreachable or busy (service-common's {@link DatabaseFaults}, the rule the REST layer's 503 follows
 * too); it says nothing about the message, so the
 * message is retried with back-off until the database answers, and never dead-lettered. Every other fault is
 * <em>permanent</em>: it comes with this message (a constraint, a value too long, a value out of range) and will not
 * go away by waiting.
 */
public final class Faults {

    private Faults() {
    }

    /** The database cannot be reached or is busy: retry the same work later. */
    public static class TransientFault extends RuntimeException {
        public TransientFault(Throwable cause) {
            super(describe(cause), cause);
        }
    }

    /** The work fails for a reason of its own: retrying a few times is all that can help. */
    public static class PermanentFault extends RuntimeException {
        public PermanentFault(Throwable cause) {
            super(describe(cause), cause);
        }

        public PermanentFault(String reason, Throwable cause) {
            super(reason, cause);
        }
    }

    /** Runs the work, its failure thrown as a {@link TransientFault} or a {@link PermanentFault}. */
    public static <T> T classified(Supplier<T> work) {
        try {
            return work.get();
        } catch (TransientFault | PermanentFault e) {
            throw e;
        } catch (RuntimeException e) {
            throw isTransient(e) ? new TransientFault(e) : new PermanentFault(e);
        }
    }

    /** The database is away or busy: {@link DatabaseFaults}, the rule every service shares. */
    public static boolean isTransient(Throwable failure) {
        return DatabaseFaults.isTransient(failure);
    }

    /**
     * A dead letter's reason for a message that could not be stored: {@code database: SQL state …: …} when the
     * database refused it (an SQL state among the causes), else {@code store failed: …} (a fault of the service's own
     * while storing it, which a dead letter labelled "database" hid). Either is sent again once its cause is mended.
     */
    public static String storeFailure(Throwable failure) {
        for (Throwable t : DatabaseFaults.causes(failure)) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                return "database: " + describe(failure);
            }
        }
        return "store failed: " + describe(failure);
    }

    /** The deepest message of the failure's causes (the database's own words), with the SQL state when there is one. */
    public static String describe(Throwable failure) {
        Throwable deepest = failure;
        String state = null;
        for (Throwable t : DatabaseFaults.causes(failure)) { // at most 32: a cycle of causes ends
            if (t.getMessage() != null) {
                deepest = t;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                state = sql.getSQLState();
            }
        }
        String message = deepest.getMessage() == null ? deepest.getClass().getName() : deepest.getMessage();
        return (state == null ? "" : "SQL state " + state + ": ") + message;
    }
}
