package com.bloceclat.common.db;

import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one answer, for every service, to "is this failure the database being away or busy?" — which the REST layer
 * answers 503 with Retry-After, and the Kafka consumers retry with back-off instead of dead-lettering. Pure: it reads
 * the failure and its causes, nothing else (tested alone, DatabaseFaultsTest).
 *
 * <p>Transient: a JDBC error of SQL state class 08 (connection exception: refused, lost, broken), 57P (operator
 * intervention: the server shutting down or crashed, "terminating connection due to unexpected postmaster exit",
 * not accepting connections yet), 53 (insufficient resources: too many connections, out of memory or disk), 40001
 * and 40P01 (serialization failure, deadlock), 40003 (statement completion unknown), 55P03 (lock not available),
 * 25006 (a read-only transaction: the database is a standby or was made read-only for now; before, every write then
 * counted as the work's own fault, and a consumer dead-lettered every valid message of the window), 58030 (the
 * server's I/O error); a transient or recoverable JDBC exception,
 * a non-transient connection exception; the pool's acquisition timeout (Agroal: no connection in time); a socket
 * refused, reset or timed out; Hibernate's connection and lock failures. Everything else — a constraint, a value too
 * long, a value out of range — comes with the work itself and will not go away by waiting.
 */
public final class DatabaseFaults {

    private static final Set<String> STATES = Set.of("40001", "40P01", "55P03", "40003", "25006", "58030");

    private static final Set<String> CLASS_NAMES = Set.of("org.hibernate.exception.JDBCConnectionException",
            "jakarta.persistence.LockTimeoutException", "org.hibernate.exception.LockAcquisitionException",
            "org.hibernate.PessimisticLockException");

    private DatabaseFaults() {
    }

    /** The cause that makes {@code failure} transient (for a log line), or null when it is not. */
    public static String transientCause(Throwable failure) {
        for (Throwable t : causes(failure)) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("08") || state.startsWith("57P") || state.startsWith("53")
                        || STATES.contains(state))) {
                    return t.toString();
                }
                if (sql instanceof SQLTransientException || sql instanceof SQLRecoverableException
                        || sql instanceof SQLNonTransientConnectionException) {
                    return t.toString();
                }
                if (sql.getMessage() != null && sql.getMessage().toLowerCase().contains("acquisition timeout")) {
                    return t.toString();
                }
            }
            if (t instanceof ConnectException || t instanceof SocketTimeoutException || t instanceof SocketException
                    || CLASS_NAMES.contains(t.getClass().getName())) {
                return t.toString();
            }
        }
        return null;
    }

    /**
     * The unique-key violation (SQL state 23505) among {@code failure} and its causes, for a log line, or null: two
     * requests that each found a key free and wrote it at once (two re-validations giving one level and seed its
     * record), where the second's commit meets the first's row.
     */
    public static String uniqueViolation(Throwable failure) {
        for (Throwable t : causes(failure)) {
            if (t instanceof SQLException sql && "23505".equals(sql.getSQLState())) {
                return t.toString();
            }
        }
        return null;
    }

    public static boolean isTransient(Throwable failure) {
        return transientCause(failure) != null;
    }

    /**
     * Whether {@code failure} says the database does not take work for now, whatever the work: away or refusing
     * connections (08, 57P, a socket refused, reset or timed out), out of a resource (53), read-only (25006) or failing
     * its I/O (58030). Narrower than {@link #isTransient}: not a conflict of this work with another (a deadlock, a
     * serialization failure, a lock not available) nor the pool's acquisition timeout (a busy pool, not a database
     * gone), which another piece of work would not meet.
     */
    public static boolean unavailable(Throwable failure) {
        for (Throwable t : causes(failure)) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("08") || state.startsWith("57P") || state.startsWith("53")
                        || state.equals("25006") || state.equals("58030"))) {
                    return true;
                }
                if (sql instanceof SQLNonTransientConnectionException) {
                    return true;
                }
            }
            if (t instanceof ConnectException || t instanceof SocketTimeoutException || t instanceof SocketException) {
                return true;
            }
        }
        return false;
    }

    /** {@code failure} and its causes, at most 32 (a cycle of causes ends there). */
    public static List<Throwable> causes(Throwable failure) {
        List<Throwable> causes = new ArrayList<>();
        for (Throwable t = failure; t != null && causes.size() < 32; t = t.getCause() == t ? null : t.getCause()) {
            causes.add(t);
        }
        return causes;
    }
}
