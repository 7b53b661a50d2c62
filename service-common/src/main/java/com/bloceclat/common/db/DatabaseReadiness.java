package com.bloceclat.common.db;

import java.sql.SQLException;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.ConfigProvider;
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
 * ({@link OwnConnection}: one more connection a replica, counted in k8s's budget) and opened again when it no longer
 * answers.
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

    private final OwnConnection connection = new OwnConnection(ConfigProvider.getConfig(), "readiness");

    @Override
    public HealthCheckResponse call() {
        try {
            connection.get();
            return HealthCheckResponse.up(NAME);
        } catch (SQLException e) {
            LOG.debugf("readiness: the database does not answer: %s", e);
            return HealthCheckResponse.named(NAME).down().withData("reason", String.valueOf(e.getMessage())).build();
        }
    }

    @PreDestroy
    void close() {
        connection.close();
    }
}
