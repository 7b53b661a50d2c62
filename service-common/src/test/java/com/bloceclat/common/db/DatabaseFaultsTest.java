package com.bloceclat.common.db;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;

class DatabaseFaultsTest {

    static RuntimeException wrapped(Throwable cause) {
        return new RuntimeException("could not execute statement", new IllegalStateException(cause));
    }

    @Test
    void theDatabaseAwayOrBusyIsTransient() {
        assertTrue(DatabaseFaults.isTransient(wrapped(new SQLException("Connection refused", "08001"))));
        assertTrue(DatabaseFaults.isTransient(wrapped(new SQLException("An I/O error occurred", "08006"))));
        // what a kill -9 of PostgreSQL answers to a statement in flight (the chaos stage found it answered 500)
        assertTrue(DatabaseFaults.isTransient(
                wrapped(new SQLException("FATAL: terminating connection due to unexpected postmaster exit", "57P01"))));
        assertTrue(DatabaseFaults.isTransient(wrapped(new SQLException("the database system is starting up", "57P03"))));
        assertTrue(DatabaseFaults.isTransient(wrapped(new SQLException("too many connections", "53300"))));
        assertTrue(DatabaseFaults.isTransient(wrapped(new SQLException("deadlock detected", "40P01"))));
        // a standby, or default_transaction_read_only for a while: not the message's fault (it was dead-lettered)
        assertTrue(DatabaseFaults.isTransient(
                wrapped(new SQLException("cannot execute INSERT in a read-only transaction", "25006"))));
        assertTrue(DatabaseFaults.isTransient(wrapped(new SQLException("could not write to file", "58030"))));
        assertTrue(DatabaseFaults.isTransient(wrapped(new SQLTransientConnectionException("pool"))));
        assertTrue(DatabaseFaults.isTransient(
                wrapped(new SQLException("Acquisition timeout while waiting for new connection"))));
        assertTrue(DatabaseFaults.isTransient(wrapped(new ConnectException("Connection refused"))));
    }

    /** What one piece of work meets alone (a deadlock, a busy pool) is transient, but not the database unavailable. */
    @Test
    void theDatabaseUnavailableIsAwayFullOrReadOnlyNotAConflictOrABusyPool() {
        for (String state : new String[] {"08006", "57P01", "53100", "25006", "58030"}) {
            assertTrue(DatabaseFaults.unavailable(wrapped(new SQLException("x", state))), state);
        }
        assertTrue(DatabaseFaults.unavailable(wrapped(new ConnectException("Connection refused"))));
        for (String state : new String[] {"40P01", "40001", "55P03", "40003", "23505"}) {
            assertFalse(DatabaseFaults.unavailable(wrapped(new SQLException("x", state))), state);
        }
        assertFalse(DatabaseFaults.unavailable(
                wrapped(new SQLException("Acquisition timeout while waiting for new connection"))));
        assertFalse(DatabaseFaults.unavailable(new IllegalStateException("no cause")));
    }

    @Test
    void whatComesWithTheWorkIsNot() {
        assertFalse(DatabaseFaults.isTransient(wrapped(new SQLException("duplicate key", "23505"))));
        assertFalse(DatabaseFaults.isTransient(wrapped(new SQLException("value too long", "22001"))));
        assertFalse(DatabaseFaults.isTransient(wrapped(new SQLException("invalid byte sequence", "22021"))));
        assertFalse(DatabaseFaults.isTransient(new IllegalStateException("no cause")));
    }
}
