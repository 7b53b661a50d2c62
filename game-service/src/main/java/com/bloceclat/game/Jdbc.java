package com.bloceclat.game;

import java.sql.Connection;
import java.sql.SQLException;

import jakarta.persistence.PersistenceException;

import com.bloceclat.common.db.ConnectionWork;

import io.agroal.api.AgroalDataSource;
import io.quarkus.arc.Arc;

/**
 * Plain JDBC on the current transaction's connection, without Hibernate's session (docs/game-service.md "Lean
 * writes"). Inside a JTA transaction the datasource answers the connection enlisted in it, the one Hibernate's session
 * uses too, so these statements and the entities' belong to one transaction; but a move that only goes through here
 * never opens a session (no session to create, register with the transaction, flush and close). What Hibernate's
 * session holds unwritten is not flushed first: a caller that needs it written flushes it ({@link GameRows#insert}).
 */
public final class Jdbc {

    private Jdbc() {
    }

    /** Runs {@code work}; a {@link SQLException} comes out as a {@link PersistenceException} with it as cause. */
    public static <T> T work(ConnectionWork<T> work) {
        // looked up each time, not kept: a test run restarts the application (and its datasource) in one JVM
        AgroalDataSource dataSource = Arc.container().instance(AgroalDataSource.class).get();
        try (Connection c = dataSource.getConnection()) {
            return work.on(c);
        } catch (SQLException e) {
            throw new PersistenceException(e.getMessage(), e);
        }
    }
}
