package io.tell.sql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Casts to numeric and boolean types, chosen by source type at compile time. Fractions round
 * half away from zero when the target has fewer digits (PostgreSQL's numeric rounding); a value
 * out of the target's range is VALUE_OUT_OF_RANGE, text that is not a number DATA_EXCEPTION.
 */
final class NumberCasts {
    private NumberCasts() {
    }

    static UnaryOperator<Object> toInteger(RelDataType from, IntegerType to) {
        SqlTypeName f = from.getSqlTypeName();
        if (IntegerType.is(f)) {
            return v -> to.box(((Number) v).longValue());
        }
        if (f == SqlTypeName.DECIMAL) {
            return v -> to.box(integral((BigDecimal) v, to));
        }
        if (Numbers.isApprox(f)) {
            return v -> {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    throw ExecErrors.outOfRange(v, to);
                }
                return to.box(integral(new BigDecimal(d), to));
            };
        }
        return switch (f) {
            case CHAR, VARCHAR -> v -> to.box(TextFormat.parseLong((String) v, to.name()));
            case BOOLEAN -> v -> to.box((Boolean) v ? 1 : 0);
            default -> throw unsupported(from, to.name());
        };
    }

    private static long integral(BigDecimal d, IntegerType to) {
        try {
            return d.setScale(0, RoundingMode.HALF_UP).longValueExact();
        } catch (ArithmeticException e) {
            throw ExecErrors.outOfRange(d, to);
        }
    }

    static UnaryOperator<Object> toDecimal(RelDataType from, RelDataType to) {
        SqlTypeName f = from.getSqlTypeName();
        if (Numbers.isNumeric(f)) {
            var decimal = Numbers.toDecimal(f);
            return v -> Numbers.fit(decimal.apply(v), to);
        }
        return switch (f) {
            case CHAR, VARCHAR -> v -> Numbers.fit(TextFormat.parseDecimal((String) v, "DECIMAL"), to);
            default -> throw unsupported(from, to.getFullTypeString());
        };
    }

    static UnaryOperator<Object> toApprox(RelDataType from, SqlTypeName to) {
        SqlTypeName f = from.getSqlTypeName();
        if (Numbers.isNumeric(f)) {
            return v -> Numbers.approx(((Number) v).doubleValue(), to);
        }
        return switch (f) {
            case CHAR, VARCHAR -> v -> Numbers.approx(TextFormat.parseDouble((String) v, to.name()), to);
            default -> throw unsupported(from, to.name());
        };
    }

    static UnaryOperator<Object> toBoolean(RelDataType from) {
        SqlTypeName f = from.getSqlTypeName();
        if (IntegerType.is(f)) {
            return v -> ((Number) v).longValue() != 0;
        }
        return switch (f) {
            case BOOLEAN -> v -> v;
            case CHAR, VARCHAR -> v -> TextFormat.parseBoolean((String) v);
            default -> throw unsupported(from, "BOOLEAN");
        };
    }

    static RuntimeException unsupported(RelDataType from, String to) {
        return ExecErrors.unsupported("CAST from " + from.getFullTypeString() + " to " + to);
    }
}
