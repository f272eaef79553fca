package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The driver end to end, through SQL the engine runs: each test on its own named embedded
 * database, so that several connections share it. Only standard SQL and JDBC behaviour is
 * assumed, except where a comment names what is Tell's (optimistic conflicts at commit).
 */
class JdbcBehaviourTest {
    private static final String ALL_TYPES = """
            CREATE TABLE ALL_TYPES (
              ID INTEGER NOT NULL PRIMARY KEY,
              SMALL_N SMALLINT,
              BIG_N BIGINT,
              AMOUNT DECIMAL(12, 2),
              RATIO REAL,
              WEIGHT DOUBLE,
              LABEL VARCHAR(20),
              CODE CHAR(3),
              ACTIVE BOOLEAN,
              BORN DATE,
              SEEN TIMESTAMP
            )""";
    private static final String INSERT_ALL = "INSERT INTO ALL_TYPES VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private String url;
    private Connection connection;

    @BeforeEach
    void connect() throws SQLException {
        url = "jdbc:tell:mem:behaviour-" + UUID.randomUUID();
        connection = DriverManager.getConnection(url);
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    private void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private long count(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    private void createAccounts() throws SQLException {
        execute(connection, "CREATE TABLE ACCOUNT (ID INTEGER NOT NULL PRIMARY KEY, OWNER VARCHAR(5) NOT NULL, "
                + "BALANCE SMALLINT, RATE DECIMAL(5, 2))");
        execute(connection, "INSERT INTO ACCOUNT VALUES (1, 'ann', 100, 1.50), (2, 'bob', 200, 2.50)");
    }

    private int balance(Connection c, int id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT BALANCE FROM ACCOUNT WHERE ID = ?")) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "account " + id);
                return rs.getInt(1);
            }
        }
    }

    @Test
    void everyTypeRoundTripsThroughSetterAndGetter() throws SQLException {
        try (Statement s = connection.createStatement()) {
            assertEquals(0, s.executeUpdate(ALL_TYPES));
        }
        try (PreparedStatement ps = connection.prepareStatement(INSERT_ALL)) {
            ps.setInt(1, 1);
            ps.setShort(2, (short) 7);
            ps.setLong(3, 5_000_000_000L);
            ps.setBigDecimal(4, new BigDecimal("1234.56"));
            ps.setFloat(5, 1.5f);
            ps.setDouble(6, 2.25);
            ps.setString(7, "héllo wörld");
            ps.setString(8, "AB");
            ps.setBoolean(9, true);
            ps.setDate(10, Date.valueOf("2024-02-29"));
            ps.setTimestamp(11, Timestamp.valueOf("2024-02-29 13:14:15.123"));
            assertEquals(1, ps.executeUpdate());

            ps.setObject(1, 2);
            ps.setObject(2, (short) -3);
            ps.setObject(3, -1L);
            ps.setObject(4, new BigDecimal("-0.5"));
            ps.setObject(5, 0.25f);
            ps.setObject(6, -1e10);
            ps.setObject(7, "x");
            ps.setObject(8, "XYZ");
            ps.setObject(9, false);
            ps.setObject(10, LocalDate.of(1999, 12, 31));
            ps.setObject(11, LocalDateTime.of(1999, 12, 31, 23, 59, 59));
            assertEquals(1, ps.executeUpdate());

            ps.setInt(1, 3);
            int[] types = {Types.SMALLINT, Types.BIGINT, Types.DECIMAL, Types.REAL, Types.DOUBLE, Types.VARCHAR, Types.CHAR,
                    Types.BOOLEAN, Types.DATE, Types.TIMESTAMP};
            for (int i = 0; i < types.length; i++) {
                ps.setNull(i + 2, types[i]);
            }
            assertEquals(1, ps.executeUpdate());
        }

        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM ALL_TYPES ORDER BY ID")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(11, md.getColumnCount());
            int[] expectedTypes = {Types.INTEGER, Types.SMALLINT, Types.BIGINT, Types.DECIMAL, Types.REAL, Types.DOUBLE,
                    Types.VARCHAR, Types.CHAR, Types.BOOLEAN, Types.DATE, Types.TIMESTAMP};
            for (int i = 0; i < expectedTypes.length; i++) {
                assertEquals(expectedTypes[i], md.getColumnType(i + 1), md.getColumnLabel(i + 1));
            }
            assertEquals("ID", md.getColumnLabel(1));
            assertEquals(12, md.getPrecision(4));
            assertEquals(2, md.getScale(4));
            assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(1));
            assertEquals(ResultSetMetaData.columnNullable, md.isNullable(2));

            assertTrue(rs.next());
            assertEquals(1, rs.getInt("ID"));
            assertEquals(7, rs.getShort("SMALL_N"));
            assertEquals(5_000_000_000L, rs.getLong("BIG_N"));
            assertEquals(new BigDecimal("1234.56"), rs.getBigDecimal("AMOUNT"));
            assertEquals(1.5f, rs.getFloat("RATIO"));
            assertEquals(2.25, rs.getDouble("WEIGHT"));
            assertEquals("héllo wörld", rs.getString("LABEL"));
            assertEquals("AB ", rs.getString("CODE"), "CHAR pads with spaces");
            assertTrue(rs.getBoolean("ACTIVE"));
            assertEquals(Date.valueOf("2024-02-29"), rs.getDate("BORN"));
            assertEquals(LocalDate.of(2024, 2, 29), rs.getObject("BORN", LocalDate.class));
            assertEquals(Timestamp.valueOf("2024-02-29 13:14:15.123"), rs.getTimestamp("SEEN"));
            assertEquals(LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_000_000), rs.getObject("SEEN", LocalDateTime.class));

            assertTrue(rs.next());
            assertEquals(2, rs.getObject("ID"));
            assertEquals(-3, rs.getInt("SMALL_N"));
            assertEquals(-1L, rs.getObject("BIG_N", Long.class));
            assertEquals(new BigDecimal("-0.50"), rs.getObject("AMOUNT"), "stored with the column's scale");
            assertEquals(0.25f, rs.getObject("RATIO", Float.class));
            assertEquals(-1e10, rs.getObject("WEIGHT"));
            assertEquals("x", rs.getObject("LABEL"));
            assertEquals("XYZ", rs.getString("CODE"));
            assertEquals(Boolean.FALSE, rs.getObject("ACTIVE"));
            assertEquals(LocalDate.of(1999, 12, 31), rs.getObject("BORN", LocalDate.class));
            assertEquals(LocalDateTime.of(1999, 12, 31, 23, 59, 59), rs.getObject("SEEN", LocalDateTime.class));

            assertTrue(rs.next());
            assertEquals(3, rs.getInt("ID"));
            assertEquals(0, rs.getInt("SMALL_N"));
            assertTrue(rs.wasNull());
            for (int i = 2; i <= 11; i++) {
                assertNull(rs.getObject(i), md.getColumnLabel(i));
                assertTrue(rs.wasNull());
            }
            assertFalse(rs.next());
        }
    }

    @Test
    void datesAndTimestampsWorkAsParametersOfAQuery() throws SQLException {
        execute(connection, ALL_TYPES);
        execute(connection, "INSERT INTO ALL_TYPES (ID, BORN, SEEN) VALUES "
                + "(1, DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00'), "
                + "(2, DATE '2024-06-01', TIMESTAMP '2024-06-01 10:00:00.5')");
        try (PreparedStatement ps = connection.prepareStatement("SELECT ID FROM ALL_TYPES WHERE BORN >= ? AND SEEN < ?")) {
            ps.setDate(1, Date.valueOf("2024-01-01"));
            ps.setTimestamp(2, Timestamp.valueOf("2024-06-01 10:00:00.5"));
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(1, rs.getInt(1));
                assertFalse(rs.next());
            }
            ps.setObject(1, LocalDate.of(2024, 6, 1));
            ps.setObject(2, LocalDateTime.of(2030, 1, 1, 0, 0));
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                assertEquals(2, rs.getInt(1));
                assertFalse(rs.next());
            }
        }
    }

    @Test
    void batchesInsertManyRowsAndReportTheFailingOne() throws SQLException {
        createAccounts();
        connection.setAutoCommit(false);
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO ACCOUNT (ID, OWNER, BALANCE) VALUES (?, ?, ?)")) {
            for (int i = 10; i < 110; i++) {
                ps.setInt(1, i);
                ps.setString(2, "u" + i);
                ps.setInt(3, i);
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            assertEquals(100, counts.length);
            for (int c : counts) {
                assertTrue(c == 1 || c == Statement.SUCCESS_NO_INFO, "count " + c);
            }
        }
        connection.commit();
        assertEquals(102, count(connection, "ACCOUNT"));

        try (Statement s = connection.createStatement()) {
            s.addBatch("UPDATE ACCOUNT SET BALANCE = 0 WHERE ID >= 100");
            s.addBatch("DELETE FROM ACCOUNT WHERE ID >= 105");
            assertArrayEquals(new int[] {10, 5}, s.executeBatch());
        }
        connection.commit();
        assertEquals(97, count(connection, "ACCOUNT"));

        connection.setAutoCommit(true);
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO ACCOUNT (ID, OWNER) VALUES (?, ?)")) {
            for (int id : new int[] {200, 201, 1, 202}) {
                ps.setInt(1, id);
                ps.setString(2, "v" + id);
                ps.addBatch();
            }
            BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
            assertEquals("23505", e.getSQLState());
            // In auto-commit mode the batch is one transaction (as with PostgreSQL's driver): the
            // duplicate fails its commit, so no command counts and none of its rows stays.
            for (int c : e.getUpdateCounts()) {
                assertEquals(Statement.EXECUTE_FAILED, c);
            }
            assertTrue(connection.getAutoCommit(), "still in auto-commit mode");
        }
        assertEquals(97, count(connection, "ACCOUNT"), "rows 200 and 201 of the failed batch are not there");
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO ACCOUNT (ID, OWNER) VALUES (?, ?)")) {
            for (int id : new int[] {200, 201, 202}) {
                ps.setInt(1, id);
                ps.setString(2, "w" + id);
                ps.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1}, ps.executeBatch());
        }
        assertEquals(100, count(connection, "ACCOUNT"), "a batch that succeeds is committed");
    }

    @Test
    void maxRowsLimitsAQuery() throws SQLException {
        createAccounts();
        execute(connection, "INSERT INTO ACCOUNT (ID, OWNER) VALUES (3, 'c'), (4, 'd'), (5, 'e')");
        try (Statement s = connection.createStatement()) {
            s.setMaxRows(3);
            s.setFetchSize(1);
            List<Integer> ids = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT ID FROM ACCOUNT ORDER BY ID")) {
                while (rs.next()) {
                    ids.add(rs.getInt(1));
                }
            }
            assertEquals(List.of(1, 2, 3), ids);
            s.setMaxRows(0);
            try (ResultSet rs = s.executeQuery("SELECT ID FROM ACCOUNT")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertEquals(5, n);
            }
        }
    }

    /**
     * Tell is optimistic: both updates run, the first commit wins and the second fails with
     * 40001 (a locking database would make the second update wait instead).
     */
    @Test
    void theSecondOfTwoConflictingCommitsFailsAndARetrySucceeds() throws SQLException {
        createAccounts();
        try (Connection first = DriverManager.getConnection(url); Connection second = DriverManager.getConnection(url)) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            // Each reads the balance it changes (the overdraft check): a plain addition would merge
            // with the other's instead (docs/transactions.md, "Column merges").
            String add = "UPDATE ACCOUNT SET BALANCE = BALANCE + ? WHERE ID = 1 AND BALANCE >= ?";
            try (PreparedStatement a = first.prepareStatement(add); PreparedStatement b = second.prepareStatement(add)) {
                a.setInt(1, 10);
                a.setInt(2, -10);
                assertEquals(1, a.executeUpdate());
                b.setInt(1, 20);
                b.setInt(2, -20);
                assertEquals(1, b.executeUpdate());
                first.commit();
                SQLException conflict = assertThrows(SQLException.class, second::commit);
                assertInstanceOf(SQLTransactionRollbackException.class, conflict);
                assertEquals("40001", conflict.getSQLState());
                second.rollback(); // what an application does after a failure; harmless here

                assertEquals(110, balance(second, 1), "the failed transaction left nothing");
                assertEquals(1, b.executeUpdate(), "the retry");
                second.commit();
            }
            assertEquals(130, balance(first, 1));
        }
    }

    @Test
    void rollbackLeavesNoTrace() throws SQLException {
        createAccounts();
        connection.setAutoCommit(false);
        execute(connection, "INSERT INTO ACCOUNT VALUES (3, 'cy', 300, NULL)");
        execute(connection, "UPDATE ACCOUNT SET BALANCE = 0 WHERE ID = 1");
        execute(connection, "DELETE FROM ACCOUNT WHERE ID = 2");
        assertEquals(2, count(connection, "ACCOUNT"), "a transaction sees its own changes");
        assertEquals(0, balance(connection, 1));
        try (Connection other = DriverManager.getConnection(url)) {
            assertEquals(2, count(other, "ACCOUNT"));
            assertEquals(100, balance(other, 1), "nobody else sees them");
        }
        connection.rollback();
        assertEquals(2, count(connection, "ACCOUNT"));
        assertEquals(100, balance(connection, 1));
        assertEquals(200, balance(connection, 2));
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT ID FROM ACCOUNT WHERE ID = 3")) {
            assertFalse(rs.next());
        }
        connection.commit();
    }

    @Test
    void badSqlFailsAndTheConnectionStaysUsable() throws SQLException {
        createAccounts();
        try (Statement s = connection.createStatement()) {
            SQLException syntax = assertThrows(SQLSyntaxErrorException.class, () -> s.executeQuery("SELEC * FROM ACCOUNT"));
            assertTrue(List.of("42601", "42000").contains(syntax.getSQLState()), syntax.getSQLState());
            SQLException unknown = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM NO_SUCH_TABLE"));
            assertTrue(unknown.getSQLState().startsWith("42"), unknown.getSQLState());
            assertTrue(unknown.getMessage().contains("NO_SUCH_TABLE"), unknown.getMessage());
            assertEquals(2, count(connection, "ACCOUNT"));
        }
        connection.setAutoCommit(false);
        execute(connection, "INSERT INTO ACCOUNT (ID, OWNER) VALUES (3, 'c')");
        assertThrows(SQLSyntaxErrorException.class, () -> execute(connection, "INSERT INTO ACCOUNT VALUES (,)"));
        execute(connection, "INSERT INTO ACCOUNT (ID, OWNER) VALUES (4, 'd')");
        connection.commit();
        assertEquals(4, count(connection, "ACCOUNT"), "bad SQL does not abort the transaction");
    }

    @Test
    void valuesThatDoNotFitAreDataExceptions() throws SQLException {
        createAccounts();
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO ACCOUNT (ID, OWNER, BALANCE, RATE) VALUES (?, ?, ?, ?)")) {
            ps.setInt(1, 10);
            ps.setString(2, "too long");
            ps.setInt(3, 1);
            ps.setBigDecimal(4, BigDecimal.ONE);
            assertEquals("22001", assertThrows(SQLDataException.class, ps::executeUpdate).getSQLState());

            ps.setString(2, "ok");
            ps.setInt(3, 40_000);
            assertEquals("22003", assertThrows(SQLDataException.class, ps::executeUpdate).getSQLState(), "SMALLINT");
            ps.setInt(3, 1);
            ps.setBigDecimal(4, new BigDecimal("1234.5"));
            assertEquals("22003", assertThrows(SQLDataException.class, ps::executeUpdate).getSQLState(), "DECIMAL(5, 2)");

            ps.setBigDecimal(4, new BigDecimal("123.45"));
            assertEquals(1, ps.executeUpdate(), "the connection is still usable");
        }
        assertEquals("22001", assertThrows(SQLDataException.class,
                () -> execute(connection, "UPDATE ACCOUNT SET OWNER = 'much too long' WHERE ID = 1")).getSQLState());
        assertEquals(3, count(connection, "ACCOUNT"));
    }

    @Test
    void constraintViolationsAreIntegrityExceptions() throws SQLException {
        createAccounts();
        try (PreparedStatement ps = connection.prepareStatement("INSERT INTO ACCOUNT (ID, OWNER) VALUES (?, ?)")) {
            ps.setInt(1, 10);
            ps.setNull(2, Types.VARCHAR);
            SQLException notNull = assertThrows(SQLIntegrityConstraintViolationException.class, ps::executeUpdate);
            assertEquals("23502", notNull.getSQLState());

            ps.setInt(1, 1);
            ps.setString(2, "dup");
            SQLException duplicate = assertThrows(SQLIntegrityConstraintViolationException.class, ps::executeUpdate);
            assertEquals("23505", duplicate.getSQLState());

            ps.setInt(1, 10);
            assertEquals(1, ps.executeUpdate());
        }
        connection.setAutoCommit(false);
        execute(connection, "INSERT INTO ACCOUNT (ID, OWNER) VALUES (11, 'x')");
        SQLException duplicate = assertThrows(SQLException.class, () -> {
            execute(connection, "INSERT INTO ACCOUNT (ID, OWNER) VALUES (11, 'y')");
            connection.commit(); // where a duplicate within the transaction shows depends on the engine
        });
        assertEquals("23505", duplicate.getSQLState());
        connection.rollback();
        assertEquals(3, count(connection, "ACCOUNT"));
    }

    @Test
    void aHikariPoolReusesConnectionsAndRollsBackWhatWasNotCommitted() throws Exception {
        createAccounts();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(2);
        config.setAutoCommit(false);
        config.setConnectionTimeout(250);
        config.setPoolName("tell-behaviour");
        try (HikariDataSource pool = new HikariDataSource(config)) {
            try (Connection c = pool.getConnection()) {
                assertFalse(c.getAutoCommit());
                assertTrue(c.isValid(1));
                execute(c, "INSERT INTO ACCOUNT (ID, OWNER) VALUES (3, 'kept')");
                c.commit();
                execute(c, "INSERT INTO ACCOUNT (ID, OWNER) VALUES (4, 'gone')");
            }
            try (Connection c = pool.getConnection()) {
                assertEquals(3, count(c, "ACCOUNT"), "the pool rolled back the uncommitted insert on return");
                c.commit();
            }

            Set<Object> physical = new HashSet<>();
            for (int i = 0; i < 10; i++) {
                try (Connection c = pool.getConnection()) {
                    physical.add(c.unwrap(TellConnection.class));
                    assertEquals(100, balance(c, 1));
                    c.commit();
                }
            }
            assertTrue(physical.size() <= 2, "connections are reused: " + physical.size());

            try (Connection a = pool.getConnection(); Connection b = pool.getConnection()) {
                assertTrue(a.isValid(1) && b.isValid(1));
                assertThrows(SQLTransientConnectionException.class, pool::getConnection, "a pool of two");
            }
            assertTrue(pool.getHikariPoolMXBean().getTotalConnections() <= 2);
        }
    }

    /**
     * Write skew through JDBC: two transactions each read both accounts' total and withdraw
     * from a different one. REPEATABLE_READ (snapshot isolation) commits both; SERIALIZABLE
     * aborts the second committer with 40001. Then a phantom: a SERIALIZABLE transaction that
     * counted a range fails when another inserted into it.
     */
    @Test
    void writeSkewAndPhantomsDependOnTheIsolationLevel() throws SQLException {
        createAccounts();
        assertEquals(List.of(true, true), skew(Connection.TRANSACTION_REPEATABLE_READ));
        execute(connection, "UPDATE ACCOUNT SET BALANCE = 150 WHERE ID IN (1, 2)");
        assertEquals(List.of(true, false), skew(Connection.TRANSACTION_SERIALIZABLE));

        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url)) {
            a.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            a.setAutoCommit(false);
            assertEquals(2, count(a, "ACCOUNT WHERE ID < 10"));
            execute(b, "INSERT INTO ACCOUNT VALUES (3, 'cy', 1, 1.00)");
            execute(a, "UPDATE ACCOUNT SET RATE = 9.99 WHERE ID = 1");
            SQLException e = assertThrows(SQLException.class, a::commit);
            assertEquals("40001", e.getSQLState());
        }
    }

    /** Two transactions at {@code level} withdrawing 100 from different accounts after checking the total; which committed. */
    private List<Boolean> skew(int level) throws SQLException {
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url)) {
            for (Connection c : List.of(a, b)) {
                c.setTransactionIsolation(level);
                c.setAutoCommit(false);
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT SUM(BALANCE) FROM ACCOUNT")) {
                    assertTrue(rs.next());
                    assertEquals(300, rs.getInt(1));
                }
            }
            execute(a, "UPDATE ACCOUNT SET BALANCE = BALANCE - 100 WHERE ID = 1");
            execute(b, "UPDATE ACCOUNT SET BALANCE = BALANCE - 100 WHERE ID = 2");
            List<Boolean> committed = new ArrayList<>();
            for (Connection c : List.of(a, b)) {
                try {
                    c.commit();
                    committed.add(true);
                } catch (SQLException e) {
                    assertEquals("40001", e.getSQLState(), e.getMessage());
                    c.rollback();
                    committed.add(false);
                }
            }
            return committed;
        }
    }
}
