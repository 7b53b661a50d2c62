package com.bloceclat.leaderboard.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

/**
 * A dead letter says what failed: the database's refusal ({@code database: SQL state …}, docs/events.md), or a fault
 * of the service's own while storing (a bug: it was labelled {@code database:} too, sending an operator to the
 * database for it).
 */
class FaultsTest {

    @Test
    void aStoreFailureIsTheDatabasesOnlyWhenTheDatabaseSaidSo() {
        SQLException tooLong = new SQLException("value too long for type character varying(64)", "22001");
        Faults.PermanentFault refused = new Faults.PermanentFault(
                new IllegalStateException("could not execute statement", tooLong));
        assertEquals("database: SQL state 22001: value too long for type character varying(64)",
                Faults.storeFailure(refused));

        Faults.PermanentFault bug = new Faults.PermanentFault(new NullPointerException("audit.level is null"));
        assertEquals("store failed: audit.level is null", Faults.storeFailure(bug));
        assertEquals("store failed: java.lang.IllegalStateException",
                Faults.storeFailure(new Faults.PermanentFault(new IllegalStateException())));
    }
}
