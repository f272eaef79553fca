package io.tell.sql.jdbc;

import io.tell.sql.ColumnInfo;
import io.tell.sql.SqlResult;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Blob;
import java.sql.Date;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.rowset.serial.SerialBlob;

/**
 * A forward-only, read-only cursor over an {@link SqlResult}: a query's rows, or a metadata
 * result held in memory. Getters convert values as JDBC's tables allow (see
 * {@link ValueConversions}); {@code getObject} returns JDBC's classes ({@code java.sql.Date},
 * {@code Timestamp}, {@code Time}, Integer for SMALLINT) and {@code getObject(i, LocalDate.class)}
 * and the like the {@code java.time} values. Labels match case-insensitively, an exact match
 * first. The engine's result is released when the rows run out (ending an auto-commit query's
 * transaction) or the result set closes; at most {@code maxRows} rows are returned (0: all).
 */
public final class TellResultSet extends ForwardOnlyResultSet {
    private final TellStatement statement;
    private final List<ColumnInfo> columns;
    private final SqlResult result;
    private final long maxRows;
    private Map<String, Integer> labels;
    private Map<String, Integer> upperLabels;
    private Object[] row;
    private long rowNumber;
    private boolean afterLast;
    private boolean released;
    private boolean wasNull;
    private int fetchSize;
    private volatile boolean closed;

    TellResultSet(TellStatement statement, List<ColumnInfo> columns, SqlResult result, long maxRows) {
        this.statement = statement;
        this.columns = List.copyOf(columns);
        this.result = result;
        this.maxRows = maxRows;
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (afterLast) {
            return false;
        }
        boolean more;
        try {
            more = (maxRows == 0 || rowNumber < maxRows) && result.next();
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
        if (!more) {
            row = null;
            afterLast = true;
            release();
            return false;
        }
        row = result.row();
        rowNumber++;
        return true;
    }

    private void release() throws SQLException {
        if (!released) {
            released = true;
            try {
                result.close();
            } catch (RuntimeException e) {
                throw SqlExceptions.of(e);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        row = null;
        try {
            release();
        } finally {
            if (statement != null) {
                statement.resultSetClosed(this);
            }
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    void checkOpen() throws SQLException {
        if (closed) {
            throw SqlExceptions.closed("result set");
        }
    }

    /** The current row's value in column {@code columnIndex} (1-based), remembered for {@link #wasNull()}. */
    private Object value(int columnIndex) throws SQLException {
        checkOpen();
        checkIndex(columnIndex);
        if (row == null) {
            throw SqlExceptions.of(SqlExceptions.NO_CURRENT_ROW, afterLast ? "the cursor is after the last row"
                    : "the cursor is before the first row: call next()");
        }
        Object v = row[columnIndex - 1];
        wasNull = v == null;
        return v;
    }

    private void checkIndex(int columnIndex) throws SQLException {
        if (columnIndex < 1 || columnIndex > columns.size()) {
            throw SqlExceptions.of(SqlExceptions.BAD_INDEX, "column index " + columnIndex + " is out of range: the result has "
                    + columns.size() + " column" + (columns.size() == 1 ? "" : "s"));
        }
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        if (labels == null) {
            labels = new HashMap<>();
            for (int i = columns.size() - 1; i >= 0; i--) { // backwards, so the first column of a label wins
                labels.put(columns.get(i).label(), i + 1);
            }
            upperLabels = new HashMap<>();
            for (int i = columns.size() - 1; i >= 0; i--) {
                upperLabels.put(upper(columns.get(i).label()), i + 1);
            }
        }
        Integer index = columnLabel == null ? null : labels.get(columnLabel);
        if (index == null && columnLabel != null) {
            index = upperLabels.get(upper(columnLabel));
        }
        if (index == null) {
            throw SqlExceptions.of(SqlExceptions.UNDEFINED_COLUMN, "the result has no column " + columnLabel);
        }
        return index;
    }

    private static String upper(String label) {
        return label.toUpperCase(Locale.ROOT);
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toText(v);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toBytes(v);
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        byte[] b = getBytes(columnIndex);
        return b == null ? null : new ByteArrayInputStream(b);
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        byte[] b = getBytes(columnIndex);
        return b == null ? null : new SerialBlob(b);
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v != null && ValueConversions.toBoolean(v);
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (byte) ValueConversions.toIntegral(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT");
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (short) ValueConversions.toIntegral(v, Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT");
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : (int) ValueConversions.toIntegral(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER");
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : ValueConversions.toIntegral(v, Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : ValueConversions.toFloat(v);
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? 0 : ValueConversions.toDouble(v);
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toBigDecimal(v);
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(columnIndex);
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        return getDate(columnIndex, null);
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : DateTimes.date(ValueConversions.toLocalDate(v), cal);
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        return getTime(columnIndex, null);
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : DateTimes.time(ValueConversions.toLocalTime(v), cal);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        return getTimestamp(columnIndex, null);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        Object v = value(columnIndex);
        if (v instanceof java.time.OffsetDateTime t) {
            return Timestamp.from(t.toInstant()); // an instant is the same in every calendar
        }
        return v == null ? null : DateTimes.timestamp(ValueConversions.toLocalDateTime(v), cal);
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.toJdbcObject(v);
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        if (map != null && !map.isEmpty()) {
            throw SqlExceptions.unsupported("a type map (user-defined types)");
        }
        return getObject(columnIndex);
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw SqlExceptions.invalidArgument("getObject needs a class");
        }
        Object v = value(columnIndex);
        return v == null ? null : ValueConversions.to(v, type);
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new TellResultSetMetaData(columns);
    }

    /** The statement that made this result set; null for {@link java.sql.DatabaseMetaData} results. */
    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return row == null ? 0 : (int) Math.min(rowNumber, Integer.MAX_VALUE);
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return rowNumber == 0 && !afterLast;
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return afterLast && rowNumber > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return row != null && rowNumber == 1;
    }

    /** A hint, accepted and reported back. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw SqlExceptions.invalidArgument("fetch size is negative: " + rows);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }
}
