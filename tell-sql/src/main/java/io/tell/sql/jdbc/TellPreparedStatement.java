package io.tell.sql.jdbc;

import io.tell.sql.ColumnType;
import io.tell.sql.PreparedSql;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;

/**
 * A statement prepared once through the session ({@link io.tell.sql.SqlSession#prepare}) and
 * run any number of times with the values bound to its parameters. Values are handed to the
 * engine as Java objects ({@code java.sql} dates as {@code java.time} values), which converts
 * them to the parameters' types. The SQL-text methods of {@link java.sql.Statement} are
 * refused, as JDBC requires.
 */
public final class TellPreparedStatement extends TellStatement implements PreparedStatement {
    private final PreparedSql prepared;
    private final BoundParameters parameters;
    private final List<List<Object>> batch = new ArrayList<>();
    /** Prepared to return generated keys: its RETURNING rows are getGeneratedKeys()'s, its count theirs. */
    private final boolean keys;

    TellPreparedStatement(TellConnection connection, PreparedSql prepared) {
        this(connection, prepared, false);
    }

    TellPreparedStatement(TellConnection connection, PreparedSql prepared, boolean keys) {
        super(connection, true);
        this.prepared = prepared;
        this.parameters = new BoundParameters(prepared.parameters().size());
        this.keys = keys;
    }

    @Override
    PreparedSql prepareText(String sql) throws SQLException {
        throw SqlExceptions.of(SqlExceptions.NOT_ALLOWED, "a PreparedStatement runs its own SQL: call the method without SQL text");
    }

    @Override
    public boolean execute() throws SQLException {
        checkOpen();
        return keys ? runReturningKeys(prepared, parameters.values(), false) : run(prepared, parameters.values());
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        checkOpen();
        return query(prepared, parameters.values());
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        checkOpen();
        return runUpdate(parameters.values(), false);
    }

    private long runUpdate(List<?> values, boolean keepKeys) throws SQLException {
        if (keys && prepared.writes()) {
            runReturningKeys(prepared, values, keepKeys);
        } else {
            requireUpdate(prepared);
            run(prepared, values);
        }
        return getLargeUpdateCount();
    }

    @Override
    public int executeUpdate() throws SQLException {
        return clamp(executeLargeUpdate());
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        batch.add(parameters.values());
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        prepareText(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<List<Object>> sets = List.copyOf(batch);
        batch.clear();
        return runBatch(sets.size(), i -> runUpdate(sets.get(i), i > 0)); // keys of the whole batch
    }

    /** The result columns (none unless the statement is a query). */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new TellResultSetMetaData(prepared.columns());
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new TellParameterMetaData(prepared.parameters());
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        parameters.clear();
    }

    private void set(int index, Object value) throws SQLException {
        checkOpen();
        parameters.set(index, value);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        set(parameterIndex, null);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        set(parameterIndex, null);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        set(parameterIndex, (short) x);
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        setDate(parameterIndex, x, null);
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        set(parameterIndex, x == null ? null : DateTimes.localDate(x, cal));
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        setTime(parameterIndex, x, null);
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        set(parameterIndex, x == null ? null : DateTimes.localTime(x, cal));
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        setTimestamp(parameterIndex, x, null);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        set(parameterIndex, x == null ? null : DateTimes.localDateTime(x, cal));
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        checkOpen();
        parameters.setObject(parameterIndex, x);
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        setObject(parameterIndex, x, targetSqlType, -1);
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        checkOpen();
        parameters.setObject(parameterIndex, x, targetSqlType, scaleOrLength);
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        setObject(parameterIndex, x, targetSqlType, -1);
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        if (targetSqlType == null || targetSqlType.getVendorTypeNumber() == null
                || !"java.sql".equals(targetSqlType.getVendor())) {
            throw SqlExceptions.unsupported("target type " + targetSqlType);
        }
        setObject(parameterIndex, x, targetSqlType.getVendorTypeNumber(), scaleOrLength);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, reader == null ? null : read(reader, length));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        setCharacterStream(parameterIndex, reader, (long) length);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        setCharacterStream(parameterIndex, reader, -1L);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        setCharacterStream(parameterIndex, value, length);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        setCharacterStream(parameterIndex, value, -1L);
    }

    /** The characters of {@code reader}, at most {@code length} of them when it is not negative. */
    private static String read(Reader reader, long length) throws SQLException {
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[8192];
        try {
            while (length < 0 || text.length() < length) {
                int want = length < 0 ? buffer.length : (int) Math.min(buffer.length, length - text.length());
                int n = reader.read(buffer, 0, want);
                if (n < 0) {
                    break;
                }
                text.append(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new SQLException("reading the character stream failed: " + e.getMessage(), "HY000", 0, e);
        }
        return text.toString();
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        setObject(parameterIndex, x);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        checkOpen();
        if (x == null) {
            parameters.set(parameterIndex, null);
            return;
        }
        if (length < 0 || length > ColumnType.MAX_LENGTH) {
            throw SqlExceptions.invalidArgument("a binary stream's length must be in [0, " + ColumnType.MAX_LENGTH + "]: " + length);
        }
        try {
            byte[] b = x.readNBytes((int) length);
            if (b.length < length) {
                throw SqlExceptions.invalidArgument("the binary stream ended after " + b.length + " of " + length + " bytes");
            }
            parameters.set(parameterIndex, b);
        } catch (IOException e) {
            throw new SQLException("reading the binary stream failed: " + e.getMessage(), "HY000", 0, e);
        }
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        checkOpen();
        if (x == null) {
            parameters.set(parameterIndex, null);
            return;
        }
        try {
            byte[] b = x.readNBytes(ColumnType.MAX_LENGTH + 1);
            if (b.length > ColumnType.MAX_LENGTH) {
                throw SqlExceptions.invalidArgument("a binary stream may hold at most " + ColumnType.MAX_LENGTH + " bytes");
            }
            parameters.set(parameterIndex, b);
        } catch (IOException e) {
            throw new SQLException("reading the binary stream failed: " + e.getMessage(), "HY000", 0, e);
        }
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        setBinaryStream(parameterIndex, x, (long) length);
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        checkOpen();
        if (x != null && x.length() > ColumnType.MAX_LENGTH) {
            throw SqlExceptions.invalidArgument("a BLOB may hold at most " + ColumnType.MAX_LENGTH + " bytes");
        }
        parameters.set(parameterIndex, x == null ? null : x.getBytes(1, (int) x.length()));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        setBinaryStream(parameterIndex, inputStream, length);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        setBinaryStream(parameterIndex, inputStream);
    }

    // Tell has no character LOB, XML, array, reference, URL or row-id types.

    @Override public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException { throw SqlExceptions.unsupported("setAsciiStream"); }
    @Override public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException { throw SqlExceptions.unsupported("setAsciiStream"); }
    @Override public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException { throw SqlExceptions.unsupported("setAsciiStream"); }
    @Override @Deprecated public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException { throw SqlExceptions.unsupported("setUnicodeStream"); }
    @Override public void setRef(int parameterIndex, Ref x) throws SQLException { throw SqlExceptions.unsupported("REF"); }
    @Override public void setClob(int parameterIndex, Clob x) throws SQLException { throw SqlExceptions.unsupported("CLOB"); }
    @Override public void setClob(int parameterIndex, Reader reader, long length) throws SQLException { throw SqlExceptions.unsupported("CLOB"); }
    @Override public void setClob(int parameterIndex, Reader reader) throws SQLException { throw SqlExceptions.unsupported("CLOB"); }
    @Override public void setNClob(int parameterIndex, NClob value) throws SQLException { throw SqlExceptions.unsupported("NCLOB"); }
    @Override public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException { throw SqlExceptions.unsupported("NCLOB"); }
    @Override public void setNClob(int parameterIndex, Reader reader) throws SQLException { throw SqlExceptions.unsupported("NCLOB"); }
    @Override public void setArray(int parameterIndex, Array x) throws SQLException { throw SqlExceptions.unsupported("ARRAY"); }
    @Override public void setURL(int parameterIndex, URL x) throws SQLException { throw SqlExceptions.unsupported("DATALINK (URL)"); }
    @Override public void setRowId(int parameterIndex, RowId x) throws SQLException { throw SqlExceptions.unsupported("ROWID"); }
    @Override public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException { throw SqlExceptions.unsupported("SQLXML"); }
}
