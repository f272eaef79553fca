package io.tell.sql.exec;

/**
 * The running state of one aggregate call over the rows of one group, made by the factory
 * {@link AggregateCompiler#compile} returns. Not thread-safe: one per group and execution.
 */
public interface Accumulator {
    /** Adds one row of the aggregate's input (the call reads its argument columns from it). */
    void add(Object[] row);

    /**
     * The aggregate's value, of the Java class of the call's type. Over no rows (or none that
     * pass the filter) COUNT is 0 and $SUM0 zero; the others are null.
     */
    Object result();

    /**
     * Takes in what {@code other} (made by the same factory) accumulated over rows that come after
     * this one's: how the partial aggregates of a parallel execution's parts become one
     * ({@link AggregateCompiler#mergeable}). {@code other} is not used after.
     */
    void merge(Accumulator other);
}
