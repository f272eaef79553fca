package io.tell.sql.jdbc;

import io.tell.sql.SqlResult;
import java.util.Iterator;
import java.util.List;

/** A query result held in memory: what metadata result sets read from. */
final class InMemoryResult implements SqlResult {
    private final Iterator<Object[]> rows;
    private Object[] row;

    InMemoryResult(List<Object[]> rows) {
        this.rows = List.copyOf(rows).iterator();
    }

    @Override
    public boolean hasRows() {
        return true;
    }

    @Override
    public long updateCount() {
        return -1;
    }

    @Override
    public boolean next() {
        row = rows.hasNext() ? rows.next() : null;
        return row != null;
    }

    @Override
    public Object[] row() {
        return row;
    }

    @Override
    public void close() {
        row = null;
    }
}
