package io.tell.sql.exec;

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

    /** {@code scan}: the operator that reads a part's range; {@code shared}: values by the key that stands for them (not changed after). */
    public PartedRun(Object scan, Map<Object, Object> shared) {
        this.scan = scan;
        this.shared = shared;
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
