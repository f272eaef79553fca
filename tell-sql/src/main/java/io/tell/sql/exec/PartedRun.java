package io.tell.sql.exec;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the parts of one parallel execution of a subplan share (docs/sql.md, "Parallel
 * queries"): the table scan that drives them, each part reading one key range of it
 * ({@link ExecContext#forPart}), and the values every part needs alike, computed once before
 * the parts start: the hash tables of the joins on the path from that scan up. Read-only, so
 * the parts' threads share it.
 */
public final class PartedRun {
    private final Object scan;
    private final Map<Object, Object> shared;
    private final java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();

    /** {@code scan}: the operator that reads a part's range; {@code shared}: values by the key that stands for them (not changed after). */
    public PartedRun(Object scan, Map<Object, Object> shared) {
        this.scan = scan;
        this.shared = shared;
    }

    /** Records the first failure of a part; the others stop at their next {@link ExecContext#check}. */
    public void fail(Throwable e) {
        failure.compareAndSet(null, e);
    }

    /** Throws when a part failed (in another part than the one that failed). */
    void check() {
        if (failure.get() != null) {
            throw TellException.of(ErrorCode.CANCELLED, "another part of the parallel execution failed");
        }
    }

    /** What the run failed with: the first part's failure, else {@code thrown}. */
    public RuntimeException firstFailure(Throwable thrown) {
        Throwable first = failure.get() != null ? failure.get() : thrown;
        if (first instanceof Error err) {
            throw err;
        }
        return (RuntimeException) first;
    }

    boolean drivenBy(Object operator) {
        return operator == scan;
    }

    /** The value computed for all parts under {@code key}, or {@code compute}'s when there is none. */
    @SuppressWarnings("unchecked")
    <T> T shared(Object key, Supplier<T> compute) {
        Object value = shared.get(key);
        return value != null ? (T) value : compute.get();
    }
}
