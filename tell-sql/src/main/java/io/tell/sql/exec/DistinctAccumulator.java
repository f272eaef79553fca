package io.tell.sql.exec;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The DISTINCT of an aggregate: passes a row on only the first time its argument values are
 * seen. Values are keyed so that equal SQL values are equal keys: decimals without trailing
 * zeros, CHAR without padding, {@code -0.0} as {@code 0.0}, bytes by content.
 */
final class DistinctAccumulator implements Accumulator {
    private final int[] args;
    private final UnaryOperator<Object>[] keys;
    private final Accumulator inner;
    private final Set<Object> seen = new HashSet<>();

    DistinctAccumulator(int[] args, UnaryOperator<Object>[] keys, Accumulator inner) {
        this.args = args;
        this.keys = keys;
        this.inner = inner;
    }

    @Override
    public void add(Object[] row) {
        Object key;
        if (args.length == 1) {
            key = keyOf(0, row[args[0]]);
        } else {
            Object[] values = new Object[args.length];
            for (int i = 0; i < args.length; i++) {
                values[i] = keyOf(i, row[args[i]]);
            }
            key = Arrays.asList(values);
        }
        if (seen.add(key)) {
            inner.add(row);
        }
    }

    private Object keyOf(int i, Object value) {
        return value == null ? null : keys[i].apply(value);
    }

    /** Not for DISTINCT: which rows reached the inner accumulator is not kept ({@link AggregateCompiler#mergeable}). */
    @Override
    public void merge(Accumulator other) {
        throw new UnsupportedOperationException("a DISTINCT aggregate cannot be merged");
    }

    @Override
    public Object result() {
        return inner.result();
    }
}
