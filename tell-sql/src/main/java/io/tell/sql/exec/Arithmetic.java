package io.tell.sql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.Function;
import java.util.function.LongBinaryOperator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code + - * /}, MOD and unary minus on numbers, computed in the domain of the call's result
 * type: integer types in {@code long} with overflow checks (VALUE_OUT_OF_RANGE) and integer
 * division, DECIMAL in BigDecimal rounded half-up to the result's scale (division to that
 * scale), approximate types in {@code double}. Division or MOD by zero is DIVISION_BY_ZERO.
 */
final class Arithmetic {
    private Arithmetic() {
    }

    static Expr binary(RexCall call, Expr left, Expr right) {
        RelDataType type = call.getType();
        SqlTypeName t = type.getSqlTypeName();
        SqlKind kind = call.getKind();
        RexNode l = call.getOperands().get(0);
        RexNode r = call.getOperands().get(1);
        IntegerType integer = IntegerType.of(t);
        if (integer != null) {
            LongBinaryOperator op = longOp(kind, call);
            Expr a = asInteger(left, l.getType());
            Expr b = asInteger(right, r.getType());
            return Strict.binary(a, b, (x, y) -> {
                try {
                    return integer.box(op.applyAsLong(((Number) x).longValue(), ((Number) y).longValue()));
                } catch (ArithmeticException e) { // from the exact long operations
                    throw ExecErrors.overflow(integer.name());
                }
            });
        }
        if (t == SqlTypeName.DECIMAL) {
            BinaryOperator<BigDecimal> op = decimalOp(kind, type.getScale(), call);
            Function<Object, BigDecimal> x = Numbers.toDecimal(l.getType().getSqlTypeName());
            Function<Object, BigDecimal> y = Numbers.toDecimal(r.getType().getSqlTypeName());
            return Strict.binary(left, right, (a, b) -> Numbers.fit(op.apply(x.apply(a), y.apply(b)), type));
        }
        if (Numbers.isApprox(t)) {
            DoubleBinaryOperator op = doubleOp(kind, call);
            return Strict.binary(left, right, (a, b) -> {
                double x = ((Number) a).doubleValue();
                double y = ((Number) b).doubleValue();
                double z = op.applyAsDouble(x, y);
                if (Double.isInfinite(z) && Double.isFinite(x) && Double.isFinite(y)) {
                    throw ExecErrors.overflow(t.name());
                }
                return Numbers.approx(z, t);
            });
        }
        throw ExecErrors.unsupported(call.getOperator().getName() + " on " + l.getType().getFullTypeString()
                + " and " + r.getType().getFullTypeString());
    }

    /** Unary minus. */
    static Expr negate(RexCall call, Expr operand) {
        SqlTypeName t = call.getType().getSqlTypeName();
        IntegerType integer = IntegerType.of(t);
        if (integer != null) {
            return Strict.unary(asInteger(operand, call.getOperands().get(0).getType()),
                    v -> {
                        long x = ((Number) v).longValue();
                        if (x == Long.MIN_VALUE) {
                            throw ExecErrors.overflow(integer.name());
                        }
                        return integer.box(-x);
                    });
        }
        Expr value = Casts.compile(operand, call.getOperands().get(0).getType(), call.getType());
        return switch (t) {
            case DECIMAL -> Strict.unary(value, v -> ((BigDecimal) v).negate());
            case REAL -> Strict.unary(value, v -> -(Float) v);
            case FLOAT, DOUBLE -> Strict.unary(value, v -> -(Double) v);
            default -> throw ExecErrors.unsupported("unary minus on " + call.getType().getFullTypeString());
        };
    }

    /** An integer-typed operand as is; any other numeric operand converted to BIGINT first. */
    private static Expr asInteger(Expr operand, RelDataType type) {
        if (IntegerType.is(type.getSqlTypeName()) || type.getSqlTypeName() == SqlTypeName.NULL) {
            return operand;
        }
        return Strict.unary(operand, NumberCasts.toInteger(type, IntegerType.BIGINT));
    }

    private static LongBinaryOperator longOp(SqlKind kind, RexCall call) {
        return switch (kind) {
            case PLUS, CHECKED_PLUS -> Math::addExact;
            case MINUS, CHECKED_MINUS -> Math::subtractExact;
            case TIMES, CHECKED_TIMES -> Math::multiplyExact;
            case DIVIDE, CHECKED_DIVIDE -> (x, y) -> {
                if (y == 0) {
                    throw ExecErrors.divisionByZero();
                }
                return Math.divideExact(x, y);
            };
            case MOD -> (x, y) -> {
                if (y == 0) {
                    throw ExecErrors.divisionByZero();
                }
                return x % y;
            };
            default -> throw ExecErrors.unsupported("operator " + call.getOperator().getName());
        };
    }

    private static BinaryOperator<BigDecimal> decimalOp(SqlKind kind, int scale, RexCall call) {
        return switch (kind) {
            case PLUS, CHECKED_PLUS -> BigDecimal::add;
            case MINUS, CHECKED_MINUS -> BigDecimal::subtract;
            case TIMES, CHECKED_TIMES -> BigDecimal::multiply;
            case DIVIDE, CHECKED_DIVIDE -> (x, y) -> {
                if (y.signum() == 0) {
                    throw ExecErrors.divisionByZero();
                }
                return x.divide(y, scale, RoundingMode.HALF_UP);
            };
            case MOD -> (x, y) -> {
                if (y.signum() == 0) {
                    throw ExecErrors.divisionByZero();
                }
                return x.remainder(y);
            };
            default -> throw ExecErrors.unsupported("operator " + call.getOperator().getName());
        };
    }

    private static DoubleBinaryOperator doubleOp(SqlKind kind, RexCall call) {
        return switch (kind) {
            case PLUS, CHECKED_PLUS -> Double::sum;
            case MINUS, CHECKED_MINUS -> (x, y) -> x - y;
            case TIMES, CHECKED_TIMES -> (x, y) -> x * y;
            case DIVIDE, CHECKED_DIVIDE -> (x, y) -> {
                if (y == 0) {
                    throw ExecErrors.divisionByZero();
                }
                return x / y;
            };
            case MOD -> (x, y) -> {
                if (y == 0) {
                    throw ExecErrors.divisionByZero();
                }
                return x % y;
            };
            default -> throw ExecErrors.unsupported("operator " + call.getOperator().getName());
        };
    }
}
