package com.bloceclat.common.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.jboss.logging.Logger;

import io.quarkus.arc.properties.IfBuildProperty;

/**
 * Readiness of a service with a database: UP while PostgreSQL answers on a connection of this check's own, outside
 * the service's pool (every service with a datasource; Quarkus's datasource check is turned off for it).
 *
 * <p>Why not Quarkus's check: it borrows a connection from the pool, so an overload that keeps the pool full (every
 * connection in a request's transaction) timed it out like a database gone, and took readiness down on every replica
 * at once: the platform then took them all out of their Service, and the flood became a whole outage, flapping as the
 * replicas came back. The pool being busy is the service working, not failing; requests past it are answered 503
 * "unavailable or busy" on their own (docs/game-service.md). This check's connection is kept open between probes
 * (one more connection a replica, counted in k8s's budget) and opened again when it no longer answers.
 *
 * <p>Guaranteed: DOWN within one probe when PostgreSQL refuses, drops or stops answering a connection (the platform
 * then routes around the replica), UP again at the first probe after it answers. Not: that the pool itself can
 * reach it (the same address and credentials; a pool's own trouble is answered 503 per request).
 */
@Readiness
@ApplicationScoped
@IfBuildProperty(name = "quarkus.datasource.db-kind", stringValue = "postgresql")
public class DatabaseReadiness implements HealthCheck {

    /** The check's name in /q/health/ready. */
    public static final String NAME = "database";

    private static final Logger LOG = Logger.getLogger(DatabaseReadiness.class);

    /** Within k8s's readiness probe's 3 s: at most about 1 s to validate, then 2 s to connect again. */
    private static final int VALID_SECONDS = 1;

    private final String url;
    private final Properties properties = new Properties();
    private Connection connection; // guarded by this

    DatabaseReadiness(@ConfigProperty(name = "quarkus.datasource.jdbc.url") String url,
            @ConfigProperty(name = "quarkus.datasource.username") String username,
            @ConfigProperty(name = "quarkus.datasource.password") String password,
            @ConfigProperty(name = "quarkus.application.name") String application) {
        this.url = url;
        properties.setProperty("user", username);
        properties.setProperty("password", password);
        properties.setProperty("connectTimeout", "1");
        properties.setProperty("loginTimeout", "2");
        properties.setProperty("socketTimeout", "2");
        properties.setProperty("ApplicationName", application + " readiness");
    }

    @Override
    public synchronized HealthCheckResponse call() {
        try {
            if (connection == null || !connection.isValid(VALID_SECONDS)) {
                close();
                connection = DriverManager.getConnection(url, properties);
            }
            return HealthCheckResponse.up(NAME);
        } catch (SQLException e) {
            close();
            LOG.debugf("readiness: the database does not answer: %s", e);
            return HealthCheckResponse.named(NAME).down().withData("reason", String.valueOf(e.getMessage())).build();
        }
    }

    @PreDestroy
    synchronized void close() {
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
