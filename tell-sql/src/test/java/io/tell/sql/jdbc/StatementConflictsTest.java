package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * JDBC property {@code conflicts}: with {@code statement}, a write conflict or duplicate key in
 * an explicit transaction fails the statement, as in PostgreSQL; by default the commit.
 */
class StatementConflictsTest {
    @Test
    void conflictsFailTheStatementOrTheCommit() throws SQLException {
        String url = "jdbc:tell:mem:conflicts-" + UUID.randomUUID();
        Properties atStatement = new Properties();
        atStatement.setProperty("conflicts", "statement");
        try (Connection setup = DriverManager.getConnection(url);
             Connection early = DriverManager.getConnection(url, atStatement);
             Connection late = DriverManager.getConnection(url);
             Statement s = setup.createStatement()) {
            s.execute("CREATE TABLE acct (id INT PRIMARY KEY, balance INT, email VARCHAR(20) UNIQUE)");
            s.execute("INSERT INTO acct VALUES (1, 10, 'a@x'), (2, 20, 'b@x')");
            for (Connection c : new Connection[] {early, late}) {
                c.setAutoCommit(false);
                try (Statement w = c.createStatement()) {
                    w.executeQuery("SELECT balance FROM acct WHERE id = 1").close(); // the snapshot
                    s.execute("UPDATE acct SET balance = balance + 1 WHERE id = 1"); // a concurrent writer commits
                    if (c == early) {
                        assertEquals("40001", assertThrows(SQLException.class,
                                () -> w.executeUpdate("UPDATE acct SET balance = 0 WHERE id = 1")).getSQLState());
                        c.rollback();
                        SQLException dup = assertThrows(SQLException.class,
                                () -> w.executeUpdate("INSERT INTO acct VALUES (3, 0, 'a@x')"));
                        assertEquals("23505", dup.getSQLState());
                        assertEquals(true, dup.getMessage().contains("Key (EMAIL)=(a@x) already exists"), dup.getMessage());
                        w.executeUpdate("INSERT INTO acct VALUES (3, 0, 'c@x')"); // the transaction goes on
                        c.commit();
                    } else {
                        assertEquals(1, w.executeUpdate("UPDATE acct SET balance = 0 WHERE id = 1"));
                        assertEquals("40001", assertThrows(SQLException.class, c::commit).getSQLState());
                        w.executeUpdate("INSERT INTO acct VALUES (4, 0, 'a@x')");
                        assertEquals("23505", assertThrows(SQLException.class, c::commit).getSQLState());
                    }
                }
            }
            try (var rs = s.executeQuery("SELECT COUNT(*), SUM(balance) FROM acct")) {
                rs.next();
                assertEquals(3, rs.getInt(1));
                assertEquals(12 + 20 + 0, rs.getInt(2));
            }
        }
        Properties bad = new Properties();
        bad.setProperty("conflicts", "never");
        assertEquals("HY024", assertThrows(SQLException.class, () -> DriverManager.getConnection(url, bad)).getSQLState());
    }
}
