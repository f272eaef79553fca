package io.tell.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Two sweepers' leases over one store, each with its own hand-driven clock: no test waits on time. */
class SweepLeaseTest {
    private static final Duration LEASE = Duration.ofSeconds(10);
    private static final long SECOND = 1_000_000_000L;

    private final RecordStore store = RecordStores.open("mem:");
    private final AtomicLong clockA = new AtomicLong(1_000 * SECOND);
    private final AtomicLong clockB = new AtomicLong(-5_000 * SECOND); // clocks need not agree
    private final SweepLease a = new SweepLease(store, "a", LEASE, clockA::get);
    private final SweepLease b = new SweepLease(store, "b", LEASE, clockB::get);

    @Test
    void oneHolderAtATimeAndATakeOverOnlyAfterTheHolderStopsRenewing() {
        assertTrue(a.acquire());
        assertFalse(b.acquire());
        for (int i = 0; i < 5; i++) { // a renews every 4 s; b never sees the same record for 10 s
            clockA.addAndGet(4 * SECOND);
            clockB.addAndGet(4 * SECOND);
            assertTrue(a.acquire() && a.held());
            assertFalse(b.acquire() || b.held());
        }
        assertEquals("a", SweepLease.holderOf(store.get(SweepLease.KEY.domain(), SweepLease.KEY.key()).value()));

        // a stops renewing (paused, cut off). b first sees this record now and must wait a whole lease.
        clockB.addAndGet(9 * SECOND);
        assertFalse(b.acquire());
        clockA.addAndGet(9 * SECOND);
        assertTrue(a.held(), "a's deadline counts from before its last write");
        clockA.addAndGet(2 * SECOND);
        assertFalse(a.held(), "a knows its lease ran out before anyone may take over");
        clockB.addAndGet(1 * SECOND);
        assertTrue(b.acquire() && b.held());
        assertEquals("b", SweepLease.holderOf(store.get(SweepLease.KEY.domain(), SweepLease.KEY.key()).value()));

        // a wakes up: its renewal finds another holder's record and fails; it watches like anyone else.
        assertFalse(a.acquire() || a.held());
        assertEquals(1, a.acquisitions());
        assertEquals(1, b.acquisitions());
    }

    @Test
    void aReleasedLeaseIsTakenAtOnceAndAStoppedHolderNeitherHoldsNorRenews() {
        assertTrue(a.acquire());
        a.stop();
        assertFalse(a.held() || a.acquire());
        a.release();
        assertTrue(b.acquire(), "no wait after a release");
        assertTrue(b.held());
    }
}
