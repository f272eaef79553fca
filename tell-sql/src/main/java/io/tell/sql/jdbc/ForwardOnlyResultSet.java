package io.tell.sql.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * The shape of Tell's result sets around the reading itself ({@link TellResultSet}): getters by
 * label find the column and read by index; the cursor moves forward only; there are no values
 * of character LOB, XML, array, reference, URL or row-id types to get.
 */
abstract class ForwardOnlyResultSet extends ReadOnlyResultSet {
    abstract void checkOpen() throws SQLException;

    private static SQLException forwardOnly() {
        return SqlExceptions.unsupported("moving the cursor other than forward (TYPE_SCROLL_INSENSITIVE)");
    }

    @Override
    public final int getType() throws SQLException {
        checkOpen();
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public final int getHoldability() throws SQLException {
        checkOpen();
        return CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public final void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != FETCH_FORWARD) {
            throw SqlExceptions.invalidArgument("a forward-only result set fetches forward only");
        }
    }

    @Override
    public final int getFetchDirection() throws SQLException {
        checkOpen();
        return FETCH_FORWARD;
    }

    /** Optional for forward-only result sets, and it would need to read ahead. */
    @Override public final boolean isLast() throws SQLException { throw forwardOnly(); }
    @Override public final void beforeFirst() throws SQLException { throw forwardOnly(); }
    @Override public final void afterLast() throws SQLException { throw forwardOnly(); }
    @Override public final boolean first() throws SQLException { throw forwardOnly(); }
    @Override public final boolean last() throws SQLException { throw forwardOnly(); }
    @Override public final boolean absolute(int row) throws SQLException { throw forwardOnly(); }
    @Override public final boolean relative(int rows) throws SQLException { throw forwardOnly(); }
    @Override public final boolean previous() throws SQLException { throw forwardOnly(); }

    @Override public final String getCursorName() throws SQLException { throw SqlExceptions.unsupported("positioned update (cursor names)"); }
    @Override public final InputStream getAsciiStream(int columnIndex) throws SQLException { throw SqlExceptions.unsupported("getAsciiStream"); }
    @Override @Deprecated public final InputStream getUnicodeStream(int columnIndex) throws SQLException { throw SqlExceptions.unsupported("getUnicodeStream"); }
    @Override public final Ref getRef(int columnIndex) throws SQLException { throw SqlExceptions.unsupported("REF"); }
    @Override public final Clob getClob(int columnIndex) throws SQLException { throw SqlExceptions.unsupported("CLOB"); }
    @Override public final NClob getNClob(int columnIndex) throws SQLException { throw SqlExceptions.unsupported("NCLOB"); }
    @Override public final Array getArray(int columnIndex) throws SQLException { throw SqlExceptions.unsupported("ARRAY"); }
    @Override public final URL getURL(int columnIndex) throws SQLException { throw SqlExceptions.unsupported("DATALINK (URL)"); }
    @Override public final RowId getRowId(int columnIndex) throws SQLException { throw SqlExceptions.unsupported("ROWID"); }
    @Override public final SQLXML getSQLXML(int columnIndex) throws SQLException { throw SqlExceptions.unsupported("SQLXML"); }

    @Override public final String getString(String columnLabel) throws SQLException { return getString(findColumn(columnLabel)); }
    @Override public final String getNString(String columnLabel) throws SQLException { return getNString(findColumn(columnLabel)); }
    @Override public final boolean getBoolean(String columnLabel) throws SQLException { return getBoolean(findColumn(columnLabel)); }
    @Override public final byte getByte(String columnLabel) throws SQLException { return getByte(findColumn(columnLabel)); }
    @Override public final short getShort(String columnLabel) throws SQLException { return getShort(findColumn(columnLabel)); }
    @Override public final int getInt(String columnLabel) throws SQLException { return getInt(findColumn(columnLabel)); }
    @Override public final long getLong(String columnLabel) throws SQLException { return getLong(findColumn(columnLabel)); }
    @Override public final float getFloat(String columnLabel) throws SQLException { return getFloat(findColumn(columnLabel)); }
    @Override public final double getDouble(String columnLabel) throws SQLException { return getDouble(findColumn(columnLabel)); }
    @Override public final BigDecimal getBigDecimal(String columnLabel) throws SQLException { return getBigDecimal(findColumn(columnLabel)); }
    @Override @Deprecated public final BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException { return getBigDecimal(findColumn(columnLabel), scale); }
    @Override public final Date getDate(String columnLabel) throws SQLException { return getDate(findColumn(columnLabel)); }
    @Override public final Date getDate(String columnLabel, Calendar cal) throws SQLException { return getDate(findColumn(columnLabel), cal); }
    @Override public final Time getTime(String columnLabel) throws SQLException { return getTime(findColumn(columnLabel)); }
    @Override public final Time getTime(String columnLabel, Calendar cal) throws SQLException { return getTime(findColumn(columnLabel), cal); }
    @Override public final Timestamp getTimestamp(String columnLabel) throws SQLException { return getTimestamp(findColumn(columnLabel)); }
    @Override public final Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException { return getTimestamp(findColumn(columnLabel), cal); }
    @Override public final Object getObject(String columnLabel) throws SQLException { return getObject(findColumn(columnLabel)); }
    @Override public final Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException { return getObject(findColumn(columnLabel), map); }
    @Override public final <T> T getObject(String columnLabel, Class<T> type) throws SQLException { return getObject(findColumn(columnLabel), type); }
    @Override public final Reader getCharacterStream(String columnLabel) throws SQLException { return getCharacterStream(findColumn(columnLabel)); }
    @Override public final Reader getNCharacterStream(String columnLabel) throws SQLException { return getNCharacterStream(findColumn(columnLabel)); }
    @Override public final byte[] getBytes(String columnLabel) throws SQLException { return getBytes(findColumn(columnLabel)); }
    @Override public final InputStream getAsciiStream(String columnLabel) throws SQLException { return getAsciiStream(findColumn(columnLabel)); }
    @Override @Deprecated public final InputStream getUnicodeStream(String columnLabel) throws SQLException { return getUnicodeStream(findColumn(columnLabel)); }
    @Override public final InputStream getBinaryStream(String columnLabel) throws SQLException { return getBinaryStream(findColumn(columnLabel)); }
    @Override public final Ref getRef(String columnLabel) throws SQLException { return getRef(findColumn(columnLabel)); }
    @Override public final Blob getBlob(String columnLabel) throws SQLException { return getBlob(findColumn(columnLabel)); }
    @Override public final Clob getClob(String columnLabel) throws SQLException { return getClob(findColumn(columnLabel)); }
    @Override public final NClob getNClob(String columnLabel) throws SQLException { return getNClob(findColumn(columnLabel)); }
    @Override public final Array getArray(String columnLabel) throws SQLException { return getArray(findColumn(columnLabel)); }
    @Override public final URL getURL(String columnLabel) throws SQLException { return getURL(findColumn(columnLabel)); }
    @Override public final RowId getRowId(String columnLabel) throws SQLException { return getRowId(findColumn(columnLabel)); }
    @Override public final SQLXML getSQLXML(String columnLabel) throws SQLException { return getSQLXML(findColumn(columnLabel)); }
}
