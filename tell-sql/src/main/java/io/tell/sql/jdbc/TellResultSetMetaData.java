package io.tell.sql.jdbc;

import io.tell.sql.ColumnInfo;
import io.tell.sql.Names;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;

/**
 * The columns of a result (or of a prepared query before it runs), from the engine's
 * {@link ColumnInfo}. A column that is a plain reference to a table column names that table
 * and column, and the table's schema; a computed one names none and is read-only.
 */
public final class TellResultSetMetaData extends TellWrapper implements ResultSetMetaData {
    private final List<ColumnInfo> columns;

    TellResultSetMetaData(List<ColumnInfo> columns) {
        this.columns = List.copyOf(columns);
    }

    private ColumnInfo column(int column) throws SQLException {
        if (column < 1 || column > columns.size()) {
            throw SqlExceptions.of(SqlExceptions.BAD_INDEX, "column index " + column + " is out of range: there are "
                    + columns.size() + " columns");
        }
        return columns.get(column - 1);
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    /** False: Tell has no identity columns. */
    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return JdbcTypes.characters(column(column).jdbcType());
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return column(column).nullable() ? columnNullable : columnNoNulls;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return JdbcTypes.signed(column(column).jdbcType());
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        ColumnInfo c = column(column);
        return JdbcTypes.displaySize(c.jdbcType(), c.precision(), c.scale());
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return column(column).label();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        ColumnInfo c = column(column);
        return c.column() != null ? c.column() : c.label();
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        String table = column(column).table();
        return table != null ? Names.schemaOf(table) : "";
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return column(column).precision();
    }

    @Override
    public int getScale(int column) throws SQLException {
        return column(column).scale();
    }

    @Override
    public String getTableName(int column) throws SQLException {
        String table = column(column).table();
        return table != null ? Names.local(table) : "";
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return column(column).jdbcType();
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return column(column).typeName();
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        return column(column).table() == null;
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        return !isReadOnly(column);
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return JdbcTypes.jdbcClass(column(column).javaClass()).getName();
    }
}
