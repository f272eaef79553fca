package io.tell.sql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Numeric helpers chosen at compile time from an operand's SQL type, so that evaluation does not
 * test value classes: the conversion of an operand to the domain an operation computes in
 * ({@code long}, {@link BigDecimal} or {@code double}), and the fitting of a decimal result to
 * its type.
 */
final class Numbers {
    private Numbers() {
    }

    static boolean isApprox(SqlTypeName name) {
        return name == SqlTypeName.REAL || name == SqlTypeName.FLOAT || name == SqlTypeName.DOUBLE;
    }

    static boolean isNumeric(SqlTypeName name) {
        return IntegerType.is(name) || name == SqlTypeName.DECIMAL || isApprox(name);
    }

    /** Converts a non-null value of numeric type {@code from} to BigDecimal. */
    static Function<Object, BigDecimal> toDecimal(SqlTypeName from) {
        if (from == SqlTypeName.NULL) {
            return v -> null; // never called: a value of type NULL is null
        }
        if (IntegerType.is(from)) {
            return v -> BigDecimal.valueOf(((Number) v).longValue());
        }
        if (from == SqlTypeName.DECIMAL) {
            return v -> (BigDecimal) v;
        }
        if (isApprox(from)) {
            return v -> decimalOf(((Number) v).doubleValue());
        }
        throw ExecErrors.unsupported("numeric operation on " + from);
    }

    /** The shortest decimal that reads back as {@code d}; NaN and infinities are out of range. */
    private static BigDecimal decimalOf(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw ExecErrors.outOfRange(d, "DECIMAL");
        }
        return BigDecimal.valueOf(d);
    }

    /**
     * {@code value} rounded half-up to the scale of DECIMAL {@code type}; VALUE_OUT_OF_RANGE when
     * it then has more integer digits than the type allows.
     */
    static BigDecimal fit(BigDecimal value, RelDataType type) {
        int scale = type.getScale();
        BigDecimal d = value.scale() == scale ? value : value.setScale(scale, RoundingMode.HALF_UP);
        if (d.precision() - d.scale() > type.getPrecision() - scale && d.signum() != 0) {
            throw ExecErrors.outOfRange(value, "DECIMAL(" + type.getPrecision() + ", " + scale + ")");
        }
        return d;
    }

    /** {@code d} as the Java class of approximate type {@code to}; overflow to infinity is an error. */
    static Object approx(double d, SqlTypeName to) {
        if (to == SqlTypeName.REAL) {
            float f = (float) d;
            if (Float.isInfinite(f) && !Double.isInfinite(d)) {
                throw ExecErrors.overflow("REAL");
            }
            return f;
        }
        return d;
    }
}
