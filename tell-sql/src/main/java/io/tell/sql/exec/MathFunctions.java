package io.tell.sql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * ABS, SIGN, FLOOR, CEIL, ROUND, TRUNCATE on any number, computed in the operand's own domain
 * and converted to the result type; POWER, SQRT, EXP, LN and LOG10 in {@code double}, where an
 * argument outside the function's domain is DATA_EXCEPTION and overflow VALUE_OUT_OF_RANGE.
 */
final class MathFunctions {
    private MathFunctions() {
    }

    static Expr abs(RexCall call, Expr operand) {
        return byDomain(call, operand,
                v -> {
                    if (v == Long.MIN_VALUE) {
                        throw ExecErrors.overflow("BIGINT");
                    }
                    return Math.abs(v);
                }, BigDecimal::abs, Math::abs);
    }

    static Expr sign(RexCall call, Expr operand) {
        return byDomain(call, operand, Long::signum, d -> BigDecimal.valueOf(d.signum()), Math::signum);
    }

    /** FLOOR or CEIL of a number. */
    static Expr floor(RexCall call, Expr operand, boolean ceil) {
        RoundingMode mode = ceil ? RoundingMode.CEILING : RoundingMode.FLOOR;
        return byDomain(call, operand, v -> v, d -> d.setScale(0, mode), ceil ? Math::ceil : Math::floor);
    }

    /** ROUND (half away from zero) or TRUNCATE, to {@code digits} after the point (negative: before it). */
    static Expr round(RexCall call, List<Expr> operands, boolean truncate) {
        RoundingMode mode = truncate ? RoundingMode.DOWN : RoundingMode.HALF_UP;
        RelDataType type = call.getOperands().get(0).getType();
        SqlTypeName t = type.getSqlTypeName();
        Expr digits = operands.size() > 1 ? operands.get(1) : Strict.constant(0);
        IntegerType integer = IntegerType.of(t);
        Expr rounded;
        if (integer != null) {
            rounded = Strict.binary(operands.get(0), digits, (v, n) -> {
                int places = ((Number) n).intValue();
                long x = ((Number) v).longValue();
                if (places >= 0) {
                    return v;
                }
                try {
                    return integer.box(BigDecimal.valueOf(x).setScale(places, mode).longValueExact());
                } catch (ArithmeticException e) {
                    throw ExecErrors.overflow(integer.name());
                }
            });
        } else if (t == SqlTypeName.DECIMAL) {
            RelDataType result = call.getType();
            int scale = result.getSqlTypeName() == SqlTypeName.DECIMAL ? result.getScale() : 0;
            rounded = Strict.binary(operands.get(0), digits,
                    (v, n) -> ((BigDecimal) v).setScale(Math.min(((Number) n).intValue(), scale), mode));
            return fitDecimal(rounded, type, result);
        } else if (Numbers.isApprox(t)) {
            rounded = Strict.binary(operands.get(0), digits, (v, n) -> {
                double x = ((Number) v).doubleValue();
                if (Double.isNaN(x) || Double.isInfinite(x)) {
                    return v;
                }
                return Numbers.approx(BigDecimal.valueOf(x).setScale(((Number) n).intValue(), mode).doubleValue(), t);
            });
        } else {
            throw ExecErrors.unsupported(call.getOperator().getName() + " of " + type.getFullTypeString());
        }
        return Casts.compile(rounded, type, call.getType());
    }

    /** A decimal of any scale as the result type; a DECIMAL result is always fitted to its scale. */
    private static Expr fitDecimal(Expr value, RelDataType from, RelDataType result) {
        if (result.getSqlTypeName() == SqlTypeName.DECIMAL) {
            return Strict.unary(value, v -> Numbers.fit((BigDecimal) v, result));
        }
        return Strict.unary(value, Casts.converter(from, result));
    }

    static Expr power(RexCall call, Expr base, Expr exponent) {
        return doubles(call, base, exponent, (x, y) -> {
            if (x == 0 && y < 0) {
                throw ExecErrors.data("zero raised to a negative power is undefined");
            }
            if (x < 0 && y != Math.rint(y)) {
                throw ExecErrors.data("a negative number raised to a non-integer power yields a complex result");
            }
            return Math.pow(x, y);
        });
    }

    static Expr sqrt(RexCall call, Expr operand) {
        return doubles(call, operand, x -> {
            if (x < 0) {
                throw ExecErrors.data("cannot take square root of a negative number");
            }
            return Math.sqrt(x);
        });
    }

    static Expr exp(RexCall call, Expr operand) {
        return doubles(call, operand, Math::exp);
    }

    /** LN or LOG10. */
    static Expr log(RexCall call, Expr operand, boolean base10) {
        return doubles(call, operand, x -> {
            if (x <= 0) {
                throw ExecErrors.data(x == 0 ? "cannot take logarithm of zero" : "cannot take logarithm of a negative number");
            }
            return base10 ? Math.log10(x) : Math.log(x);
        });
    }

    private interface LongOp {
        long apply(long v);
    }

    private interface DecimalOp {
        BigDecimal apply(BigDecimal v);
    }

    /** A one-operand function computed as the operand's type computes, then converted to the result type. */
    private static Expr byDomain(RexCall call, Expr operand, LongOp integral, DecimalOp decimal, DoubleUnaryOperator approx) {
        RelDataType type = call.getOperands().get(0).getType();
        SqlTypeName t = type.getSqlTypeName();
        IntegerType integer = IntegerType.of(t);
        Expr value;
        if (integer != null) {
            value = Strict.unary(operand, v -> integer.box(integral.apply(((Number) v).longValue())));
        } else if (t == SqlTypeName.DECIMAL) {
            return fitDecimal(Strict.unary(operand, v -> decimal.apply((BigDecimal) v)), type, call.getType());
        } else if (Numbers.isApprox(t)) {
            value = Strict.unary(operand, v -> Numbers.approx(approx.applyAsDouble(((Number) v).doubleValue()), t));
        } else {
            throw ExecErrors.unsupported(call.getOperator().getName() + " of " + type.getFullTypeString());
        }
        return Casts.compile(value, type, call.getType());
    }

    private static Expr doubles(RexCall call, Expr operand, DoubleUnaryOperator f) {
        SqlTypeName t = approxResult(call);
        return Strict.unary(operand, v -> {
            double x = ((Number) v).doubleValue();
            return Numbers.approx(checked(f.applyAsDouble(x), Double.isFinite(x), t), t);
        });
    }

    private static Expr doubles(RexCall call, Expr left, Expr right, DoubleBinaryOperator f) {
        SqlTypeName t = approxResult(call);
        return Strict.binary(left, right, (a, b) -> {
            double x = ((Number) a).doubleValue();
            double y = ((Number) b).doubleValue();
            return Numbers.approx(checked(f.applyAsDouble(x, y), Double.isFinite(x) && Double.isFinite(y), t), t);
        });
    }

    private static double checked(double result, boolean finiteArguments, SqlTypeName t) {
        if (Double.isInfinite(result) && finiteArguments) {
            throw ExecErrors.overflow(t.name());
        }
        return result;
    }

    private static SqlTypeName approxResult(RexCall call) {
        SqlTypeName t = call.getType().getSqlTypeName();
        if (!Numbers.isApprox(t)) {
            throw ExecErrors.unsupported(call.getOperator().getName() + " returning " + call.getType().getFullTypeString());
        }
        return t;
    }
}
