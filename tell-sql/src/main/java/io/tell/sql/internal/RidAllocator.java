package io.tell.sql.internal;

import io.tell.store.RecordStore;
import java.nio.charset.StandardCharsets;

/**
 * Hands out row ids of one table, reserving them from the table's store counter {@code batch}
 * at a time, so most inserts cost no round trip for their rid. Rids are unique across all
 * processing nodes, not dense: a node that stops loses the rest of its range, and every range
 * starts at or above the wall clock in microseconds ({@link RecordStore#clockFloor()}), so rids
 * are never handed out twice even by a counter that a store fail-over set back.
 */
public final class RidAllocator {
    private final RecordStore store;
    private final String counterDomain;
    private final byte[] counterKey;
    private final int batch;
    private long next;
    private long limit; // exclusive

    public RidAllocator(RecordStore store, String counterDomain, String counterKey, int batch) {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1: " + batch);
        }
        this.store = store;
        this.counterDomain = counterDomain;
        this.counterKey = counterKey.getBytes(StandardCharsets.UTF_8);
        this.batch = batch;
    }

    /** A fresh rid (>= 1). Callers of one table share one allocator; a counter call under the lock is rare. */
    public synchronized long next() {
        if (next == limit) {
            // Rids may be sparse, so the clock is their floor: a counter that went back (a store
            // fail-over that lost increments) still climbs past every rid handed out.
            long high = store.increment(counterDomain, counterKey, batch, RecordStore.clockFloor());
            next = high - batch + 1;
            limit = high + 1;
        }
        return next++;
    }
}
