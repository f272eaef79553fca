package io.tell.bench.tpcc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The database under test: a JDBC URL and optional credentials, opened through
 * {@link DriverManager} so any driver on the class path serves.
 */
public record JdbcTarget(String url, String user, String password) {

    public static JdbcTarget of(String url) {
        return new JdbcTarget(url, null, null);
    }

    /** A new connection with auto-commit off. */
    public Connection connect() throws SQLException {
        Connection c = user == null ? DriverManager.getConnection(url) : DriverManager.getConnection(url, user, password);
        c.setAutoCommit(false);
        return c;
    }
}
