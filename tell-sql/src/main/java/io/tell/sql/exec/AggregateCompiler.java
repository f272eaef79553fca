package io.tell.sql.exec;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlKind;

/**
 * Compiles a Calcite {@link AggregateCall} over an input row type into a factory of
 * {@link Accumulator}s, one per group. Supported: COUNT(*), COUNT(x, …), SUM, $SUM0, AVG, MIN,
 * MAX (with EVERY and SOME, which Calcite plans as MIN and MAX), ANY_VALUE and SINGLE_VALUE, each
 * with DISTINCT and FILTER. Results have the class of the call's type. Anything else fails here
 * with FEATURE_NOT_SUPPORTED. Thread-safe; the factory may be shared by executions.
 */
public final class AggregateCompiler {
    private AggregateCompiler() {
    }

    /**
     * The accumulator factory for {@code call}, whose argument and filter indexes refer to
     * columns of {@code inputRowType}.
     *
     * @throws io.tell.error.TellException FEATURE_NOT_SUPPORTED for another aggregate function
     */
    public static Supplier<Accumulator> compile(AggregateCall call, RelDataType inputRowType) {
        int[] args = call.getArgList().stream().mapToInt(Integer::intValue).toArray();
        List<RelDataType> argTypes = call.getArgList().stream()
                .map(i -> inputRowType.getFieldList().get(i).getType()).toList();
        RelDataType type = call.getType();
        SqlKind kind = call.getAggregation().getKind();
        Supplier<Accumulator> factory = switch (kind) {
            case COUNT -> {
                IntegerType count = IntegerType.of(type.getSqlTypeName());
                if (count == null) {
                    throw unsupported(call);
                }
                yield () -> new CountAccumulator(args, count);
            }
            case SUM -> SumAccumulator.factory(single(call, args), argTypes.get(0), type, SumAccumulator.Kind.SUM);
            case SUM0 -> SumAccumulator.factory(single(call, args), argTypes.get(0), type, SumAccumulator.Kind.SUM0);
            case AVG -> SumAccumulator.factory(single(call, args), argTypes.get(0), type, SumAccumulator.Kind.AVG);
            case MIN, MAX -> {
                int arg = single(call, args);
                var order = Comparisons.comparator(argTypes.get(0), argTypes.get(0));
                UnaryOperator<Object> toResult = toResult(argTypes.get(0), type);
                boolean max = kind == SqlKind.MAX;
                yield () -> new ExtremeAccumulator(arg, order, max, toResult);
            }
            case ANY_VALUE, SINGLE_VALUE -> {
                int arg = single(call, args);
                UnaryOperator<Object> toResult = toResult(argTypes.get(0), type);
                boolean single = kind == SqlKind.SINGLE_VALUE;
                yield () -> new ValueAccumulator(arg, single, toResult);
            }
            case STRING_AGG, LISTAGG -> { // Calcite makes string_agg a LISTAGG
                Comparator<Object[]> order = Rows.order(call.getCollation().getFieldCollations());
                yield () -> new StringAggAccumulator(args[0], args.length > 1 ? args[1] : -1, order);
            }
            case LITERAL_AGG -> {
                // The decorrelator's marker that a group exists (NOT IN, EXISTS): always its literal.
                Object value = ExprCompiler.compile(call.rexList.get(0)).eval(null, null);
                yield () -> new Accumulator() {
                    @Override
                    public void add(Object[] row) {
                    }

                    @Override
                    public void merge(Accumulator other) {
                    }

                    @Override
                    public Object result() {
                        return value;
                    }
                };
            }
            default -> throw unsupported(call);
        };
        if (distinctMatters(call)) {
            Supplier<Accumulator> inner = factory;
            @SuppressWarnings("unchecked")
            UnaryOperator<Object>[] keys = argTypes.stream().map(AggregateCompiler::key).toArray(UnaryOperator[]::new);
            factory = () -> new DistinctAccumulator(args, keys, inner.get());
        }
        if (call.filterArg >= 0) {
            Supplier<Accumulator> inner = factory;
            int filter = call.filterArg;
            factory = () -> new FilteredAccumulator(filter, inner.get());
        }
        return factory;
    }

    /**
     * Whether {@code call}'s accumulators can {@link Accumulator#merge}: all but the DISTINCT
     * ones (MIN, MAX and ANY_VALUE ignore DISTINCT).
     */
    public static boolean mergeable(AggregateCall call) {
        return !distinctMatters(call);
    }

    private static boolean distinctMatters(AggregateCall call) {
        SqlKind kind = call.getAggregation().getKind();
        return call.isDistinct() && kind != SqlKind.MIN && kind != SqlKind.MAX && kind != SqlKind.ANY_VALUE;
    }

    private static int single(AggregateCall call, int[] args) {
        if (args.length != 1) {
            throw ExecErrors.unsupported(call.getAggregation().getName() + " of " + args.length + " arguments");
        }
        return args[0];
    }

    private static UnaryOperator<Object> toResult(RelDataType argType, RelDataType type) {
        return Casts.needsConversion(argType, type) ? Casts.converter(argType, type) : UnaryOperator.identity();
    }

    /** How a value is keyed for DISTINCT so that equal SQL values are equal keys. */
    private static UnaryOperator<Object> key(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case DECIMAL -> v -> ((BigDecimal) v).stripTrailingZeros();
            case CHAR -> v -> TextFormat.stripTrailingSpaces((String) v);
            case REAL, FLOAT, DOUBLE -> v -> ((Number) v).doubleValue() + 0.0; // -0.0 becomes 0.0
            case BINARY, VARBINARY -> v -> ByteBuffer.wrap((byte[]) v);
            default -> UnaryOperator.identity();
        };
    }

    private static RuntimeException unsupported(AggregateCall call) {
        return ExecErrors.unsupported("aggregate function " + call.getAggregation().getName()
                + " returning " + call.getType().getFullTypeString());
    }
}
