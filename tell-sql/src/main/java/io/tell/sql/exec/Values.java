package io.tell.sql.exec;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The one representation of SQL values inside the executor: every value has the Java class
 * its SQL type names here, the same classes {@link io.tell.sql.SqlType} uses for stored
 * columns. SQL NULL is {@code null}. Intervals, which only appear inside expressions, are held
 * as Calcite holds them: a year-month interval as its {@link Integer} number of months, a
 * day-time interval as its {@link Long} number of milliseconds.
 */
public final class Values {
    private Values() {
    }

    /** The Java class of values of {@code type}; Object for types Tell does not compute with. */
    public static Class<?> javaClass(SqlTypeName type) {
        return switch (type) {
            case BOOLEAN -> Boolean.class;
            case TINYINT -> Byte.class;
            case SMALLINT -> Short.class;
            case INTEGER -> Integer.class;
            case BIGINT -> Long.class;
            case DECIMAL -> java.math.BigDecimal.class;
            case REAL -> Float.class;
            case FLOAT, DOUBLE -> Double.class;
            case CHAR, VARCHAR -> String.class;
            case DATE -> java.time.LocalDate.class;
            case TIME -> java.time.LocalTime.class;
            case TIMESTAMP -> java.time.LocalDateTime.class;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> java.time.OffsetDateTime.class;
            case BINARY, VARBINARY -> byte[].class;
            case UUID -> java.util.UUID.class;
            case INTERVAL_YEAR, INTERVAL_YEAR_MONTH, INTERVAL_MONTH -> Integer.class;
            case INTERVAL_DAY, INTERVAL_DAY_HOUR, INTERVAL_DAY_MINUTE, INTERVAL_DAY_SECOND, INTERVAL_HOUR,
                 INTERVAL_HOUR_MINUTE, INTERVAL_HOUR_SECOND, INTERVAL_MINUTE, INTERVAL_MINUTE_SECOND,
                 INTERVAL_SECOND -> Long.class;
            default -> Object.class;
        };
    }

    /**
     * {@code value}, a Java object from outside the executor (a JDBC parameter), as a value of
     * {@code type}: numbers of any class that fit exactly (a DECIMAL keeps digits beyond the
     * type's scale rather than rounding them away), text parsed as CAST reads it, {@code java.sql}
     * dates and timestamps as {@code java.time} values. Strings are neither cut nor padded: a
     * column's own coercion checks lengths when the value is stored, and a comparison with a
     * longer string is simply false. Null stays null.
     *
     * @throws io.tell.error.TellException TYPE_MISMATCH for a value of the wrong kind,
     *     VALUE_OUT_OF_RANGE when it does not fit, DATA_EXCEPTION for text that does not parse
     */
    public static Object coerce(Object value, RelDataType type) {
        return value == null ? null : ValueCoercion.coerce(value, type);
    }

    /**
     * A DOUBLE as PostgreSQL prints it (shortest exact digits, {@code 1e+20} past 15 digits,
     * {@code NaN}, {@code Infinity}): what CAST to text gives, and the wire server's text form.
     */
    public static String formatDouble(double d) {
        return TextFormat.formatDouble(d);
    }

    /**
     * A UUID written in any of PostgreSQL's input forms (with or without hyphens, in braces).
     *
     * @throws io.tell.error.TellException DATA_EXCEPTION for other text
     */
    public static java.util.UUID parseUuid(String text) {
        return TextFormat.parseUuid(text);
    }

    /** {@code \\x} and the hex digits of {@code bytes}: PostgreSQL's bytea text, and CAST of bytes to text. */
    public static String formatBytes(byte[] bytes) {
        return TextFormat.formatBytes(bytes);
    }

    /** Bytes from PostgreSQL's bytea text ({@code \\x} and hex digits, or escaped text). */
    public static byte[] parseBytes(String text) {
        return TextFormat.parseBytes(text);
    }

    /**
     * {@code value} as an instant ({@link java.time.OffsetDateTime} at UTC), the value of a
     * TIMESTAMP WITH TIME ZONE: an OffsetDateTime, ZonedDateTime, Instant or {@code java.sql.Timestamp}
     * as the instant it is; a LocalDateTime (a TIMESTAMP) read at UTC, the session's time zone;
     * text with or without an offset ({@code +02}, {@code +02:00}, {@code Z}).
     *
     * @throws io.tell.error.TellException TYPE_MISMATCH for other values, DATA_EXCEPTION for bad text
     */
    public static java.time.OffsetDateTime instant(Object value) {
        return ValueCoercion.instant(value);
    }

    /** A TIMESTAMP WITH TIME ZONE as PostgreSQL prints it at UTC: {@code 2024-05-06 07:08:09.5+00}. */
    public static String formatInstant(java.time.OffsetDateTime t) {
        return TextFormat.formatInstant(t);
    }

    /** A REAL as PostgreSQL prints it; see {@link #formatDouble}. */
    public static String formatReal(float f) {
        return TextFormat.formatReal(f);
    }
}
