package io.tell.sql.exec;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.function.UnaryOperator;

/**
 * ANY_VALUE (the first non-null value) or SINGLE_VALUE (the value of the only row; a second row
 * is the error of a scalar subquery returning more than one row).
 */
final class ValueAccumulator implements Accumulator {
    private final int arg;
    private final boolean single;
    private final UnaryOperator<Object> toResult;
    private boolean seen;
    private Object value;

    ValueAccumulator(int arg, boolean single, UnaryOperator<Object> toResult) {
        this.arg = arg;
        this.single = single;
        this.toResult = toResult;
    }

    @Override
    public void add(Object[] row) {
        take(row[arg]);
    }

    private void take(Object v) {
        if (single) {
            if (seen) {
                throw TellException.of(ErrorCode.CARDINALITY_VIOLATION, "more than one row returned by a subquery used as an expression");
            }
            seen = true;
            value = v;
        } else if (value == null) {
            value = v;
        }
    }

    @Override
    public void merge(Accumulator other) {
        ValueAccumulator o = (ValueAccumulator) other;
        if (o.seen || !single) { // SINGLE_VALUE: a value the other part saw counts as a row
            take(o.value);
        }
    }

    @Override
    public Object result() {
        return value == null ? null : toResult.apply(value);
    }
}
