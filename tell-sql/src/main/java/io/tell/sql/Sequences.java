package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sequence numbers one processing node holds: per sequence, a range taken from the store
 * {@link SequenceDef#cache()} numbers at a time (one round trip per range, outside any
 * transaction), handed out in order. Values are unique across nodes; a node's unused numbers
 * are lost when it stops, and a rollback does not give a value back (as in other databases).
 * Thread-safe.
 */
public final class Sequences {
    private final Catalog catalog;
    private final Map<Long, Range> ranges = new ConcurrentHashMap<>();

    /** Numbers {@code next..last} of one sequence, not yet handed out. */
    private static final class Range {
        long next = 1;
        long last;
    }

    Sequences(Catalog catalog) {
        this.catalog = catalog;
    }

    /** The next value of sequence {@code name} as {@code cat} defines it. */
    public long next(CatalogSnapshot cat, String name) {
        SequenceDef q = cat.sequence(name).orElseThrow(() ->
                TellException.of(ErrorCode.UNDEFINED_OBJECT, "sequence " + name + " does not exist"));
        Range r = ranges.computeIfAbsent(q.id(), id -> new Range());
        synchronized (r) {
            if (r.next > r.last) {
                long taken = catalog.takeNumbers(q, q.cache());
                r.next = taken - q.cache() + 1;
                r.last = taken;
            }
            return q.value(r.next++);
        }
    }
}
