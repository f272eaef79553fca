package io.tell.sql;

/**
 * The outcome of one execution: rows for a query (read them with {@link #next()} and
 * {@link #row()}), an update count otherwise. Rows are computed lazily where the plan allows,
 * so errors can surface from {@code next()}. Not thread-safe.
 */
public interface SqlResult extends AutoCloseable {
    /** True for a query's result; false for DML and DDL. */
    boolean hasRows();

    /** Rows changed by DML; 0 for DDL; -1 for a query. */
    long updateCount();

    /** Advances to the next row; false at the end (and always for non-queries). */
    boolean next();

    /** The current row; values have the classes of {@link PreparedSql#columns()}. Do not modify. */
    Object[] row();

    /** Releases the result; a query in auto-commit mode ends its transaction here. */
    @Override
    void close();
}
