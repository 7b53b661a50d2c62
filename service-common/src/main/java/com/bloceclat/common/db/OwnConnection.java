package com.bloceclat.common.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import org.eclipse.microprofile.config.Config;

/**
 * One JDBC connection to the service's database outside its pool ({@code quarkus.datasource.*}), kept open and opened
 * again when it no longer answers: for the work that must not wait behind the requests for a pooled connection, which
 * an overload keeps busy (readiness, {@link DatabaseReadiness}; game-service's race heartbeat). Each one is a
 * connection more a replica holds: k8s's budget counts them. Its methods are synchronized: one user at a time.
 */
public final class OwnConnection implements AutoCloseable {

    /** Within k8s's readiness probe's 3 s: about 1 s to validate, then 2 s to connect again. */
    private static final int VALID_SECONDS = 1;

    private final String url;
    private final Properties properties = new Properties();
    private Connection connection; // guarded by this

    public OwnConnection(Config config, String purpose) {
        url = config.getValue("quarkus.datasource.jdbc.url", String.class);
        properties.setProperty("user", config.getValue("quarkus.datasource.username", String.class));
        properties.setProperty("password", config.getValue("quarkus.datasource.password", String.class));
        properties.setProperty("connectTimeout", "1");
        properties.setProperty("loginTimeout", "2");
        properties.setProperty("socketTimeout", "5");
        properties.setProperty("ApplicationName",
                config.getOptionalValue("quarkus.application.name", String.class).orElse("bloc") + " " + purpose);
    }

    /**
     * The connection (autocommit), checked to answer, or opened again; the caller uses it and leaves it open.
     *
     * @throws SQLException when the database does not answer (the connection is then closed, and opened at the next
     *                      call)
     */
    public synchronized Connection get() throws SQLException {
        try {
            if (connection == null || !connection.isValid(VALID_SECONDS)) {
                close();
                connection = DriverManager.getConnection(url, properties);
            }
            return connection;
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    /** Runs {@code work} on the connection; a failure closes it, so that the next call opens a new one. */
    public synchronized <T> T use(ConnectionWork<T> work) throws SQLException {
        try {
            return work.on(get());
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    @Override
    public synchronized void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // gone already
            }
            connection = null;
        }
    }
}
