package com.bloceclat.common.db;

import java.sql.Connection;
import java.sql.SQLException;

/** Work on a JDBC connection that the caller lends and closes (a pooled one, or {@link OwnConnection}'s). */
@FunctionalInterface
public interface ConnectionWork<T> {
    T on(Connection c) throws SQLException;
}
