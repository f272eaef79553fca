package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnInfo;
import io.tell.sql.ProcessingNode;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Date;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Statements and prepared statements over a scripted session: what the JDBC layer hands the engine and back. */
class JdbcStatementTest {
    private static final String SELECT = "SELECT ID, NAME FROM T";
    private static final String INSERT = "INSERT INTO T VALUES (?, ?)";
    private static final String DELETE = "DELETE FROM T";
    private static final List<ColumnInfo> COLUMNS = List.of(FakeSession.column("ID", Types.INTEGER, Integer.class),
            FakeSession.column("NAME", Types.VARCHAR, String.class));
    private static final List<ColumnInfo> ANY_PARAMS = List.of(FakeSession.column("P1", Types.OTHER, Object.class),
            FakeSession.column("P2", Types.OTHER, Object.class));

    private final FakeSession session = new FakeSession();
    private final List<Object> inserted = new ArrayList<>();
    private TellConnection connection;

    @BeforeEach
    void connect() {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            rows.add(new Object[] {i, "row " + i});
        }
        session.query(SELECT, COLUMNS, List.of(), rows)
                .update(DELETE, List.of(), p -> 5L)
                .update(INSERT, ANY_PARAMS, p -> {
                    if (inserted.contains(p.get(0))) {
                        throw TellException.of(ErrorCode.DUPLICATE_KEY, "duplicate key " + p.get(0));
                    }
                    inserted.add(p.get(0));
                    return 1L;
                })
                .failing("SELEC 1", TellException.of(ErrorCode.SQL_SYNTAX, "syntax error at line 1, column 1"));
        connection = new TellConnection(ProcessingNode.connect("jdbc:tell:mem:"), () -> session, "jdbc:tell:mem:", "sa");
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    @Test
    void queriesGiveAResultSetAndUpdatesACount() throws SQLException {
        Statement s = connection.createStatement();
        assertTrue(s.execute(SELECT));
        ResultSet rs = s.getResultSet();
        assertSame(s, rs.getStatement());
        assertEquals(-1, s.getUpdateCount());
        assertFalse(s.execute(DELETE));
        assertTrue(rs.isClosed(), "running again closes the previous result set");
        assertNull(s.getResultSet());
        assertEquals(5, s.getUpdateCount());
        assertFalse(s.getMoreResults());
        assertEquals(-1, s.getUpdateCount());
        assertEquals(5, s.executeUpdate(DELETE));
        assertEquals(5L, s.executeLargeUpdate(DELETE));
        try (ResultSet all = s.executeQuery(SELECT)) {
            int n = 0;
            while (all.next()) {
                n++;
                assertEquals(n, all.getInt("id"));
            }
            assertEquals(5, n);
        }
    }

    @Test
    void theWrongExecuteMethodRunsNothing() throws SQLException {
        Statement s = connection.createStatement();
        SQLException notQuery = assertThrows(SQLException.class, () -> s.executeQuery(DELETE));
        assertEquals("07005", notQuery.getSQLState());
        SQLException query = assertThrows(SQLException.class, () -> s.executeUpdate(SELECT));
        assertEquals("07003", query.getSQLState());
        assertTrue(session.executions.isEmpty());
    }

    @Test
    void engineErrorsBecomeSqlExceptionsAndTheStatementStaysUsable() throws SQLException {
        Statement s = connection.createStatement();
        SQLException e = assertThrows(SQLSyntaxErrorException.class, () -> s.execute("SELEC 1"));
        assertEquals("42601", e.getSQLState());
        assertTrue(e.getMessage().contains("line 1, column 1"));
        assertInstanceOf(TellException.class, e.getCause());
        assertEquals(5, s.executeUpdate(DELETE));
    }

    @Test
    void limitsAndTimeoutGoToTheEngine() throws SQLException {
        Statement s = connection.createStatement();
        s.setMaxRows(2);
        s.setQueryTimeout(3);
        ResultSet rs = s.executeQuery(SELECT);
        assertEquals(2, session.executions.getLast().maxRows());
        assertEquals(3000, session.executions.getLast().timeoutMillis());
        assertTrue(rs.next());
        assertTrue(rs.next());
        assertFalse(rs.next(), "max rows is honoured even when the engine returns more");
        assertThrows(SQLException.class, () -> s.setMaxRows(-1));
        assertThrows(SQLException.class, () -> s.setQueryTimeout(-1));
        s.cancel();
        assertEquals(1, session.cancels);
    }

    @Test
    void closingTheStatementClosesItsResultSet() throws SQLException {
        Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(SELECT);
        s.close();
        assertTrue(rs.isClosed());
        assertTrue(s.isClosed());
        assertEquals("HY010", assertThrows(SQLException.class, () -> s.executeQuery(SELECT)).getSQLState());
        assertEquals("HY010", assertThrows(SQLException.class, rs::next).getSQLState());
        s.close();
    }

    @Test
    void closeOnCompletionClosesWithTheResultSet() throws SQLException {
        Statement s = connection.createStatement();
        s.closeOnCompletion();
        ResultSet first = s.executeQuery(SELECT);
        s.executeQuery(SELECT).close();
        assertTrue(first.isClosed());
        assertTrue(s.isClosed(), "the statement closes when its result set is closed, not when it is replaced");
    }

    @Test
    void resultSetsCloseAtCommitAndRollback() throws SQLException {
        connection.setAutoCommit(false);
        ResultSet rs = connection.createStatement().executeQuery(SELECT);
        connection.commit();
        assertTrue(rs.isClosed());
        rs = connection.createStatement().executeQuery(SELECT);
        connection.rollback();
        assertTrue(rs.isClosed());
        assertEquals(1, session.commits);
        assertEquals(1, session.rollbacks);
    }

    @Test
    void batchStopsAtTheFirstFailure() throws SQLException {
        Statement s = connection.createStatement();
        s.addBatch(DELETE);
        s.addBatch(DELETE);
        assertArrayEquals(new int[] {5, 5}, s.executeBatch());
        assertArrayEquals(new int[0], s.executeBatch(), "the batch is empty after it ran");
        s.addBatch(DELETE);
        s.addBatch("SELEC 1");
        s.addBatch(DELETE);
        BatchUpdateException e = assertThrows(BatchUpdateException.class, s::executeBatch);
        assertArrayEquals(new int[] {5}, e.getUpdateCounts());
        assertEquals("42601", e.getSQLState());
        assertInstanceOf(SQLSyntaxErrorException.class, e.getCause());
        s.addBatch(SELECT);
        assertEquals("07003", assertThrows(BatchUpdateException.class, s::executeBatch).getSQLState());
        s.addBatch(DELETE);
        s.clearBatch();
        assertArrayEquals(new long[0], s.executeLargeBatch());
    }

    @Test
    void parametersAreHandedOverAsJavaTimeValues() throws SQLException {
        PreparedStatement ps = connection.prepareStatement(INSERT);
        ps.setDate(1, Date.valueOf("2024-02-29"));
        ps.setTimestamp(2, Timestamp.valueOf("2024-02-29 13:14:15.123456789"));
        ps.executeUpdate();
        assertEquals(List.of(LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123456789)),
                session.lastParams());
        ps.setTime(1, Time.valueOf("13:14:15"));
        ps.setNull(2, Types.VARCHAR);
        ps.executeUpdate();
        assertEquals(Arrays.asList(LocalTime.of(13, 14, 15), null), session.lastParams());
        ps.setObject(1, Date.valueOf("2024-01-02"));
        ps.setObject(2, Timestamp.valueOf("2024-01-02 03:04:05"));
        ps.executeUpdate();
        assertEquals(List.of(LocalDate.of(2024, 1, 2), LocalDateTime.of(2024, 1, 2, 3, 4, 5)), session.lastParams());
        ps.setObject(1, LocalDate.of(2024, 1, 3));
        ps.setObject(2, null);
        ps.executeUpdate();
        assertEquals(Arrays.asList(LocalDate.of(2024, 1, 3), null), session.lastParams());
    }

    @Test
    void calendarsSayInWhichZoneAJavaSqlValueIsMeant() throws SQLException {
        PreparedStatement ps = connection.prepareStatement(INSERT);
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        Timestamp instant = Timestamp.from(LocalDateTime.of(2024, 6, 1, 12, 0).toInstant(java.time.ZoneOffset.UTC));
        ps.setTimestamp(1, instant, utc);
        ps.setDate(2, new Date(instant.getTime()), utc);
        ps.executeUpdate();
        assertEquals(List.of(LocalDateTime.of(2024, 6, 1, 12, 0), LocalDate.of(2024, 6, 1)), session.lastParams());
    }

    @Test
    void setObjectConvertsToATargetType() throws SQLException {
        PreparedStatement ps = connection.prepareStatement(INSERT);
        ps.setObject(1, "12", Types.INTEGER);
        ps.setObject(2, 7, Types.VARCHAR);
        ps.executeUpdate();
        assertEquals(List.of(12, "7"), session.lastParams());
        ps.setObject(1, "1.005", Types.DECIMAL, 2);
        ps.setObject(2, "2024-05-06", Types.DATE);
        ps.executeUpdate();
        assertEquals(List.of(new BigDecimal("1.01"), LocalDate.of(2024, 5, 6)), session.lastParams());
        ps.setObject(1, 1, java.sql.JDBCType.BIGINT);
        ps.setObject(2, "true", Types.BOOLEAN);
        ps.executeUpdate();
        assertEquals(List.of(1L, true), session.lastParams());
        assertEquals("22018", assertThrows(SQLException.class, () -> ps.setObject(1, "x", Types.INTEGER)).getSQLState());
    }

    @Test
    void everyParameterMustBeSet() throws SQLException {
        PreparedStatement ps = connection.prepareStatement(INSERT);
        ps.setInt(1, 1);
        SQLException e = assertThrows(SQLException.class, ps::executeUpdate);
        assertEquals("07001", e.getSQLState());
        assertTrue(e.getMessage().contains("parameter 2"), e.getMessage());
        assertEquals("07009", assertThrows(SQLException.class, () -> ps.setInt(3, 1)).getSQLState());
        assertEquals("07009", assertThrows(SQLException.class, () -> ps.setInt(0, 1)).getSQLState());
        ps.setString(2, "x");
        ps.executeUpdate();
        ps.clearParameters();
        assertEquals("07001", assertThrows(SQLException.class, ps::executeUpdate).getSQLState());
        assertTrue(session.executions.size() == 1);
    }

    @Test
    void preparedBatchesRunEachParameterSet() throws SQLException {
        PreparedStatement ps = connection.prepareStatement(INSERT);
        for (int i = 1; i <= 3; i++) {
            ps.setInt(1, i);
            ps.setString(2, "n" + i);
            ps.addBatch();
        }
        assertArrayEquals(new int[] {1, 1, 1}, ps.executeBatch());
        assertEquals(List.of(3, "n3"), session.lastParams());
        ps.setInt(1, 4);
        ps.addBatch();
        ps.setInt(1, 2);
        ps.addBatch();
        BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
        assertEquals("23505", e.getSQLState());
        assertArrayEquals(new long[] {1}, e.getLargeUpdateCounts());
        assertInstanceOf(SQLIntegrityConstraintViolationException.class, e.getCause());
    }

    @Test
    void aPreparedStatementTakesNoSqlText() throws SQLException {
        PreparedStatement ps = connection.prepareStatement(SELECT);
        assertThrows(SQLException.class, () -> ps.execute(DELETE));
        assertThrows(SQLException.class, () -> ps.executeQuery(SELECT));
        assertThrows(SQLException.class, () -> ps.addBatch(DELETE));
        assertEquals("07003", assertThrows(SQLException.class, ps::executeUpdate).getSQLState());
        assertTrue(ps.executeQuery().next());
        assertTrue(ps.isPoolable());
    }

    @Test
    void preparedMetadataComesFromThePlan() throws SQLException {
        PreparedStatement query = connection.prepareStatement(SELECT);
        ResultSetMetaData md = query.getMetaData();
        assertEquals(2, md.getColumnCount());
        assertEquals("NAME", md.getColumnLabel(2));
        assertEquals(Types.VARCHAR, md.getColumnType(2));
        assertEquals("T", md.getTableName(1));
        assertEquals("java.lang.Integer", md.getColumnClassName(1));
        assertEquals(0, query.getParameterMetaData().getParameterCount());
        PreparedStatement insert = connection.prepareStatement(INSERT);
        assertEquals(0, insert.getMetaData().getColumnCount());
        ParameterMetaData pmd = insert.getParameterMetaData();
        assertEquals(2, pmd.getParameterCount());
        assertEquals(Types.OTHER, pmd.getParameterType(1));
        assertEquals(ParameterMetaData.parameterModeIn, pmd.getParameterMode(2));
        assertThrows(SQLException.class, () -> pmd.getParameterType(3));
    }

    @Test
    void generatedKeysAreEmpty() throws SQLException {
        PreparedStatement ps = connection.prepareStatement(DELETE, Statement.RETURN_GENERATED_KEYS);
        ps.executeUpdate();
        ResultSet keys = ps.getGeneratedKeys();
        assertEquals(0, keys.getMetaData().getColumnCount());
        assertFalse(keys.next());
        Statement s = connection.createStatement();
        assertEquals(5, s.executeUpdate(DELETE, Statement.RETURN_GENERATED_KEYS));
        assertFalse(s.getGeneratedKeys().next());
        assertThrows(SQLException.class, () -> s.executeUpdate(DELETE, 42));
    }

    @Test
    void closingTheConnectionClosesStatementsAndResultSets() throws SQLException {
        PreparedStatement ps = connection.prepareStatement(SELECT);
        ResultSet rs = ps.executeQuery();
        connection.close();
        assertTrue(ps.isClosed());
        assertTrue(rs.isClosed());
        assertTrue(session.closed);
    }
}
