package io.tell.sql.jdbc;

import io.tell.error.TellException;
import io.tell.sql.exec.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.UUID;

/**
 * The standard JDBC conversions between values (as the engine produces them, or as an
 * application binds them) and the types of the getters and of {@code setObject}'s target
 * types. Numbers convert when they fit (fractions are truncated toward zero for integers);
 * strings are parsed; a value that does not convert is {@code 22018}, one out of range
 * {@code 22003}. Arguments are never null: callers handle SQL NULL.
 */
final class ValueConversions {
    private ValueConversions() {
    }

    static String toText(Object v) {
        return switch (v) {
            case String s -> s;
            case BigDecimal d -> d.toPlainString();
            case Boolean b -> b ? "TRUE" : "FALSE";
            case LocalDateTime t -> DateTimes.format(t);
            case LocalTime t -> DateTimes.format(t);
            case Timestamp t -> DateTimes.format(t.toLocalDateTime());
            case byte[] b -> Values.formatBytes(b);
            case OffsetDateTime t -> Values.formatInstant(t);
            default -> v.toString();
        };
    }

    /** A copy of binary data (the engine's values are shared); anything else does not convert. */
    static byte[] toBytes(Object v) throws SQLException {
        if (v instanceof byte[] b) {
            return b.clone();
        }
        throw cannotConvert(v, "VARBINARY");
    }

    static UUID toUuid(Object v) throws SQLException {
        return switch (v) {
            case UUID u -> u;
            case String s -> {
                try {
                    yield Values.parseUuid(s);
                } catch (TellException e) {
                    throw cannotConvert(v, "UUID");
                }
            }
            default -> throw cannotConvert(v, "UUID");
        };
    }

    static boolean toBoolean(Object v) throws SQLException {
        switch (v) {
            case Boolean b -> {
                return b;
            }
            case BigDecimal d -> {
                return d.signum() != 0;
            }
            case Number n -> {
                return n.doubleValue() != 0;
            }
            case String s -> {
                switch (s.trim().toLowerCase(Locale.ROOT)) {
                    case "true", "t", "yes", "y", "on", "1" -> {
                        return true;
                    }
                    case "false", "f", "no", "n", "off", "0" -> {
                        return false;
                    }
                    default -> throw cannotConvert(v, "BOOLEAN");
                }
            }
            default -> throw cannotConvert(v, "BOOLEAN");
        }
    }

    /** {@code v} as an integer within [min, max]; {@code type} names the target in errors. */
    static long toIntegral(Object v, long min, long max, String type) throws SQLException {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            long x = ((Number) v).longValue();
            if (x < min || x > max) {
                throw outOfRange(v, type);
            }
            return x;
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        BigDecimal d = v instanceof String s ? parseNumber(s, type) : toBigDecimal(v, type);
        BigDecimal whole = d.setScale(0, RoundingMode.DOWN);
        if (whole.compareTo(BigDecimal.valueOf(min)) < 0 || whole.compareTo(BigDecimal.valueOf(max)) > 0) {
            throw outOfRange(v, type);
        }
        return whole.longValue();
    }

    static BigDecimal toBigDecimal(Object v) throws SQLException {
        return toBigDecimal(v, "DECIMAL");
    }

    private static BigDecimal toBigDecimal(Object v, String type) throws SQLException {
        return switch (v) {
            case BigDecimal d -> d;
            case Long x -> BigDecimal.valueOf(x);
            case Integer x -> BigDecimal.valueOf(x);
            case Short x -> BigDecimal.valueOf(x);
            case Byte x -> BigDecimal.valueOf(x);
            case BigInteger x -> new BigDecimal(x);
            case Double x when x.isNaN() || x.isInfinite() -> throw outOfRange(v, type);
            case Float x when x.isNaN() || x.isInfinite() -> throw outOfRange(v, type);
            case Number n -> new BigDecimal(n.toString());
            case Boolean b -> b ? BigDecimal.ONE : BigDecimal.ZERO;
            case String s -> parseNumber(s, type);
            default -> throw cannotConvert(v, type);
        };
    }

    static double toDouble(Object v) throws SQLException {
        return switch (v) {
            case Number n -> n.doubleValue();
            case Boolean b -> b ? 1 : 0;
            case String s -> {
                try {
                    yield Double.parseDouble(s.trim());
                } catch (NumberFormatException e) {
                    throw cannotConvert(v, "DOUBLE");
                }
            }
            default -> throw cannotConvert(v, "DOUBLE");
        };
    }

    static float toFloat(Object v) throws SQLException {
        double d = toDouble(v);
        float f = (float) d;
        if (Float.isInfinite(f) && !Double.isInfinite(d)) {
            throw outOfRange(v, "REAL");
        }
        return f;
    }

    static LocalDate toLocalDate(Object v) throws SQLException {
        return switch (v) {
            case LocalDate d -> d;
            case LocalDateTime t -> t.toLocalDate();
            case Date d -> d.toLocalDate();
            case Timestamp t -> t.toLocalDateTime().toLocalDate();
            case String s -> parseTimestamp(s, "DATE").toLocalDate();
            default -> throw cannotConvert(v, "DATE");
        };
    }

    static LocalDateTime toLocalDateTime(Object v) throws SQLException {
        return switch (v) {
            case LocalDateTime t -> t;
            case OffsetDateTime t -> t.withOffsetSameInstant(java.time.ZoneOffset.UTC).toLocalDateTime();
            case LocalDate d -> d.atStartOfDay();
            case LocalTime t -> LocalDate.EPOCH.atTime(t);
            case Timestamp t -> t.toLocalDateTime();
            case Date d -> d.toLocalDate().atStartOfDay();
            case Time t -> LocalDate.EPOCH.atTime(DateTimes.localTime(t, null));
            case java.util.Date d -> DateTimes.localDateTime(d);
            case String s -> parseTimestamp(s, "TIMESTAMP");
            default -> throw cannotConvert(v, "TIMESTAMP");
        };
    }

    static LocalTime toLocalTime(Object v) throws SQLException {
        return switch (v) {
            case LocalTime t -> t;
            case LocalDateTime t -> t.toLocalTime();
            case Time t -> DateTimes.localTime(t, null);
            case Timestamp t -> t.toLocalDateTime().toLocalTime();
            case String s -> {
                try {
                    yield LocalTime.parse(s.trim());
                } catch (DateTimeParseException e) {
                    yield parseTimestamp(s, "TIME").toLocalTime();
                }
            }
            default -> throw cannotConvert(v, "TIME");
        };
    }

    /** What {@code getObject(int)} returns for an engine value: JDBC's classes for SMALLINT and dates. */
    static Object toJdbcObject(Object v) {
        return switch (v) {
            case Short s -> (int) s;
            case Byte b -> (int) b;
            case LocalDate d -> Date.valueOf(d);
            case LocalDateTime t -> Timestamp.valueOf(t);
            case LocalTime t -> DateTimes.time(t, null);
            case byte[] b -> b.clone();
            case OffsetDateTime t -> Timestamp.from(t.toInstant());
            default -> v;
        };
    }

    /** {@code v} as {@code type}, for {@code getObject(int, Class)}. */
    static <T> T to(Object v, Class<T> type) throws SQLException {
        return type.cast(convert(v, type));
    }

    private static Object convert(Object v, Class<?> type) throws SQLException {
        if (type == Object.class) {
            return toJdbcObject(v);
        }
        if (type == String.class) {
            return toText(v);
        }
        if (type == Integer.class) {
            return (int) toIntegral(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER");
        }
        if (type == Long.class) {
            return toIntegral(v, Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT");
        }
        if (type == Short.class) {
            return (short) toIntegral(v, Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT");
        }
        if (type == Byte.class) {
            return (byte) toIntegral(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT");
        }
        if (type == BigDecimal.class) {
            return toBigDecimal(v);
        }
        if (type == BigInteger.class) {
            return toBigDecimal(v).toBigInteger();
        }
        if (type == Double.class) {
            return toDouble(v);
        }
        if (type == Float.class) {
            return toFloat(v);
        }
        if (type == Boolean.class) {
            return toBoolean(v);
        }
        if (type == LocalDate.class) {
            return toLocalDate(v);
        }
        if (type == LocalDateTime.class) {
            return toLocalDateTime(v);
        }
        if (type == LocalTime.class) {
            return toLocalTime(v);
        }
        if (type == Date.class) {
            return Date.valueOf(toLocalDate(v));
        }
        if (type == Timestamp.class || type == java.util.Date.class) {
            return Timestamp.valueOf(toLocalDateTime(v));
        }
        if (type == Time.class) {
            return DateTimes.time(toLocalTime(v), null);
        }
        if (type == byte[].class) {
            return toBytes(v);
        }
        if (type == OffsetDateTime.class || type == java.time.Instant.class) {
            OffsetDateTime t;
            try {
                t = Values.instant(v instanceof Timestamp ts ? ts.toInstant() : v);
            } catch (TellException e) {
                throw cannotConvert(v, "TIMESTAMP WITH TIME ZONE");
            }
            return type == OffsetDateTime.class ? t : t.toInstant();
        }
        if (type == UUID.class) {
            return toUuid(v);
        }
        if (type.isInstance(v)) {
            return v;
        }
        throw cannotConvert(v, type.getName());
    }

    private static BigDecimal parseNumber(String s, String type) throws SQLException {
        try {
            return new BigDecimal(s.trim());
        } catch (NumberFormatException e) {
            throw cannotConvert(s, type);
        }
    }

    private static LocalDateTime parseTimestamp(String s, String type) throws SQLException {
        String t = s.trim();
        try {
            return t.length() <= 10 ? LocalDate.parse(t).atStartOfDay() : LocalDateTime.parse(t.replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            throw cannotConvert(s, type);
        }
    }

    static SQLException cannotConvert(Object v, String type) {
        return SqlExceptions.of(SqlExceptions.CANNOT_CONVERT,
                "cannot convert " + describe(v) + " to " + type);
    }

    private static SQLException outOfRange(Object v, String type) {
        return SqlExceptions.of(SqlExceptions.OUT_OF_RANGE, "value " + describe(v) + " is out of range for " + type);
    }

    private static String describe(Object v) {
        String text = v instanceof String s ? "'" + s + "'" : String.valueOf(v);
        if (text.length() > 60) {
            text = text.substring(0, 57) + "...";
        }
        return text + " (" + v.getClass().getSimpleName() + ")";
    }
}
