package io.tell.sql.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.mem.MemRecordStore;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RidAllocatorTest {
    @Test
    void aQuickConsumerReservesGrowingRangesAndASlowOneDoesNot() throws InterruptedException {
        CountingRecordStore store = new CountingRecordStore(new MemRecordStore("rids"));
        RidAllocator rids = new RidAllocator(store, "t.rid", "rid", 100);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 6300; i++) {
            long rid = rids.next();
            assertTrue(rid > RecordStore.clockFloor() - 60_000_000L, "at or above the clock when reserved: " + rid);
            assertTrue(seen.add(rid), "rid " + rid + " handed out twice");
        }
        // 100 + 200 + 400 + 800 + 1,600 + 3,200 = 6,300: six ranges, where ranges of 100 would take 63.
        assertEquals(6, store.counts().increments());

        long reserved = store.counts().increments();
        Thread.sleep(1100); // the last range was used up, but the next one is asked for only now
        for (int i = 0; i < 3200; i++) {
            assertTrue(seen.add(rids.next()));
        }
        assertEquals(reserved + 1, store.counts().increments(), "after a pause the range keeps its size: 3,200");
        for (int i = 0; i < 6400 + 3 * RidAllocator.MOST; i++) {
            assertTrue(seen.add(rids.next()));
        }
        assertEquals(reserved + 5, store.counts().increments(), "6,400, then ranges of " + RidAllocator.MOST + " at the most");
    }
}
