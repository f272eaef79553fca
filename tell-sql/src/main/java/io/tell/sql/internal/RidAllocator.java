package io.tell.sql.internal;

import io.tell.store.RecordStore;
import java.nio.charset.StandardCharsets;

/**
 * Hands out row ids of one table, reserving them from the table's store counter a range at a
 * time, so most inserts cost no round trip for their rid. A range starts at {@code batch} rids
 * and doubles, up to {@link #MOST}, each time one is used up within a second of its
 * reservation: a bulk load reserves a few times a second, not once per hundred rows. Rids are
 * unique across all processing nodes, not dense: a node that stops loses the rest of its range,
 * and every range starts at or above the wall clock in microseconds
 * ({@link RecordStore#clockFloor()}), so rids are never handed out twice even by a counter that
 * a store fail-over set back, unless the fail-over took less than the counter's lead over the
 * clock (about one range, at most 10 ms, per node reserving at that moment) plus the nodes'
 * clock skew.
 */
public final class RidAllocator {
    /** The largest range reserved at once. */
    public static final int MOST = 10_000;
    private static final long QUICK_NANOS = 1_000_000_000L;

    private final RecordStore store;
    private final java.util.function.LongSupplier nanoTime;
    private final String counterDomain;
    private final byte[] counterKey;
    private int batch;
    private long next;
    private long limit; // exclusive
    private long reservedAt;

    public RidAllocator(RecordStore store, String counterDomain, String counterKey, int batch) {
        this(store, counterDomain, counterKey, batch, System::nanoTime);
    }

    /** With {@code nanoTime} as the clock that tells how quickly a range was used up. */
    RidAllocator(RecordStore store, String counterDomain, String counterKey, int batch, java.util.function.LongSupplier nanoTime) {
        if (batch < 1 || batch > MOST) {
            throw new IllegalArgumentException("batch must be in [1, " + MOST + "]: " + batch);
        }
        this.store = store;
        this.nanoTime = nanoTime;
        this.counterDomain = counterDomain;
        this.counterKey = counterKey.getBytes(StandardCharsets.UTF_8);
        this.batch = batch;
    }

    /** A fresh rid (>= 1). Callers of one table share one allocator; a counter call under the lock is rare. */
    public synchronized long next() {
        if (next == limit) {
            long now = nanoTime.getAsLong();
            if (limit != 0 && now - reservedAt < QUICK_NANOS) {
                batch = Math.min(MOST, 2 * batch);
            }
            // Rids may be sparse, so the clock is their floor: a counter that went back (a store
            // fail-over that lost increments) still climbs past every rid handed out.
            long high = store.increment(counterDomain, counterKey, batch, RecordStore.clockFloor());
            next = high - batch + 1;
            limit = high + 1;
            reservedAt = now;
        }
        return next++;
    }
}
