package io.tell.sql.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.CountingRecordStore;
import io.tell.store.mem.MemRecordStore;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RidAllocatorTest {
    @Test
    void aQuickConsumerReservesGrowingRangesAndASlowOneDoesNot() {
        CountingRecordStore store = new CountingRecordStore(new MemRecordStore("rids"));
        AtomicLong nanos = new AtomicLong();
        RidAllocator rids = new RidAllocator(store, "t.rid", "rid", 100, nanos::get);
        Set<Long> seen = new HashSet<>();
        take(rids, 6300, seen);
        // 100 + 200 + 400 + 800 + 1,600 + 3,200 = 6,300: six ranges, where ranges of 100 would take 63.
        assertEquals(6, store.counts().increments());

        nanos.addAndGet(1_500_000_000L); // the last range was used up, but the next one is asked for only now
        take(rids, 3200, seen);
        assertEquals(7, store.counts().increments(), "after a pause the range keeps its size: 3,200");
        take(rids, 6400 + 3 * RidAllocator.MOST, seen);
        assertEquals(11, store.counts().increments(), "6,400, then ranges of " + RidAllocator.MOST + " at the most");
    }

    private static void take(RidAllocator rids, int n, Set<Long> seen) {
        for (int i = 0; i < n; i++) {
            long rid = rids.next();
            assertTrue(seen.add(rid), "rid " + rid + " handed out twice");
        }
    }
}
