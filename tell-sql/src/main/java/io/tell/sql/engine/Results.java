package io.tell.sql.engine;

import io.tell.sql.SqlResult;
import java.util.List;

/** Results held in memory: rows of a query, or an update count. */
final class Results implements SqlResult {
    private final List<Object[]> rows;
    private final long count;
    private int at = -1;

    private Results(List<Object[]> rows, long count) {
        this.rows = rows;
        this.count = count;
    }

    static SqlResult rows(List<Object[]> rows) {
        return new Results(rows, -1);
    }

    static SqlResult count(long count) {
        return new Results(List.of(), count);
    }

    @Override
    public boolean hasRows() {
        return count < 0;
    }

    @Override
    public long updateCount() {
        return count;
    }

    @Override
    public boolean next() {
        if (at + 1 >= rows.size()) {
            at = rows.size();
            return false;
        }
        at++;
        return true;
    }

    @Override
    public Object[] row() {
        if (at < 0 || at >= rows.size()) {
            throw new IllegalStateException("no current row");
        }
        return rows.get(at);
    }

    @Override
    public void close() {
    }
}
