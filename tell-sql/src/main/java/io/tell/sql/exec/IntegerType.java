package io.tell.sql.exec;

import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The exact integer SQL types with their ranges: arithmetic on them runs in {@code long} and
 * {@link #box} narrows the result to the type's Java class, failing with VALUE_OUT_OF_RANGE
 * when it does not fit.
 */
enum IntegerType {
    TINYINT(Byte.MIN_VALUE, Byte.MAX_VALUE),
    SMALLINT(Short.MIN_VALUE, Short.MAX_VALUE),
    INTEGER(Integer.MIN_VALUE, Integer.MAX_VALUE),
    BIGINT(Long.MIN_VALUE, Long.MAX_VALUE);

    final long min;
    final long max;

    IntegerType(long min, long max) {
        this.min = min;
        this.max = max;
    }

    /** The integer type named {@code name}, or null when it is not one. */
    static IntegerType of(SqlTypeName name) {
        return switch (name) {
            case TINYINT -> TINYINT;
            case SMALLINT -> SMALLINT;
            case INTEGER -> INTEGER;
            case BIGINT -> BIGINT;
            default -> null;
        };
    }

    static boolean is(SqlTypeName name) {
        return of(name) != null;
    }

    boolean fits(long value) {
        return value >= min && value <= max;
    }

    /** {@code value} as this type's Java class. */
    Object box(long value) {
        if (value < min || value > max) {
            throw ExecErrors.overflow(name());
        }
        return switch (this) {
            case TINYINT -> (byte) value;
            case SMALLINT -> (short) value;
            case INTEGER -> (int) value;
            case BIGINT -> value;
        };
    }
}
