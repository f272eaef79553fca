package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.sql.ProcessingNode;
import io.tell.txn.Isolation;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLWarning;
import java.sql.Savepoint;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Connection state, on a real node; the session (scripted here) opens with the first statement. */
class JdbcConnectionTest {
    private Connection connection;

    @BeforeEach
    void connect() throws SQLException {
        connection = DriverManager.getConnection("jdbc:tell:mem:");
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private static TellConnection withSession(FakeSession session) {
        return new TellConnection(ProcessingNode.connect("jdbc:tell:mem:"), () -> session, "jdbc:tell:mem:", "sa");
    }

    @Test
    void autoCommitIsOnUntilSwitchedOff() throws SQLException {
        assertTrue(connection.getAutoCommit());
        SQLException e = assertThrows(SQLException.class, connection::commit);
        assertEquals("25000", e.getSQLState());
        assertTrue(e.getMessage().contains("auto-commit"), e.getMessage());
        assertThrows(SQLException.class, connection::rollback);
        connection.setAutoCommit(false);
        assertFalse(connection.getAutoCommit());
        connection.commit();
        connection.rollback();
        connection.setAutoCommit(true);
        assertTrue(connection.getAutoCommit());
    }

    @Test
    void isolationLevelsMapToSnapshotOrSerializable() throws SQLException {
        assertEquals(Connection.TRANSACTION_REPEATABLE_READ, connection.getTransactionIsolation());
        connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        assertEquals(Connection.TRANSACTION_SERIALIZABLE, connection.getTransactionIsolation());
        connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        assertEquals(Connection.TRANSACTION_REPEATABLE_READ, connection.getTransactionIsolation());
        assertNull(connection.getWarnings());
    }

    @Test
    void weakerLevelsAreUpgradedWithAWarning() throws SQLException {
        connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        assertEquals(Connection.TRANSACTION_REPEATABLE_READ, connection.getTransactionIsolation());
        SQLWarning warning = connection.getWarnings();
        assertNotNull(warning);
        assertTrue(warning.getMessage().contains("READ_COMMITTED") && warning.getMessage().contains("REPEATABLE_READ"),
                warning.getMessage());
        connection.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
        assertEquals(Connection.TRANSACTION_REPEATABLE_READ, connection.getTransactionIsolation());
        assertNotNull(connection.getWarnings().getNextWarning());
        connection.clearWarnings();
        assertNull(connection.getWarnings());
    }

    @Test
    void noTransactionsOrUnknownLevelsAreRefused() {
        assertThrows(SQLFeatureNotSupportedException.class, () -> connection.setTransactionIsolation(Connection.TRANSACTION_NONE));
        SQLException e = assertThrows(SQLException.class, () -> connection.setTransactionIsolation(42));
        assertEquals("HY024", e.getSQLState());
    }

    @Test
    void readOnlyFlag() throws SQLException {
        assertFalse(connection.isReadOnly());
        connection.setReadOnly(true);
        assertTrue(connection.isReadOnly());
        connection.setReadOnly(false);
        assertFalse(connection.isReadOnly());
    }

    @Test
    void settingsMadeBeforeTheSessionOpensAreHandedToIt() throws SQLException {
        FakeSession session = new FakeSession().query("VALUES 1",
                List.of(FakeSession.column("EXPR$0", java.sql.Types.INTEGER, Integer.class)), List.of(),
                List.<Object[]>of(new Object[] {1}));
        try (TellConnection c = withSession(session)) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            c.setReadOnly(true);
            c.createStatement().executeQuery("VALUES 1").close();
            assertFalse(session.autoCommit);
            assertEquals(Isolation.SERIALIZABLE, session.isolation);
            assertTrue(session.readOnly);
            c.commit();
            assertEquals(1, session.commits);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            assertEquals(Isolation.SNAPSHOT, session.isolation);
            session.isolation = Isolation.SERIALIZABLE;
            assertEquals(Connection.TRANSACTION_SERIALIZABLE, c.getTransactionIsolation(), "the session is asked");
        }
        assertTrue(session.closed);
    }

    @Test
    void switchingAutoCommitOnCommits() throws SQLException {
        FakeSession session = new FakeSession().update("DELETE FROM T", List.of(), p -> 3L);
        try (TellConnection c = withSession(session)) {
            c.setAutoCommit(false);
            c.createStatement().executeUpdate("DELETE FROM T");
            assertTrue(session.inTransaction);
            c.setAutoCommit(true);
            assertEquals(1, session.commits);
            assertFalse(session.inTransaction);
        }
    }

    @Test
    void commitAndRollbackWithoutATransactionDoNothing() throws SQLException {
        FakeSession session = new FakeSession().update("DELETE FROM T", List.of(), p -> 3L);
        try (TellConnection c = withSession(session)) {
            c.setAutoCommit(false);
            c.createStatement().executeUpdate("DELETE FROM T");
            c.commit();
            c.commit();
            c.rollback();
            assertEquals(1, session.commits);
            assertEquals(0, session.rollbacks);
        }
    }

    @Test
    void closeRollsBackAndIsFinal() throws SQLException {
        FakeSession session = new FakeSession().update("DELETE FROM T", List.of(), p -> 3L);
        TellConnection c = withSession(session);
        c.setAutoCommit(false);
        var statement = c.createStatement();
        statement.executeUpdate("DELETE FROM T");
        c.close();
        assertTrue(c.isClosed());
        assertTrue(statement.isClosed(), "closing a connection closes its statements");
        assertEquals(1, session.rollbacks);
        assertTrue(session.closed);
        c.close();
        SQLException e = assertThrows(SQLNonTransientConnectionException.class, c::createStatement);
        assertEquals("08003", e.getSQLState());
        assertThrows(SQLException.class, c::getAutoCommit);
        assertThrows(SQLException.class, () -> c.prepareStatement("DELETE FROM T"));
        assertThrows(SQLException.class, c::getMetaData);
        assertFalse(c.isValid(1));
        assertThrows(SQLException.class, () -> c.isValid(-1));
    }

    @Test
    void isValidRunsACheapStatementAndLeavesNoTransaction() throws SQLException {
        FakeSession session = new FakeSession().query("VALUES 1",
                List.of(FakeSession.column("EXPR$0", java.sql.Types.INTEGER, Integer.class)), List.of(),
                List.<Object[]>of(new Object[] {1}));
        try (TellConnection c = withSession(session)) {
            c.setAutoCommit(false);
            assertTrue(c.isValid(2));
            assertEquals(2000, session.executions.getLast().timeoutMillis());
            assertFalse(session.inTransaction);
            assertEquals(1, session.rollbacks);
        }
    }

    @Test
    void onlyForwardOnlyReadOnlyCursorsClosedAtCommit() throws SQLException {
        assertThrows(SQLFeatureNotSupportedException.class,
                () -> connection.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY));
        assertThrows(SQLFeatureNotSupportedException.class,
                () -> connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE));
        assertThrows(SQLFeatureNotSupportedException.class, () -> connection.createStatement(ResultSet.TYPE_FORWARD_ONLY,
                ResultSet.CONCUR_READ_ONLY, ResultSet.HOLD_CURSORS_OVER_COMMIT));
        assertThrows(SQLFeatureNotSupportedException.class,
                () -> connection.prepareStatement("VALUES 1", ResultSet.TYPE_SCROLL_SENSITIVE, ResultSet.CONCUR_READ_ONLY));
        assertThrows(SQLFeatureNotSupportedException.class, () -> connection.setHoldability(ResultSet.HOLD_CURSORS_OVER_COMMIT));
        assertEquals(ResultSet.CLOSE_CURSORS_AT_COMMIT, connection.getHoldability());
        try (var s = connection.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            assertEquals(ResultSet.TYPE_FORWARD_ONLY, s.getResultSetType());
            assertSame(connection, s.getConnection());
        }
    }

    @Test
    void unsupportedFeaturesSaySo() {
        SQLFeatureNotSupportedException e = assertThrows(SQLFeatureNotSupportedException.class,
                () -> connection.prepareCall("CALL P()"));
        assertEquals("0A000", e.getSQLState());
        assertThrows(SQLFeatureNotSupportedException.class, connection::createBlob);
    }

    private List<Integer> ids() throws SQLException {
        List<Integer> out = new java.util.ArrayList<>();
        try (var s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM sp ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getInt(1));
            }
        }
        return out;
    }

    @Test
    void savepointsUndoTheWritesSinceAndNestInOrder() throws SQLException {
        try (var s = connection.createStatement()) {
            s.execute("CREATE TABLE sp (id INT PRIMARY KEY, v INT)");
            SQLException auto = assertThrows(SQLException.class, connection::setSavepoint);
            assertEquals("25000", auto.getSQLState());
            connection.setAutoCommit(false);
            s.execute("INSERT INTO sp VALUES (1, 10)");
            Savepoint first = connection.setSavepoint();
            s.execute("INSERT INTO sp VALUES (2, 20)");
            s.execute("UPDATE sp SET v = 11 WHERE id = 1");
            Savepoint named = connection.setSavepoint("later");
            s.execute("INSERT INTO sp VALUES (3, 30)");
            assertEquals(List.of(1, 2, 3), ids());
            connection.rollback(named);
            assertEquals(List.of(1, 2), ids());
            connection.rollback(first);
            assertEquals(List.of(1), ids());
            SQLException gone = assertThrows(SQLException.class, () -> connection.rollback(named));
            assertEquals("3B001", gone.getSQLState(), "a later savepoint goes with the rollback to an earlier one");
            s.execute("INSERT INTO sp VALUES (4, 40)");
            connection.releaseSavepoint(first);
            assertEquals("3B001", assertThrows(SQLException.class, () -> connection.rollback(first)).getSQLState());
            connection.commit();
            assertEquals(List.of(1, 4), ids());
            try (ResultSet rs = s.executeQuery("SELECT v FROM sp WHERE id = 1")) {
                assertTrue(rs.next());
                assertEquals(10, rs.getInt(1), "the update after the savepoint was undone");
            }
            assertEquals("tell_savepoint_1", ((TellSavepoint) first).name());
            assertThrows(SQLException.class, first::getSavepointName);
            assertEquals("later", named.getSavepointName());
        }
    }

    @Test
    void aFailedStatementInATransactionLeavesNoneOfItsWrites() throws SQLException {
        try (var s = connection.createStatement()) {
            s.execute("CREATE TABLE sp (id INT PRIMARY KEY, v VARCHAR(5000))");
            s.execute("CREATE INDEX sp_v ON sp (v)");
            connection.setAutoCommit(false);
            s.execute("INSERT INTO sp VALUES (1, 'one')");
            // Row 2 is written before row 3's index key turns out too long.
            try (var p = connection.prepareStatement("INSERT INTO sp VALUES (2, 'two'), (3, ?)")) {
                p.setString(1, "x".repeat(3000));
                assertEquals("54000", assertThrows(SQLException.class, p::executeUpdate).getSQLState());
            }
            s.execute("INSERT INTO sp VALUES (4, 'four')");
            connection.commit();
            assertEquals(List.of(1, 4), ids());
        }
    }

    @Test
    void oneSchemaNoCatalogs() throws SQLException {
        assertEquals("PUBLIC", connection.getSchema());
        connection.setSchema("PUBLIC");
        assertEquals("3F000", assertThrows(SQLException.class, () -> connection.setSchema("OTHER")).getSQLState());
        assertNull(connection.getCatalog());
        connection.setCatalog("ANY");
        assertNull(connection.getCatalog(), "ignored, as JDBC asks of drivers without catalogs");
    }

    @Test
    void smallThings() throws SQLException {
        assertEquals("SELECT 1", connection.nativeSQL("SELECT 1"));
        assertSame(connection, connection.unwrap(TellConnection.class));
        assertTrue(connection.unwrap(TellConnection.class).node().url().embedded());
        assertTrue(connection.isWrapperFor(Connection.class));
        assertFalse(connection.isWrapperFor(String.class));
        assertThrows(SQLException.class, () -> connection.unwrap(String.class));
        connection.setClientInfo("ApplicationName", "tests");
        assertEquals("tests", connection.getClientInfo("ApplicationName"));
        assertNull(connection.getWarnings());
        connection.setClientInfo("Color", "blue");
        assertNotNull(connection.getWarnings(), "an unknown client info name is kept with a warning");
        assertEquals("blue", connection.getClientInfo().getProperty("Color"));
        connection.setNetworkTimeout(Runnable::run, 5000);
        assertEquals(5000, connection.getNetworkTimeout());
        assertTrue(connection.getTypeMap().isEmpty());
        assertDoesNotThrow(() -> connection.setTypeMap(java.util.Map.of()));
        assertInstanceOf(TellDatabaseMetaData.class, connection.getMetaData());
    }

    @Test
    void abortClosesThroughTheExecutor() throws SQLException {
        connection.abort(Runnable::run);
        assertTrue(connection.isClosed());
    }
}
