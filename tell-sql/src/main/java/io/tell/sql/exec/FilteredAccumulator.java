package io.tell.sql.exec;

/** {@code agg(…) FILTER (WHERE c)}: passes on only the rows whose filter column is TRUE. */
final class FilteredAccumulator implements Accumulator {
    private final int filter;
    private final Accumulator inner;

    FilteredAccumulator(int filter, Accumulator inner) {
        this.filter = filter;
        this.inner = inner;
    }

    @Override
    public void add(Object[] row) {
        if (Boolean.TRUE.equals(row[filter])) {
            inner.add(row);
        }
    }

    @Override
    public void merge(Accumulator other) {
        inner.merge(((FilteredAccumulator) other).inner);
    }

    @Override
    public Object result() {
        return inner.result();
    }
}
