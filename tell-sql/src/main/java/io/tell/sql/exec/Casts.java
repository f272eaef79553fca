package io.tell.sql.exec;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * CAST, and the conversions other operators need to give a value the class of their result
 * type. The conversion is chosen from the source and target types at compile time.
 *
 * <p>String targets follow PostgreSQL's explicit cast: a longer value is cut to the target
 * length, CHAR(n) pads with spaces, and CHAR to VARCHAR drops the padding. Timestamps keep their
 * fraction whatever the target precision.
 */
final class Casts {
    private Casts() {
    }

    static Expr compile(Expr operand, RelDataType from, RelDataType to) {
        if (!needsConversion(from, to)) {
            return operand;
        }
        return Strict.unary(operand, converter(from, to));
    }

    /** Whether a value of {@code from} must change to be a value of {@code to}. */
    static boolean needsConversion(RelDataType from, RelDataType to) {
        SqlTypeName f = from.getSqlTypeName();
        SqlTypeName t = to.getSqlTypeName();
        if (f == SqlTypeName.NULL) {
            return false;
        }
        if (Values.javaClass(f) != Values.javaClass(t)) {
            return true;
        }
        return switch (t) {
            case DECIMAL -> from.getScale() != to.getScale() || from.getPrecision() > to.getPrecision();
            case CHAR -> f != SqlTypeName.CHAR || from.getPrecision() != to.getPrecision();
            case VARCHAR -> f == SqlTypeName.CHAR || bounded(to) && (!bounded(from) || from.getPrecision() > to.getPrecision());
            default -> false;
        };
    }

    /** Converts a non-null value of type {@code from} to a value of type {@code to}. */
    static UnaryOperator<Object> converter(RelDataType from, RelDataType to) {
        SqlTypeName t = to.getSqlTypeName();
        IntegerType integer = IntegerType.of(t);
        if (integer != null) {
            return NumberCasts.toInteger(from, integer);
        }
        return switch (t) {
            case DECIMAL -> NumberCasts.toDecimal(from, to);
            case REAL, FLOAT, DOUBLE -> NumberCasts.toApprox(from, t);
            case BOOLEAN -> NumberCasts.toBoolean(from);
            case CHAR, VARCHAR -> toText(from, to);
            case DATE -> toDate(from);
            case TIME -> toTime(from);
            case TIMESTAMP -> toTimestamp(from);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> toInstant(from);
            case BINARY, VARBINARY -> toBinary(from, to);
            case UUID -> toUuid(from);
            default -> {
                if (from.getSqlTypeName() == t || sameIntervalFamily(from.getSqlTypeName(), t)) {
                    yield v -> v;
                }
                throw NumberCasts.unsupported(from, to.getFullTypeString());
            }
        };
    }

    private static boolean sameIntervalFamily(SqlTypeName a, SqlTypeName b) {
        return SqlTypeName.YEAR_INTERVAL_TYPES.contains(a) && SqlTypeName.YEAR_INTERVAL_TYPES.contains(b)
                || SqlTypeName.DAY_INTERVAL_TYPES.contains(a) && SqlTypeName.DAY_INTERVAL_TYPES.contains(b);
    }

    private static boolean bounded(RelDataType type) {
        return type.getPrecision() > 0 && type.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED;
    }

    private static UnaryOperator<Object> toText(RelDataType from, RelDataType to) {
        Function<Object, String> format = formatter(from);
        int length = bounded(to) ? to.getPrecision() : Integer.MAX_VALUE;
        if (to.getSqlTypeName() == SqlTypeName.CHAR) {
            return v -> TextFormat.pad(TextFormat.cut(format.apply(v), length), length);
        }
        return v -> TextFormat.cut(format.apply(v), length);
    }

    /** How a value of type {@code from} reads as text. */
    static Function<Object, String> formatter(RelDataType from) {
        SqlTypeName f = from.getSqlTypeName();
        if (IntegerType.is(f)) {
            return Object::toString;
        }
        return switch (f) {
            case CHAR -> v -> TextFormat.stripTrailingSpaces((String) v);
            case VARCHAR -> v -> (String) v;
            case DECIMAL -> v -> ((BigDecimal) v).toPlainString();
            case REAL -> v -> TextFormat.formatReal((Float) v);
            case FLOAT, DOUBLE -> v -> TextFormat.formatDouble((Double) v);
            case BOOLEAN -> v -> TextFormat.formatBoolean((Boolean) v);
            case DATE -> Object::toString;
            case TIME -> v -> TextFormat.formatTime((LocalTime) v);
            case TIMESTAMP -> v -> TextFormat.formatTimestamp((LocalDateTime) v);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> v -> TextFormat.formatInstant((java.time.OffsetDateTime) v);
            case BINARY, VARBINARY -> v -> TextFormat.formatBytes((byte[]) v);
            case UUID -> Object::toString;
            default -> throw NumberCasts.unsupported(from, "a string");
        };
    }

    private static UnaryOperator<Object> toDate(RelDataType from) {
        return switch (from.getSqlTypeName()) {
            case DATE -> v -> v;
            case TIMESTAMP -> v -> ((LocalDateTime) v).toLocalDate();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> v -> ((java.time.OffsetDateTime) v).toLocalDate();
            case CHAR, VARCHAR -> v -> TextFormat.parseDate((String) v);
            default -> throw NumberCasts.unsupported(from, "DATE");
        };
    }

    private static UnaryOperator<Object> toTime(RelDataType from) {
        return switch (from.getSqlTypeName()) {
            case TIME -> v -> v;
            case TIMESTAMP -> v -> ((LocalDateTime) v).toLocalTime();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> v -> ((java.time.OffsetDateTime) v).toLocalTime();
            case CHAR, VARCHAR -> v -> TextFormat.parseTime((String) v);
            default -> throw NumberCasts.unsupported(from, "TIME");
        };
    }

    /**
     * From bytes, cut to the target's length as a cast to VARCHAR cuts; from text, its UTF-8 bytes
     * (as Calcite folds a cast of a literal; PostgreSQL's {@code '\\x…'::bytea} is rewritten to a
     * binary literal by the wire server).
     */
    private static UnaryOperator<Object> toBinary(RelDataType from, RelDataType to) {
        int length = bounded(to) ? to.getPrecision() : Integer.MAX_VALUE;
        UnaryOperator<Object> bytes = switch (from.getSqlTypeName()) {
            case BINARY, VARBINARY -> v -> v;
            case CHAR, VARCHAR -> v -> ((String) v).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            default -> throw NumberCasts.unsupported(from, to.getFullTypeString());
        };
        return v -> {
            byte[] b = (byte[]) bytes.apply(v);
            return b.length > length ? java.util.Arrays.copyOf(b, length) : b;
        };
    }

    private static UnaryOperator<Object> toUuid(RelDataType from) {
        return switch (from.getSqlTypeName()) {
            case UUID -> v -> v;
            case CHAR, VARCHAR -> v -> TextFormat.parseUuid((String) v);
            default -> throw NumberCasts.unsupported(from, "UUID");
        };
    }

    private static UnaryOperator<Object> toTimestamp(RelDataType from) {
        return switch (from.getSqlTypeName()) {
            case TIMESTAMP -> v -> v;
            case DATE -> v -> ((LocalDate) v).atStartOfDay();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> v -> ((java.time.OffsetDateTime) v).toLocalDateTime(); // at UTC
            case CHAR, VARCHAR -> v -> TextFormat.parseTimestamp((String) v);
            default -> throw NumberCasts.unsupported(from, "TIMESTAMP");
        };
    }

    /** To TIMESTAMP WITH TIME ZONE: a TIMESTAMP or DATE is read at UTC, the session's time zone; text may carry an offset. */
    private static UnaryOperator<Object> toInstant(RelDataType from) {
        return switch (from.getSqlTypeName()) {
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> v -> v;
            case TIMESTAMP -> v -> ((LocalDateTime) v).atOffset(java.time.ZoneOffset.UTC);
            case DATE -> v -> ((LocalDate) v).atStartOfDay().atOffset(java.time.ZoneOffset.UTC);
            case CHAR, VARCHAR -> v -> TextFormat.parseInstant((String) v);
            default -> throw NumberCasts.unsupported(from, "TIMESTAMP WITH TIME ZONE");
        };
    }
}
