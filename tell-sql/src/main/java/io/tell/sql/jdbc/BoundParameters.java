package io.tell.sql.jdbc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The values bound to a prepared statement's {@code ?} parameters, as the objects the engine
 * takes: {@code java.sql} dates become {@code java.time} values, {@code setNull} null. Every
 * parameter must be set before the statement runs ({@code 07001} otherwise); values stay
 * bound across executions until {@link #clear()}.
 */
final class BoundParameters {
    private static final Object UNSET = new Object();

    private final Object[] values;

    BoundParameters(int count) {
        values = new Object[count];
        clear();
    }

    int count() {
        return values.length;
    }

    void set(int index, Object value) throws SQLException {
        if (index < 1 || index > values.length) {
            throw SqlExceptions.of(SqlExceptions.BAD_INDEX, "parameter index " + index + " is out of range: the statement has "
                    + values.length + " parameter" + (values.length == 1 ? "" : "s"));
        }
        values[index - 1] = value;
    }

    /** Binds an application object without a target type: {@code java.sql} dates become {@code java.time} values. */
    void setObject(int index, Object x) throws SQLException {
        set(index, switch (x) {
            case null -> null;
            case Date d -> d.toLocalDate();
            case Timestamp t -> t.toLocalDateTime();
            case Time t -> DateTimes.localTime(t, null);
            case java.util.Date d -> DateTimes.localDateTime(d);
            case Character c -> c.toString();
            case Byte b -> (short) b;
            case byte[] b -> b.clone();
            default -> x;
        });
    }

    /**
     * Binds {@code x} converted to {@code sqlType} (a {@link Types} code); a DECIMAL is rounded
     * half-up to {@code scale} unless it is negative (no scale given).
     */
    void setObject(int index, Object x, int sqlType, int scale) throws SQLException {
        if (x == null) {
            set(index, null);
            return;
        }
        set(index, switch (sqlType) {
            case Types.BOOLEAN, Types.BIT -> ValueConversions.toBoolean(x);
            case Types.TINYINT, Types.SMALLINT -> (short) ValueConversions.toIntegral(x, Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT");
            case Types.INTEGER -> (int) ValueConversions.toIntegral(x, Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER");
            case Types.BIGINT -> ValueConversions.toIntegral(x, Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
            case Types.DECIMAL, Types.NUMERIC -> decimal(x, scale);
            case Types.REAL -> ValueConversions.toFloat(x);
            case Types.FLOAT, Types.DOUBLE -> ValueConversions.toDouble(x);
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR ->
                    ValueConversions.toText(x);
            case Types.DATE -> ValueConversions.toLocalDate(x);
            case Types.TIME -> ValueConversions.toLocalTime(x);
            case Types.TIMESTAMP -> ValueConversions.toLocalDateTime(x);
            case Types.TIMESTAMP_WITH_TIMEZONE -> ValueConversions.to(x, java.time.OffsetDateTime.class);
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> ValueConversions.toBytes(x);
            case Types.NULL -> null;
            case Types.JAVA_OBJECT, Types.OTHER -> {
                setObject(index, x);
                yield values[index - 1];
            }
            default -> throw SqlExceptions.unsupported("setObject with target type " + sqlType);
        });
    }

    private static BigDecimal decimal(Object x, int scale) throws SQLException {
        BigDecimal d = ValueConversions.toBigDecimal(x);
        return scale >= 0 ? d.setScale(scale, RoundingMode.HALF_UP) : d;
    }

    void clear() {
        Arrays.fill(values, UNSET);
    }

    /** The bound values in order; {@code 07001} when one is not set. */
    List<Object> values() throws SQLException {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == UNSET) {
                throw SqlExceptions.of(SqlExceptions.PARAMETER_NOT_SET, "parameter " + (i + 1) + " of " + values.length
                        + " is not set");
            }
        }
        return Collections.unmodifiableList(Arrays.asList(values.clone()));
    }
}
