package com.bloceclat.leaderboard.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;

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

    /** A cycle of causes (each the other's) ends the walk; it spun the consumer's thread for good. */
    @Test
    void aCycleOfCausesEnds() {
        IllegalStateException a = new IllegalStateException("a");
        IllegalArgumentException b = new IllegalArgumentException("b", a);
        a.initCause(b);
        String reason = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Faults.storeFailure(
                new Faults.PermanentFault(a)));
        assertTrue(reason.startsWith("store failed: "), reason);
    }
}
