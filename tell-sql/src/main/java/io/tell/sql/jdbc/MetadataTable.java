package io.tell.sql.jdbc;

import io.tell.sql.ColumnInfo;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Builds a metadata result set in memory: its columns, named {@code NAME} (VARCHAR) or
 * {@code NAME:TYPE} with TYPE one of INTEGER, SMALLINT, BIGINT, BOOLEAN; then its rows, whose
 * numbers are narrowed or widened to their column's class.
 */
final class MetadataTable {
    private final List<ColumnInfo> columns = new ArrayList<>();
    private final List<Object[]> rows = new ArrayList<>();

    MetadataTable(String... columns) {
        for (String spec : columns) {
            int colon = spec.indexOf(':');
            String label = colon < 0 ? spec : spec.substring(0, colon);
            String type = colon < 0 ? "VARCHAR" : spec.substring(colon + 1);
            this.columns.add(switch (type) {
                case "VARCHAR" -> column(label, Types.VARCHAR, type, 128, String.class);
                case "INTEGER" -> column(label, Types.INTEGER, type, 10, Integer.class);
                case "SMALLINT" -> column(label, Types.SMALLINT, type, 5, Short.class);
                case "BIGINT" -> column(label, Types.BIGINT, type, 19, Long.class);
                case "BOOLEAN" -> column(label, Types.BOOLEAN, type, 1, Boolean.class);
                default -> throw new IllegalArgumentException("metadata column type " + type);
            });
        }
    }

    private static ColumnInfo column(String label, int jdbcType, String typeName, int precision, Class<?> javaClass) {
        return new ColumnInfo(label, null, null, jdbcType, typeName, precision, 0, true, javaClass);
    }

    MetadataTable add(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException(values.length + " values for " + columns.size() + " columns");
        }
        Object[] row = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            row[i] = values[i] instanceof Number n ? narrow(n, columns.get(i).javaClass()) : values[i];
        }
        rows.add(row);
        return this;
    }

    /** Sorts the rows by the named columns, nulls first, as the JDBC javadoc orders each result. */
    MetadataTable sortBy(String... labels) {
        Comparator<Object[]> order = (a, b) -> 0;
        for (String label : labels) {
            int i = indexOf(label);
            order = order.thenComparing((a, b) -> compare(a[i], b[i]));
        }
        rows.sort(order);
        return this;
    }

    List<ColumnInfo> columns() {
        return columns;
    }

    /** The rows as a result set of {@code statement} (null for {@link java.sql.DatabaseMetaData} results). */
    TellResultSet resultSet(TellStatement statement) {
        return new TellResultSet(statement, columns, new InMemoryResult(rows), 0);
    }

    private int indexOf(String label) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).label().equals(label)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no metadata column " + label + " in " + Arrays.toString(columns.toArray()));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object x, Object y) {
        if (x == null || y == null) {
            return x == null ? (y == null ? 0 : -1) : 1;
        }
        return ((Comparable) x).compareTo(y);
    }

    private static Object narrow(Number n, Class<?> javaClass) {
        if (javaClass == Integer.class) {
            return n.intValue();
        }
        if (javaClass == Short.class) {
            return n.shortValue();
        }
        if (javaClass == Long.class) {
            return n.longValue();
        }
        return n;
    }
}
