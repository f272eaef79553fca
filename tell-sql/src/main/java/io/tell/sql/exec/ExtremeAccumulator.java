package io.tell.sql.exec;

import java.util.Comparator;
import java.util.function.UnaryOperator;

/** MIN or MAX (and EVERY / SOME, which Calcite makes MIN / MAX of booleans) of the non-null values. */
final class ExtremeAccumulator implements Accumulator {
    private final int arg;
    private final Comparator<Object> order;
    private final boolean max;
    private final UnaryOperator<Object> toResult;
    private Object best;

    ExtremeAccumulator(int arg, Comparator<Object> order, boolean max, UnaryOperator<Object> toResult) {
        this.arg = arg;
        this.order = order;
        this.max = max;
        this.toResult = toResult;
    }

    @Override
    public void add(Object[] row) {
        offer(row[arg]);
    }

    private void offer(Object v) {
        if (v != null && (best == null || (max ? order.compare(v, best) > 0 : order.compare(v, best) < 0))) {
            best = v;
        }
    }

    @Override
    public void merge(Accumulator other) {
        offer(((ExtremeAccumulator) other).best);
    }

    @Override
    public Object result() {
        return best == null ? null : toResult.apply(best);
    }
}
