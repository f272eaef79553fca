package io.tell.sql.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * SUM, $SUM0 and AVG of the non-null values of one column, computed in the domain of the call's
 * result type: integers in {@code long} (moving to BigDecimal should the running sum overflow,
 * so that only a final result out of the type's range fails), DECIMAL in BigDecimal fitted to the
 * result's scale, approximate numbers in {@code double}. An integer AVG truncates toward zero
 * (Calcite types AVG of an integer column as that integer type); a DECIMAL AVG rounds half-up.
 */
abstract class SumAccumulator implements Accumulator {
    /** Which aggregate the running sum serves. */
    enum Kind {
        SUM, SUM0, AVG
    }

    final int arg;
    final Kind kind;
    long count;

    SumAccumulator(int arg, Kind kind) {
        this.arg = arg;
        this.kind = kind;
    }

    /** A factory for the sum of column {@code arg} of type {@code argType}, as {@code result}. */
    static Supplier<Accumulator> factory(int arg, RelDataType argType, RelDataType result, Kind kind) {
        SqlTypeName t = result.getSqlTypeName();
        IntegerType integer = IntegerType.of(t);
        if (integer != null && IntegerType.is(argType.getSqlTypeName())) {
            return () -> new IntegerSum(arg, kind, integer);
        }
        if (t == SqlTypeName.DECIMAL && Numbers.isNumeric(argType.getSqlTypeName())) {
            Function<Object, BigDecimal> decimal = Numbers.toDecimal(argType.getSqlTypeName());
            return () -> new DecimalSum(arg, kind, decimal, result);
        }
        if (Numbers.isApprox(t) && Numbers.isNumeric(argType.getSqlTypeName())) {
            return () -> new DoubleSum(arg, kind, t);
        }
        throw ExecErrors.unsupported(kind + " of " + argType.getFullTypeString() + " as " + result.getFullTypeString());
    }

    @Override
    public final void add(Object[] row) {
        Object v = row[arg];
        if (v != null) {
            count++;
            accumulate(v);
        }
    }

    @Override
    public final Object result() {
        if (count == 0) {
            return kind == Kind.SUM0 ? zero() : null;
        }
        return kind == Kind.AVG ? average() : sum();
    }

    @Override
    public final void merge(Accumulator other) {
        SumAccumulator o = (SumAccumulator) other;
        count += o.count;
        mergeSum(o);
    }

    abstract void accumulate(Object value);

    /** Adds {@code other}'s running sum to this one's. */
    abstract void mergeSum(SumAccumulator other);

    abstract Object zero();

    abstract Object sum();

    abstract Object average();

    private static final class IntegerSum extends SumAccumulator {
        private final IntegerType type;
        private long sum;
        private BigDecimal big; // the sum once it no longer fits a long

        IntegerSum(int arg, Kind kind, IntegerType type) {
            super(arg, kind);
            this.type = type;
        }

        @Override
        void accumulate(Object value) {
            long x = ((Number) value).longValue();
            if (big != null) {
                big = big.add(BigDecimal.valueOf(x));
                return;
            }
            long r = sum + x;
            if (((sum ^ r) & (x ^ r)) < 0) {
                big = BigDecimal.valueOf(sum).add(BigDecimal.valueOf(x));
            } else {
                sum = r;
            }
        }

        @Override
        void mergeSum(SumAccumulator other) {
            IntegerSum o = (IntegerSum) other;
            if (o.big != null) {
                big = (big != null ? big : BigDecimal.valueOf(sum)).add(o.big);
            } else {
                accumulate(o.sum);
            }
        }

        @Override
        Object zero() {
            return type.box(0);
        }

        @Override
        Object sum() {
            if (big == null) {
                return type.box(sum);
            }
            try {
                return type.box(big.longValueExact());
            } catch (ArithmeticException e) {
                throw ExecErrors.overflow(type.name());
            }
        }

        @Override
        Object average() {
            if (big == null) {
                return type.box(sum / count);
            }
            return type.box(big.divide(BigDecimal.valueOf(count), 0, RoundingMode.DOWN).longValueExact());
        }
    }

    private static final class DecimalSum extends SumAccumulator {
        private final Function<Object, BigDecimal> decimal;
        private final RelDataType type;
        private BigDecimal sum = BigDecimal.ZERO;

        DecimalSum(int arg, Kind kind, Function<Object, BigDecimal> decimal, RelDataType type) {
            super(arg, kind);
            this.decimal = decimal;
            this.type = type;
        }

        @Override
        void accumulate(Object value) {
            sum = sum.add(decimal.apply(value));
        }

        @Override
        void mergeSum(SumAccumulator other) {
            sum = sum.add(((DecimalSum) other).sum);
        }

        @Override
        Object zero() {
            return Numbers.fit(BigDecimal.ZERO, type);
        }

        @Override
        Object sum() {
            return Numbers.fit(sum, type);
        }

        @Override
        Object average() {
            return Numbers.fit(sum.divide(BigDecimal.valueOf(count), type.getScale(), RoundingMode.HALF_UP), type);
        }
    }

    private static final class DoubleSum extends SumAccumulator {
        private final SqlTypeName type;
        private double sum;
        private boolean nonFiniteInput;

        DoubleSum(int arg, Kind kind, SqlTypeName type) {
            super(arg, kind);
            this.type = type;
        }

        @Override
        void accumulate(Object value) {
            double x = ((Number) value).doubleValue();
            nonFiniteInput |= !Double.isFinite(x);
            sum += x;
        }

        @Override
        void mergeSum(SumAccumulator other) {
            DoubleSum o = (DoubleSum) other;
            nonFiniteInput |= o.nonFiniteInput;
            sum += o.sum;
        }

        @Override
        Object zero() {
            return Numbers.approx(0, type);
        }

        @Override
        Object sum() {
            return Numbers.approx(finite(sum), type);
        }

        @Override
        Object average() {
            return Numbers.approx(finite(sum) / count, type);
        }

        /**
         * {@code d}, or the overflow error when it is not finite though every input was: a sum
         * that overflowed (in parts, two that overflowed either way add up to NaN).
         */
        private double finite(double d) {
            if (!Double.isFinite(d) && !nonFiniteInput) {
                throw ExecErrors.overflow(type.name());
            }
            return d;
        }
    }
}
