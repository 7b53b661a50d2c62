package com.bloceclat.testsupport;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A schema of its own for a run of a service's image that migrates its database ({@code QUARKUS_INIT_AND_EXIT}, the
 * init containers of k8s/), so that the migrations run from the first: its name, then its check.
 */
public final class FlywaySchemas {

    private FlywaySchemas() {
    }

    /** A new schema's name ({@code QUARKUS_FLYWAY_SCHEMAS}: Flyway creates it). */
    public static String fresh() {
        return "init_and_exit_" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Throws unless {@code schema}'s history holds versioned migrations, all successful; then drops the schema. */
    public static void assertMigratedThenDrop(Connection c, String schema) throws SQLException {
        try (Statement q = c.createStatement()) {
            try (ResultSet r = q.executeQuery("SELECT count(*), bool_and(success) FROM " + schema
                    + ".flyway_schema_history WHERE version IS NOT NULL")) {
                r.next();
                if (r.getInt(1) == 0 || !r.getBoolean(2)) {
                    throw new AssertionError("migrations of " + schema + ": " + r.getInt(1) + ", all successful: "
                            + r.getBoolean(2));
                }
            }
            q.execute("DROP SCHEMA " + schema + " CASCADE");
        }
    }
}
