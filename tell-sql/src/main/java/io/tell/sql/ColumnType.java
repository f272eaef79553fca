package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.exec.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.UUID;
import java.util.function.Function;

/**
 * A column's SQL type with its parameters: {@code precision} and {@code scale} for DECIMAL,
 * {@code length} for VARCHAR, CHAR (code points) and VARBINARY (bytes); the others are 0.
 * Validated on construction.
 */
public record ColumnType(SqlType type, int precision, int scale, int length) {
    /** Largest DECIMAL precision; keeps encoded values and index keys small. */
    public static final int MAX_DECIMAL_PRECISION = 1000;
    /** Longest VARCHAR or CHAR, in code points, and longest VARBINARY, in bytes. */
    public static final int MAX_LENGTH = 1 << 20;

    public static final ColumnType SMALLINT = new ColumnType(SqlType.SMALLINT, 0, 0, 0);
    public static final ColumnType INTEGER = new ColumnType(SqlType.INTEGER, 0, 0, 0);
    public static final ColumnType BIGINT = new ColumnType(SqlType.BIGINT, 0, 0, 0);
    public static final ColumnType REAL = new ColumnType(SqlType.REAL, 0, 0, 0);
    public static final ColumnType DOUBLE = new ColumnType(SqlType.DOUBLE, 0, 0, 0);
    public static final ColumnType BOOLEAN = new ColumnType(SqlType.BOOLEAN, 0, 0, 0);
    public static final ColumnType DATE = new ColumnType(SqlType.DATE, 0, 0, 0);
    public static final ColumnType TIMESTAMP = new ColumnType(SqlType.TIMESTAMP, 0, 0, 0);
    public static final ColumnType TIME = new ColumnType(SqlType.TIME, 0, 0, 0);
    public static final ColumnType UUID = new ColumnType(SqlType.UUID, 0, 0, 0);
    public static final ColumnType TIMESTAMPTZ = new ColumnType(SqlType.TIMESTAMPTZ, 0, 0, 0);

    public ColumnType {
        if (type == null) {
            throw invalid("column type is null");
        }
        switch (type) {
            case DECIMAL -> {
                if (precision < 1 || precision > MAX_DECIMAL_PRECISION) {
                    throw invalid("DECIMAL precision must be in [1, " + MAX_DECIMAL_PRECISION + "]: " + precision);
                }
                if (scale < 0 || scale > precision) {
                    throw invalid("DECIMAL scale must be in [0, precision " + precision + "]: " + scale);
                }
                if (length != 0) {
                    throw invalid("DECIMAL has no length");
                }
            }
            case VARCHAR, CHAR, VARBINARY -> {
                if (length < 1 || length > MAX_LENGTH) {
                    throw invalid(type + " length must be in [1, " + MAX_LENGTH + "]: " + length);
                }
                if (precision != 0 || scale != 0) {
                    throw invalid(type + " has no precision or scale");
                }
            }
            default -> {
                if (precision != 0 || scale != 0 || length != 0) {
                    throw invalid(type + " takes no parameters");
                }
            }
        }
    }

    public static ColumnType decimal(int precision, int scale) {
        return new ColumnType(SqlType.DECIMAL, precision, scale, 0);
    }

    public static ColumnType varchar(int length) {
        return new ColumnType(SqlType.VARCHAR, 0, 0, length);
    }

    public static ColumnType character(int length) {
        return new ColumnType(SqlType.CHAR, 0, 0, length);
    }

    public static ColumnType varbinary(int length) {
        return new ColumnType(SqlType.VARBINARY, 0, 0, length);
    }

    /**
     * {@code value} as this type's Java class ({@link SqlType#javaClass()}), or null for null.
     * Numbers convert between classes when the value fits exactly (a DECIMAL is rounded half-up
     * to its scale, as SQL assignment allows); a string longer than the column is refused unless
     * the excess is spaces, which are cut (SQL standard); CHAR pads with spaces; a byte string
     * longer than a VARBINARY is refused. JDBC's {@code java.sql.Date}, {@code Time} and
     * {@code Timestamp} are accepted for DATE, TIME and TIMESTAMP, and a UUID's text for a UUID.
     *
     * @throws TellException {@link ErrorCode#VALUE_OUT_OF_RANGE}, {@link ErrorCode#STRING_TOO_LONG}
     *                       or {@link ErrorCode#TYPE_MISMATCH}
     */
    public Object coerce(Object value) {
        if (value == null) {
            return null;
        }
        return switch (type) {
            case SMALLINT -> (short) integral(value, Short.MIN_VALUE, Short.MAX_VALUE);
            case INTEGER -> (int) integral(value, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT -> integral(value, Long.MIN_VALUE, Long.MAX_VALUE);
            case DECIMAL -> decimal(value);
            case REAL -> real(value);
            case DOUBLE -> number(value).doubleValue();
            case VARCHAR -> string(value, false);
            case CHAR -> string(value, true);
            case BOOLEAN -> {
                if (value instanceof Boolean b) {
                    yield b;
                }
                throw mismatch(value);
            }
            case DATE -> temporal(value, LocalDate.class, java.sql.Date.class, java.sql.Date::toLocalDate);
            case TIMESTAMP -> temporal(value, LocalDateTime.class, java.sql.Timestamp.class, java.sql.Timestamp::toLocalDateTime);
            case TIME -> temporal(value, LocalTime.class, java.sql.Time.class, java.sql.Time::toLocalTime);
            case VARBINARY -> bytes(value);
            case UUID -> uuid(value);
            case TIMESTAMPTZ -> Values.instant(value);
        };
    }

    /**
     * Whether values stored as this type read unchanged as {@code to}: a wider integer, a longer
     * VARCHAR or VARBINARY, a DECIMAL with more integer digits and the same scale (rows and
     * values hold these alike, docs/sql-rows.md), or the same type. Index keys do not: integers
     * have a fixed width there.
     */
    public boolean storedAs(ColumnType to) {
        if (equals(to)) {
            return true;
        }
        return switch (type) {
            case SMALLINT -> to.type == SqlType.INTEGER || to.type == SqlType.BIGINT;
            case INTEGER -> to.type == SqlType.BIGINT;
            case VARCHAR, VARBINARY -> to.type == type && to.length >= length;
            case DECIMAL -> to.type == SqlType.DECIMAL && to.scale == scale && to.precision >= precision;
            default -> false;
        };
    }

    @Override
    public String toString() {
        return switch (type) {
            case DECIMAL -> "DECIMAL(" + precision + ", " + scale + ")";
            case VARCHAR, CHAR, VARBINARY -> type + "(" + length + ")";
            default -> type.name();
        };
    }

    private long integral(Object value, long min, long max) {
        BigDecimal d = exactNumber(value);
        long x;
        try {
            x = d.longValueExact();
        } catch (ArithmeticException e) {
            throw outOfRange(value);
        }
        if (x < min || x > max) {
            throw outOfRange(value);
        }
        return x;
    }

    private BigDecimal decimal(Object value) {
        BigDecimal d = exactNumber(value).setScale(scale, RoundingMode.HALF_UP);
        if (d.precision() - d.scale() > precision - scale) {
            throw outOfRange(value);
        }
        return d;
    }

    /** The code points of {@code s}; refuses an unpaired surrogate, which UTF-8 cannot hold. One pass, no stream. */
    private static int codePoints(String s) {
        int n = s.length();
        int pairs = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c) || i + 1 == n || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    throw TellException.of(ErrorCode.TYPE_MISMATCH, "string has an unpaired surrogate, which UTF-8 cannot hold");
                }
                i++;
                pairs++;
            }
        }
        return n - pairs;
    }

    private Float real(Object value) {
        Number n = number(value);
        float f = n.floatValue();
        if (Float.isInfinite(f) && !Double.isInfinite(n.doubleValue())) {
            throw outOfRange(value);
        }
        return f;
    }

    private String string(Object value, boolean pad) {
        if (!(value instanceof String s)) {
            throw mismatch(value);
        }
        int codePoints = codePoints(s);
        if (codePoints > length) {
            int cut = s.offsetByCodePoints(0, length);
            if (s.substring(cut).chars().anyMatch(c -> c != ' ')) {
                throw TellException.of(ErrorCode.STRING_TOO_LONG,
                        "string of " + codePoints + " characters is too long for " + this);
            }
            return s.substring(0, cut);
        }
        return pad && codePoints < length ? s + " ".repeat(length - codePoints) : s;
    }

    /** {@code value} if it is a {@code type}, converted if it is JDBC's {@code jdbc} counterpart. */
    private <T, J> T temporal(Object value, Class<T> type, Class<J> jdbc, Function<J, T> convert) {
        if (type.isInstance(value)) {
            return type.cast(value);
        }
        if (jdbc.isInstance(value)) {
            return convert.apply(jdbc.cast(value));
        }
        throw mismatch(value);
    }

    private byte[] bytes(Object value) {
        if (!(value instanceof byte[] b)) {
            throw mismatch(value);
        }
        if (b.length > length) {
            throw TellException.of(ErrorCode.STRING_TOO_LONG, "binary string of " + b.length + " bytes is too long for " + this);
        }
        return b;
    }

    private UUID uuid(Object value) {
        if (value instanceof UUID u) {
            return u;
        }
        if (value instanceof String s) {
            return Values.parseUuid(s);
        }
        throw mismatch(value);
    }

    private Number number(Object value) {
        if (value instanceof Number n) {
            return n;
        }
        throw mismatch(value);
    }

    private BigDecimal exactNumber(Object value) {
        return switch (number(value)) {
            case BigDecimal d -> d;
            case BigInteger i -> new BigDecimal(i);
            case Long l -> BigDecimal.valueOf(l);
            case Integer i -> BigDecimal.valueOf(i);
            case Short s -> BigDecimal.valueOf(s);
            case Byte b -> BigDecimal.valueOf(b);
            case Number n -> {
                double x = n.doubleValue();
                if (Double.isNaN(x) || Double.isInfinite(x)) {
                    throw outOfRange(value);
                }
                yield new BigDecimal(n.toString());
            }
        };
    }

    private TellException outOfRange(Object value) {
        return TellException.of(ErrorCode.VALUE_OUT_OF_RANGE, "value " + value + " is out of range for " + this);
    }

    private TellException mismatch(Object value) {
        return TellException.of(ErrorCode.TYPE_MISMATCH, "a " + value.getClass().getSimpleName()
                + " cannot be a " + this + " value: " + value);
    }

    private static TellException invalid(String message) {
        return TellException.of(ErrorCode.INVALID_DEFINITION, message);
    }
}
