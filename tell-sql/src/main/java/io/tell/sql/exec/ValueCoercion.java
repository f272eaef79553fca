package io.tell.sql.exec;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/** {@link Values#coerce}: a Java object from outside the executor as a value of a SQL type. */
final class ValueCoercion {
    private ValueCoercion() {
    }

    static Object coerce(Object value, RelDataType type) {
        SqlTypeName t = type.getSqlTypeName();
        IntegerType integer = IntegerType.of(t);
        if (integer != null) {
            long v = integral(value, t);
            if (!integer.fits(v)) {
                throw ExecErrors.outOfRange(value, t);
            }
            return integer.box(v);
        }
        return switch (t) {
            case DECIMAL -> decimal(value, type);
            case REAL, FLOAT, DOUBLE -> value instanceof String s
                    ? Numbers.approx(TextFormat.parseDouble(s, t.name()), t)
                    : Numbers.approx(number(value, t).doubleValue(), t);
            case CHAR, VARCHAR -> text(value, t);
            case BOOLEAN -> bool(value);
            case DATE -> date(value);
            case TIME -> time(value);
            case TIMESTAMP -> timestamp(value);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> instant(value);
            case BINARY, VARBINARY -> {
                if (value instanceof byte[]) {
                    yield value;
                }
                throw mismatch(value, t);
            }
            case UUID -> switch (value) {
                case java.util.UUID u -> u;
                case String s -> TextFormat.parseUuid(s);
                default -> throw mismatch(value, t);
            };
            default -> value;
        };
    }

    private static long integral(Object value, SqlTypeName t) {
        if (value instanceof String s) {
            return TextFormat.parseLong(s, t.name());
        }
        BigDecimal d = exact(value, t);
        if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
            throw ExecErrors.outOfRange(value, t);
        }
        try {
            return d.longValueExact();
        } catch (ArithmeticException e) {
            throw ExecErrors.outOfRange(value, t);
        }
    }

    private static BigDecimal decimal(Object value, RelDataType type) {
        BigDecimal d = value instanceof String s ? TextFormat.parseDecimal(s, "DECIMAL") : exact(value, SqlTypeName.DECIMAL);
        if (d.scale() < type.getScale()) {
            d = d.setScale(type.getScale());
        }
        if (d.signum() != 0 && d.precision() - d.scale() > type.getPrecision() - type.getScale()) {
            throw ExecErrors.outOfRange(value, type.getFullTypeString());
        }
        return d;
    }

    private static BigDecimal exact(Object value, SqlTypeName t) {
        return switch (number(value, t)) {
            case BigDecimal d -> d;
            case BigInteger i -> new BigDecimal(i);
            case Long l -> BigDecimal.valueOf(l);
            case Integer i -> BigDecimal.valueOf(i);
            case Short s -> BigDecimal.valueOf(s);
            case Byte b -> BigDecimal.valueOf(b);
            case Number n -> {
                double d = n.doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw ExecErrors.outOfRange(value, t);
                }
                yield new BigDecimal(n.toString());
            }
        };
    }

    private static Number number(Object value, SqlTypeName t) {
        if (value instanceof Number n) {
            return n;
        }
        throw mismatch(value, t);
    }

    private static String text(Object value, SqlTypeName t) {
        return switch (value) {
            case String s -> s;
            case Character c -> c.toString();
            case BigDecimal d -> d.toPlainString();
            case Number n -> n.toString();
            case Boolean b -> TextFormat.formatBoolean(b);
            default -> throw mismatch(value, t);
        };
    }

    private static Boolean bool(Object value) {
        return switch (value) {
            case Boolean b -> b;
            case String s -> TextFormat.parseBoolean(s);
            case Number n when !(n instanceof Float || n instanceof Double) -> exact(n, SqlTypeName.BOOLEAN).signum() != 0;
            default -> throw mismatch(value, SqlTypeName.BOOLEAN);
        };
    }

    private static LocalDate date(Object value) {
        return switch (value) {
            case LocalDate d -> d;
            case java.sql.Date d -> d.toLocalDate();
            case String s -> TextFormat.parseDate(s);
            case LocalDateTime t -> midnight(t);
            case java.sql.Timestamp t -> midnight(t.toLocalDateTime());
            default -> throw mismatch(value, SqlTypeName.DATE);
        };
    }

    private static LocalDate midnight(LocalDateTime t) {
        if (!t.toLocalTime().equals(LocalTime.MIDNIGHT)) {
            throw ExecErrors.data("timestamp " + t + " has a time of day and is not a DATE");
        }
        return t.toLocalDate();
    }

    private static LocalTime time(Object value) {
        return switch (value) {
            case LocalTime t -> t;
            case java.sql.Time t -> t.toLocalTime();
            case String s -> TextFormat.parseTime(s);
            default -> throw mismatch(value, SqlTypeName.TIME);
        };
    }

    static java.time.OffsetDateTime instant(Object value) {
        return switch (value) {
            case java.time.OffsetDateTime t -> t.withOffsetSameInstant(java.time.ZoneOffset.UTC);
            case java.time.ZonedDateTime t -> t.toOffsetDateTime().withOffsetSameInstant(java.time.ZoneOffset.UTC);
            case java.time.Instant t -> t.atOffset(java.time.ZoneOffset.UTC);
            case java.sql.Timestamp t -> t.toInstant().atOffset(java.time.ZoneOffset.UTC);
            case LocalDateTime t -> t.atOffset(java.time.ZoneOffset.UTC);
            case String s -> TextFormat.parseInstant(s);
            default -> throw mismatch(value, SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
        };
    }

    private static LocalDateTime timestamp(Object value) {
        return switch (value) {
            case LocalDateTime t -> t;
            case java.time.OffsetDateTime t -> t.withOffsetSameInstant(java.time.ZoneOffset.UTC).toLocalDateTime();
            case java.time.Instant t -> LocalDateTime.ofInstant(t, java.time.ZoneOffset.UTC);
            case java.sql.Timestamp t -> t.toLocalDateTime();
            case LocalDate d -> d.atStartOfDay();
            case java.sql.Date d -> d.toLocalDate().atStartOfDay();
            case String s -> TextFormat.parseTimestamp(s);
            default -> throw mismatch(value, SqlTypeName.TIMESTAMP);
        };
    }

    private static TellException mismatch(Object value, SqlTypeName t) {
        return TellException.of(ErrorCode.TYPE_MISMATCH,
                "a " + value.getClass().getSimpleName() + " cannot be a " + t + " value: " + value);
    }
}
