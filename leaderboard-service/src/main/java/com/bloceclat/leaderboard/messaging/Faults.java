package com.bloceclat.leaderboard.messaging;

import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTransientException;
import java.sql.SQLRecoverableException;
import java.util.function.Supplier;

/**
 * Tells the faults of storing a message apart (docs/leaderboard-service.md "Faults"): a <em>transient</em> fault is the
 * database being unreachable or busy (SQL state class 08 connection exceptions, 57P operator intervention such as a
 * shutdown, 53 insufficient resources, 40001/40P01 serialization failures and deadlocks, 55P03 lock not available,
 * a connection refused or timed out, a pool that has no connection to give); it says nothing about the message, so the
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

    public static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("08") || state.startsWith("57P") || state.startsWith("53")
                        || state.equals("40001") || state.equals("40P01") || state.equals("55P03"))) {
                    return true;
                }
                if (sql instanceof SQLTransientException || sql instanceof SQLRecoverableException) {
                    return true;
                }
                // Agroal: no connection could be acquired in time (the database is unreachable or saturated)
                if (state == null && sql.getMessage() != null
                        && sql.getMessage().toLowerCase().contains("acquisition timeout")) {
                    return true;
                }
            }
            if (t instanceof ConnectException || t instanceof SocketTimeoutException
                    || t instanceof SocketException) {
                return true;
            }
            String name = t.getClass().getName();
            if (name.equals("org.hibernate.exception.JDBCConnectionException")
                    || name.equals("jakarta.persistence.LockTimeoutException")
                    || name.equals("org.hibernate.exception.LockAcquisitionException")
                    || name.equals("org.hibernate.PessimisticLockException")) {
                return true;
            }
        }
        return false;
    }

    /** The deepest message of the failure's causes (the database's own words), with the SQL state when there is one. */
    public static String describe(Throwable failure) {
        Throwable deepest = failure;
        String state = null;
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
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
