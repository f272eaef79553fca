package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.sql.ProcessingNode;
import io.tell.txn.Transaction;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An index key longer than an index can hold is the statement's error (SQLState 54000, naming
 * the index and its columns), refused before anything is written: the table is unchanged, the
 * connection goes on working and the statement's transaction is reported to the commit manager.
 */
class IndexKeyLimitTest {
    private static final String LONG = "x".repeat(3000);
    private String url;
    private Connection connection;
    private ProcessingNode node;

    @BeforeEach
    void connect() throws SQLException {
        url = "jdbc:tell:mem:keylimit-" + UUID.randomUUID();
        connection = DriverManager.getConnection(url);
        node = ProcessingNode.connect(url); // the same node the connection uses, to look at its transactions
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
        node.close();
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    private SQLException refused(String sql, String value) {
        return assertThrows(SQLException.class, () -> {
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                ps.setString(1, value);
                ps.executeUpdate();
            }
        });
    }

    private static void assertNames(SQLException e, String index, String column) {
        assertEquals("54000", e.getSQLState(), e.getMessage());
        assertTrue(e.getMessage().contains(index) && e.getMessage().contains("(" + column + ")"), e.getMessage());
    }

    private long count(String table) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    /** Every transaction begun so far is completed: a later snapshot's base passes a fresh tid. */
    private void assertNoTransactionLeft() {
        long tid;
        try (Transaction probe = node.transactions().begin()) {
            tid = probe.tid();
        }
        try (Transaction after = node.transactions().beginReadOnly()) {
            assertTrue(after.snapshot().base() >= tid, "base " + after.snapshot().base() + " stuck below tid " + tid);
        }
    }

    @Test
    void overLongPrimaryKeyOnInsertAndUpdate() throws SQLException {
        execute("CREATE TABLE T (K VARCHAR(5000) PRIMARY KEY)");
        assertNames(refused("INSERT INTO T VALUES (?)", LONG), "primary key of table T", "K");
        assertEquals(0, count("T"));
        execute("INSERT INTO T VALUES ('short')");
        assertNames(refused("UPDATE T SET K = ? WHERE K = 'short'", LONG), "primary key of table T", "K");
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT K FROM T")) {
            assertTrue(rs.next());
            assertEquals("short", rs.getString(1));
        }
        assertNoTransactionLeft();
    }

    @Test
    void overLongSecondaryKeyOnInsert() throws SQLException {
        execute("CREATE TABLE U (ID INTEGER PRIMARY KEY, V VARCHAR(5000))");
        execute("CREATE INDEX U_V ON U (V)");
        assertNames(refused("INSERT INTO U VALUES (1, ?)", LONG), "index U_V", "V");
        assertEquals(0, count("U"));
        execute("INSERT INTO U VALUES (1, 'ok')");
        assertEquals(1, count("U"));
        assertNoTransactionLeft();
    }

    /**
     * At the limit, with the longest character UTF-8 has (4 bytes): a VARCHAR(511) key takes at
     * most 2,047 bytes and is never checked, a VARCHAR(512) one 2,051 and is refused.
     */
    @Test
    void columnTypesBoundTheKeyToTheByte() throws SQLException {
        String emoji = "\uD83D\uDE00";
        execute("CREATE TABLE S511 (K VARCHAR(511) PRIMARY KEY)");
        execute("CREATE TABLE S512 (K VARCHAR(512) PRIMARY KEY)");
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO S511 VALUES (?)")) {
            ps.setString(1, emoji.repeat(511));
            assertEquals(1, ps.executeUpdate());
        }
        assertEquals(1, count("S511"));
        assertNames(refused("INSERT INTO S512 VALUES (?)", emoji.repeat(512)), "primary key of table S512", "K");
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO S512 VALUES (?)")) {
            ps.setString(1, emoji.repeat(511));
            assertEquals(1, ps.executeUpdate());
        }
        assertEquals(1, count("S512"));
        assertNoTransactionLeft();
    }

    @Test
    void createIndexOverARowWithAnOverLongKeyFailsAndLeavesNoIndex() throws SQLException {
        execute("CREATE TABLE W (ID INTEGER PRIMARY KEY, V VARCHAR(5000))");
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO W VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "ok");
            ps.executeUpdate();
            ps.setInt(1, 2);
            ps.setString(2, LONG);
            ps.executeUpdate();
        }
        SQLException e = assertThrows(SQLException.class, () -> execute("CREATE INDEX W_V ON W (V)"));
        assertNames(e, "index W_V", "V");
        assertEquals(2, count("W"));
        // The failed index was dropped again: creating it over fitting rows works.
        execute("DELETE FROM W WHERE ID = 2");
        execute("CREATE INDEX W_V ON W (V)");
        assertNoTransactionLeft();
    }
}
