package io.tell.txn;

import io.tell.store.RecordKey;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The records this node's transactions lately lost a write-write conflict on: TPC-C's
 * warehouse and district rows, a bank's busiest account. A transaction that writes one of them
 * reads it again along with each later fetch of records, at no round trip of its own, and gives
 * up as soon as another writer's version shows there ({@link Transaction}): its commit would
 * fail on that version unless that writer aborts (as at a write, a version in flight counts),
 * and every store call it would still make before that is wasted. A hint only: a record that
 * is not hot is checked at commit as before. Bounded: when full, records past their time go,
 * and if that is not enough, all.
 */
final class HotRecords {
    static final int CAPACITY = 1024;
    /** How long a record stays hot after its last conflict. */
    static final long HOT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final ConcurrentHashMap<RecordKey, Long> lastConflict = new ConcurrentHashMap<>();
    private final LongAdder foundEarly = new LongAdder();

    /** A transaction of this node lost a write-write conflict on {@code key}. */
    void conflicted(RecordKey key) {
        long now = System.nanoTime();
        if (lastConflict.size() >= CAPACITY && !lastConflict.containsKey(key)) {
            lastConflict.values().removeIf(at -> now - at >= HOT_NANOS);
            if (lastConflict.size() >= CAPACITY) {
                lastConflict.clear();
            }
        }
        lastConflict.put(key, now);
    }

    boolean isHot(RecordKey key) {
        Long at = lastConflict.get(key);
        return at != null && System.nanoTime() - at < HOT_NANOS;
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
