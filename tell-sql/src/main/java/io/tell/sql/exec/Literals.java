package io.tell.sql.exec;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Calcite's literal representation (BigDecimal for numbers and intervals, NlsString, DateString,
 * TimestampString…) converted once, at compile time, to the executor's value classes.
 */
final class Literals {
    private Literals() {
    }

    /** The value of {@code literal} as the Java class of its type; symbols and Sargs as they are. */
    static Object value(RexLiteral literal) {
        return switch (literal.getTypeName()) {
            // getValue() gives datetimes as Calendars, for compatibility; the strings are exact.
            case DATE -> convert(literal.getValueAs(DateString.class), literal.getType());
            case TIME -> convert(literal.getValueAs(TimeString.class), literal.getType());
            case TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> convert(literal.getValueAs(TimestampString.class), literal.getType());
            case SYMBOL, SARG -> literal.getValue();
            default -> convert(literal.getValue(), literal.getType());
        };
    }

    /** {@code internal}, a value as Calcite holds it in a literal or a Sarg, as a value of {@code type}. */
    static Object convert(Comparable<?> internal, RelDataType type) {
        if (internal == null) {
            return null;
        }
        SqlTypeName name = type.getSqlTypeName();
        IntegerType integer = IntegerType.of(name);
        if (integer != null) {
            return integer.box(exact(internal).longValueExact());
        }
        return switch (name) {
            case DECIMAL -> Numbers.fit(exact(internal), type);
            case REAL -> ((Number) internal).floatValue();
            case FLOAT, DOUBLE -> ((Number) internal).doubleValue();
            case BOOLEAN -> internal;
            case CHAR -> TextFormat.pad(string(internal), type.getPrecision());
            case VARCHAR -> string(internal);
            case DATE -> internal instanceof DateString d ? LocalDate.ofEpochDay(d.getDaysSinceEpoch()) : internal;
            case TIME -> internal instanceof TimeString t ? LocalTime.parse(t.toString()) : internal;
            case TIMESTAMP -> internal instanceof TimestampString t
                    ? LocalDateTime.parse(t.toString().replace(' ', 'T')) : internal;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> internal instanceof TimestampString t
                    ? LocalDateTime.parse(t.toString().replace(' ', 'T')).atOffset(java.time.ZoneOffset.UTC) : internal;
            case BINARY, VARBINARY -> internal instanceof ByteString b ? b.getBytes() : internal;
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> exact(internal).intValueExact();
            case INTERVAL_DAY, INTERVAL_DAY_HOUR, INTERVAL_DAY_MINUTE, INTERVAL_DAY_SECOND, INTERVAL_HOUR,
                 INTERVAL_HOUR_MINUTE, INTERVAL_HOUR_SECOND, INTERVAL_MINUTE, INTERVAL_MINUTE_SECOND,
                 INTERVAL_SECOND -> exact(internal).longValueExact();
            case UUID, SYMBOL, SARG, NULL -> internal;
            default -> throw ExecErrors.unsupported("a literal of type " + type.getFullTypeString());
        };
    }

    private static BigDecimal exact(Comparable<?> internal) {
        return internal instanceof BigDecimal d ? d : new BigDecimal(internal.toString());
    }

    private static String string(Comparable<?> internal) {
        return internal instanceof NlsString s ? s.getValue() : internal.toString();
    }
}
