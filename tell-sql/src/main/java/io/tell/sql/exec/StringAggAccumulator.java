package io.tell.sql.exec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * {@code string_agg(value, delimiter [ORDER BY …])} (and LISTAGG, whose delimiter is {@code ,} when left out):
 * the non-NULL values joined, each after the first preceded by the delimiter of its own row (as PostgreSQL
 * does); NULL over no values. Without ORDER BY the rows come in the order the input gives them.
 */
final class StringAggAccumulator implements Accumulator {
    private final int value;
    private final int delimiter;
    private final Comparator<Object[]> order;
    private final List<Object[]> rows = new ArrayList<>();

    /** {@code delimiter}: its input column, -1 for {@code ,}; {@code order}: null for the input's order. */
    StringAggAccumulator(int value, int delimiter, Comparator<Object[]> order) {
        this.value = value;
        this.delimiter = delimiter;
        this.order = order;
    }

    @Override
    public void add(Object[] row) {
        if (row[value] != null) {
            rows.add(row.clone());
        }
    }

    @Override
    public void merge(Accumulator other) {
        rows.addAll(((StringAggAccumulator) other).rows);
    }

    @Override
    public Object result() {
        if (rows.isEmpty()) {
            return null;
        }
        if (order != null) {
            rows.sort(order);
        }
        StringBuilder joined = new StringBuilder((String) rows.get(0)[value]);
        for (Object[] row : rows.subList(1, rows.size())) {
            Object d = delimiter < 0 ? "," : row[delimiter];
            if (d != null) {
                joined.append((String) d);
            }
            joined.append((String) row[value]);
        }
        return joined.toString();
    }
}
