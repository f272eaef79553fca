package io.tell.txn;

import io.tell.store.RecordKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The records this node's transactions keep losing write-write conflicts on: TPC-C's
 * warehouse and district rows, a bank's busiest account. A transaction that writes one of them
 * reads it again along with each later fetch of records, at no round trip of its own, and gives
 * up as soon as another writer's version shows there ({@link Transaction}): its commit would
 * fail on that version unless that writer aborts (as at a write, a version in flight counts),
 * and every store call it would still make before that is wasted. A hint only: a record that
 * is not hot is checked at commit as before. A record is hot after {@value #HOT_AFTER} conflicts,
 * each within ten seconds of the last, and stays so while they go on: a stock row two New-Orders
 * once raced for is not worth a key in every later read. Bounded: when full, records past their
 * time go, and if that is not enough, all.
 */
final class HotRecords {
    static final int CAPACITY = 1024;
    /** Conflicts within {@link #WINDOW_NANOS} of each other that make a record hot: one lost race does not. */
    static final int HOT_AFTER = 3;
    /** How long a record's conflicts count: a record stays hot while it keeps conflicting at least this often. */
    static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** A record's latest conflicts: how many followed each other within the window (at most {@link #HOT_AFTER}), and when the last was. */
    private record Conflicts(int count, long last) {
    }

    private final ConcurrentHashMap<RecordKey, Conflicts> conflicts = new ConcurrentHashMap<>();
    private final LongAdder foundEarly = new LongAdder();

    /** A transaction of this node lost a write-write conflict on {@code key}. */
    void conflicted(RecordKey key) {
        long now = System.nanoTime();
        if (conflicts.size() >= CAPACITY && !conflicts.containsKey(key)) {
            // Records not hot (yet) go first, then those past their window, then all.
            conflicts.values().removeIf(c -> c.count() < HOT_AFTER);
            conflicts.values().removeIf(c -> now - c.last() >= WINDOW_NANOS);
            if (conflicts.size() >= CAPACITY) {
                conflicts.clear();
            }
        }
        conflicts.merge(key, new Conflicts(1, now), (old, one) -> now - old.last() < WINDOW_NANOS
                ? new Conflicts(Math.min(old.count() + 1, HOT_AFTER), Math.max(old.last(), now)) : one);
    }

    boolean isHot(RecordKey key) {
        Conflicts c = conflicts.get(key);
        return c != null && c.count() >= HOT_AFTER && System.nanoTime() - c.last() < WINDOW_NANOS;
    }

    /** A transaction gave up before its commit on a version another writer left on a hot record. */
    void foundEarly() {
        foundEarly.increment();
    }

    /** Conflicts found on hot records before the commit, so far. */
    long earlyConflicts() {
        return foundEarly.sum();
    }
}
