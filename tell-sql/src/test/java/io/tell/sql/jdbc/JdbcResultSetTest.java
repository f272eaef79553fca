package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.sql.ColumnInfo;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

/** Getters and conversions of {@link TellResultSet}, over rows held in memory. */
class JdbcResultSetTest {
    private static final LocalDate DAY = LocalDate.of(2024, 2, 29);
    private static final LocalDateTime MOMENT = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123_000_000);
    private static final List<ColumnInfo> COLUMNS = List.of(
            column("S", Types.SMALLINT, Short.class, false),
            column("I", Types.INTEGER, Integer.class, true),
            column("L", Types.BIGINT, Long.class, true),
            column("D", Types.DECIMAL, BigDecimal.class, true),
            column("F", Types.REAL, Float.class, true),
            column("G", Types.DOUBLE, Double.class, true),
            column("V", Types.VARCHAR, String.class, true),
            column("B", Types.BOOLEAN, Boolean.class, true),
            column("DT", Types.DATE, LocalDate.class, true),
            column("TS", Types.TIMESTAMP, LocalDateTime.class, true),
            column("TM", Types.TIME, LocalTime.class, true));

    private static ColumnInfo column(String label, int type, Class<?> javaClass, boolean nullable) {
        return new ColumnInfo(label, "T", label, type, label, 10, type == Types.DECIMAL ? 2 : 0, nullable, javaClass);
    }

    private static ResultSet rows(Object[]... rows) {
        return new TellResultSet(null, COLUMNS, new InMemoryResult(List.of(rows)), 0);
    }

    private static Object[] full() {
        return new Object[] {(short) 7, 42, 5_000_000_000L, new BigDecimal("12.75"), 1.5f, 2.25, "17", true, DAY, MOMENT,
                LocalTime.of(8, 9, 10)};
    }

    private static Object[] nulls() {
        Object[] row = new Object[COLUMNS.size()];
        row[0] = (short) 0;
        return row;
    }

    private static ResultSet at(Object[] row) throws SQLException {
        ResultSet rs = rows(row);
        assertTrue(rs.next());
        return rs;
    }

    @Test
    @SuppressWarnings("deprecation")
    void numbersConvertWhenTheyFit() throws SQLException {
        ResultSet rs = at(full());
        assertEquals(7, rs.getInt("S"));
        assertEquals(12, rs.getInt("D"), "fractions are truncated");
        assertEquals(17, rs.getInt("V"), "strings are parsed");
        assertEquals(5_000_000_000L, rs.getLong("L"));
        assertEquals("22003", assertThrows(SQLDataException.class, () -> rs.getInt("L")).getSQLState());
        assertEquals(1, rs.getInt("B"));
        assertEquals(new BigDecimal("42"), rs.getBigDecimal("I"));
        assertEquals(new BigDecimal("1.5"), rs.getBigDecimal("F"));
        assertEquals(new BigDecimal("12.8"), rs.getBigDecimal(4, 1));
        assertEquals(12.75, rs.getDouble("D"));
        assertEquals(2.25f, rs.getFloat("G"));
        assertEquals((short) 42, rs.getShort("I"));
        assertEquals((byte) 7, rs.getByte("S"));
        assertTrue(rs.getBoolean("I"));
        assertEquals("22018", assertThrows(SQLException.class, () -> rs.getInt("DT")).getSQLState());
        ResultSet text = new TellResultSet(null, List.of(column("V", Types.VARCHAR, String.class, true)),
                new InMemoryResult(List.<Object[]>of(new Object[] {"abc"})), 0);
        text.next();
        SQLException e = assertThrows(SQLDataException.class, () -> text.getInt(1));
        assertEquals("22018", e.getSQLState());
        assertTrue(e.getMessage().contains("'abc'"), e.getMessage());
    }

    @Test
    void getStringWorksOnAnything() throws SQLException {
        ResultSet rs = at(full());
        assertEquals("7", rs.getString("S"));
        assertEquals("5000000000", rs.getString("L"));
        assertEquals("12.75", rs.getString("D"));
        assertEquals("1.5", rs.getString("F"));
        assertEquals("TRUE", rs.getString("B"));
        assertEquals("2024-02-29", rs.getString("DT"));
        assertEquals("2024-02-29 13:14:15.123", rs.getString("TS"));
        assertEquals("08:09:10", rs.getString("TM"));
        assertEquals("17", rs.getNString("V"));
    }

    @Test
    void nullsReadAsZeroFalseOrNullAndWasNullSaysSo() throws SQLException {
        ResultSet rs = at(nulls());
        assertEquals(0, rs.getInt("I"));
        assertTrue(rs.wasNull());
        assertEquals(0, rs.getShort("S"));
        assertFalse(rs.wasNull());
        assertFalse(rs.getBoolean("B"));
        assertTrue(rs.wasNull());
        assertNull(rs.getString("V"));
        assertNull(rs.getBigDecimal("D"));
        assertNull(rs.getDate("DT"));
        assertNull(rs.getTimestamp("TS"));
        assertNull(rs.getObject("TS"));
        assertNull(rs.getObject("TS", LocalDateTime.class));
        assertNull(rs.getObject("I", Integer.class));
        assertEquals(0.0, rs.getDouble("G"));
        assertTrue(rs.wasNull());
    }

    @Test
    void datesAndTimes() throws SQLException {
        ResultSet rs = at(full());
        assertEquals(Date.valueOf(DAY), rs.getDate("DT"));
        assertEquals(Timestamp.valueOf(MOMENT), rs.getTimestamp("TS"));
        assertEquals(Date.valueOf(DAY), rs.getDate("TS"));
        assertEquals(Timestamp.valueOf(DAY.atStartOfDay()), rs.getTimestamp("DT"));
        assertEquals(LocalTime.of(8, 9, 10), rs.getTime("TM").toLocalTime());
        assertEquals(LocalTime.of(13, 14, 15), rs.getTime("TS").toLocalTime());
        Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
        assertEquals(MOMENT.toInstant(ZoneOffset.UTC), rs.getTimestamp("TS", utc).toInstant());
        assertEquals(123_000_000, rs.getTimestamp("TS", utc).getNanos());
        assertEquals(DAY.atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli(), rs.getDate("DT", utc).getTime());
        Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
        assertEquals(MOMENT.toInstant(ZoneOffset.ofHours(9)), rs.getTimestamp("TS", tokyo).toInstant());
        assertEquals(LocalTime.of(8, 9, 10).atDate(LocalDate.EPOCH).toInstant(ZoneOffset.ofHours(9)).toEpochMilli(),
                rs.getTime("TM", tokyo).getTime());
    }

    @Test
    void getObjectReturnsJdbcClassesOrTheClassAskedFor() throws SQLException {
        ResultSet rs = at(full());
        assertEquals(7, rs.getObject("S"), "SMALLINT is an Integer in JDBC");
        assertEquals(42, rs.getObject("I"));
        assertEquals(new BigDecimal("12.75"), rs.getObject("D"));
        assertEquals(Date.valueOf(DAY), rs.getObject("DT"));
        assertEquals(Timestamp.valueOf(MOMENT), rs.getObject("TS"));
        assertInstanceOf(Time.class, rs.getObject("TM"));
        assertEquals(DAY, rs.getObject("DT", LocalDate.class));
        assertEquals(MOMENT, rs.getObject("TS", LocalDateTime.class));
        assertEquals(LocalTime.of(8, 9, 10), rs.getObject("TM", LocalTime.class));
        assertEquals(DAY.atStartOfDay(), rs.getObject("DT", LocalDateTime.class));
        assertEquals((short) 7, rs.getObject("S", Short.class));
        assertEquals(12, rs.getObject("D", Integer.class));
        assertEquals(42L, rs.getObject("I", Long.class));
        assertEquals("12.75", rs.getObject("D", String.class));
        assertEquals(Boolean.TRUE, rs.getObject("B", Boolean.class));
        assertEquals(42, rs.getObject("I", Object.class));
        assertEquals(5_000_000_000L, rs.getObject("L", Number.class));
        assertThrows(SQLException.class, () -> rs.getObject("I", StringBuilder.class));
        assertThrows(SQLDataException.class, () -> rs.getBytes("V"));
    }

    @Test
    void labelsMatchCaseInsensitivelyExactFirst() throws SQLException {
        List<ColumnInfo> columns = List.of(column("name", Types.VARCHAR, String.class, true),
                column("NAME", Types.VARCHAR, String.class, true), column("Other", Types.VARCHAR, String.class, true));
        ResultSet rs = new TellResultSet(null, columns, new InMemoryResult(List.<Object[]>of(new Object[] {"a", "b", "c"})), 0);
        rs.next();
        assertEquals("a", rs.getString("name"));
        assertEquals("b", rs.getString("NAME"));
        assertEquals("a", rs.getString("Name"), "the first column of the label, ignoring case");
        assertEquals("c", rs.getString("OTHER"));
        assertEquals(3, rs.findColumn("other"));
        SQLException e = assertThrows(SQLException.class, () -> rs.getString("missing"));
        assertEquals("42703", e.getSQLState());
        assertEquals("07009", assertThrows(SQLException.class, () -> rs.getString(4)).getSQLState());
        assertEquals("07009", assertThrows(SQLException.class, () -> rs.getString(0)).getSQLState());
    }

    @Test
    void cursorMovesForwardOnly() throws SQLException {
        ResultSet rs = rows(full(), nulls());
        assertEquals("24000", assertThrows(SQLException.class, () -> rs.getInt(1)).getSQLState());
        assertTrue(rs.isBeforeFirst());
        assertEquals(0, rs.getRow());
        assertTrue(rs.next());
        assertTrue(rs.isFirst());
        assertEquals(1, rs.getRow());
        assertTrue(rs.next());
        assertFalse(rs.isFirst());
        assertFalse(rs.next());
        assertTrue(rs.isAfterLast());
        assertFalse(rs.next());
        assertEquals("24000", assertThrows(SQLException.class, () -> rs.getInt(1)).getSQLState());
        assertThrows(SQLFeatureNotSupportedException.class, rs::previous);
        assertThrows(SQLFeatureNotSupportedException.class, rs::first);
        assertThrows(SQLFeatureNotSupportedException.class, () -> rs.absolute(1));
        assertThrows(SQLFeatureNotSupportedException.class, () -> rs.updateInt(1, 3));
        assertThrows(SQLFeatureNotSupportedException.class, rs::insertRow);
        assertEquals(ResultSet.TYPE_FORWARD_ONLY, rs.getType());
        assertEquals(ResultSet.CONCUR_READ_ONLY, rs.getConcurrency());
        assertEquals(ResultSet.CLOSE_CURSORS_AT_COMMIT, rs.getHoldability());
        assertThrows(SQLException.class, () -> rs.setFetchDirection(ResultSet.FETCH_REVERSE));
        rs.setFetchSize(100);
        assertEquals(100, rs.getFetchSize());
    }

    @Test
    void maxRowsCutsTheResult() throws SQLException {
        List<Object[]> many = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            many.add(full());
        }
        ResultSet rs = new TellResultSet(null, COLUMNS, new InMemoryResult(many), 3);
        int n = 0;
        while (rs.next()) {
            n++;
        }
        assertEquals(3, n);
    }

    @Test
    void aClosedResultSetRefusesEverything() throws SQLException {
        ResultSet rs = at(full());
        rs.close();
        assertTrue(rs.isClosed());
        SQLException e = assertThrows(SQLException.class, rs::next);
        assertEquals("HY010", e.getSQLState());
        assertTrue(e.getMessage().contains("closed"));
        assertThrows(SQLException.class, () -> rs.getInt(1));
        assertThrows(SQLException.class, rs::getMetaData);
        rs.close();
    }

    @Test
    void metadataDescribesTheColumns() throws SQLException {
        ResultSetMetaData md = rows().getMetaData();
        assertEquals(COLUMNS.size(), md.getColumnCount());
        assertEquals("S", md.getColumnLabel(1));
        assertEquals("S", md.getColumnName(1));
        assertEquals(Types.SMALLINT, md.getColumnType(1));
        assertEquals("java.lang.Integer", md.getColumnClassName(1));
        assertEquals("java.sql.Timestamp", md.getColumnClassName(10));
        assertEquals("java.sql.Date", md.getColumnClassName(9));
        assertEquals("java.math.BigDecimal", md.getColumnClassName(4));
        assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(1));
        assertEquals(ResultSetMetaData.columnNullable, md.isNullable(2));
        assertEquals(2, md.getScale(4));
        assertTrue(md.isSigned(4));
        assertFalse(md.isSigned(7));
        assertTrue(md.isCaseSensitive(7));
        assertEquals("T", md.getTableName(1));
        assertEquals("PUBLIC", md.getSchemaName(1));
        assertFalse(md.isAutoIncrement(1));
        assertThrows(SQLException.class, () -> md.getColumnType(COLUMNS.size() + 1));
        ColumnInfo computed = new ColumnInfo("X", null, null, Types.INTEGER, "INTEGER", 10, 0, true, Integer.class);
        ResultSetMetaData expr = new TellResultSetMetaData(List.of(computed));
        assertEquals("", expr.getTableName(1));
        assertTrue(expr.isReadOnly(1));
    }
}
