package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.txn.TxStart;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The tid counter may go back (a store fail-over that lost increments); tids must not: the
 * journal is the counter's floor across restarts, the highest reservation within one.
 */
class TidFloorTest {
    private static final LocalCommitManager.Options DURABLE = new LocalCommitManager.Options(10, true, Duration.ofHours(1));

    /** What a fail-over that lost every increment looks like to the counter. */
    private static void counterBackToZero(RecordStore store) {
        long now = store.increment(LocalCommitManager.SYSTEM_DOMAIN, LocalCommitManager.TID_COUNTER, 0);
        store.increment(LocalCommitManager.SYSTEM_DOMAIN, LocalCommitManager.TID_COUNTER, -now);
    }

    @Test
    void aRestartOverACounterThatWentBackReissuesNoTid() {
        RecordStore store = RecordStores.open("mem:");
        LocalCommitManager first = LocalCommitManager.open(store, DURABLE);
        for (int i = 0; i < 11; i++) {
            first.committed(first.start(false).tid());
        }
        // Started after the last report was journaled, and still running when the manager goes.
        long running = first.start(false).tid();
        first.close();
        counterBackToZero(store);
        try (LocalCommitManager second = LocalCommitManager.open(store, DURABLE)) {
            TxStart next = second.start(false);
            assertTrue(next.tid() > running, "tid " + next.tid() + " handed out again (running was " + running + ")");
            assertFalse(next.snapshot().isVisible(running), "the unreported tid of the earlier manager stays in doubt");
            second.committed(next.tid());
        }
    }

    @Test
    void aCounterThatWentBackWhileRunningReissuesNoTid() {
        RecordStore store = RecordStores.open("mem:");
        try (LocalCommitManager cm = LocalCommitManager.open(store, DURABLE)) {
            long last = 0;
            for (int i = 0; i < 45; i++) {
                if (i == 15) {
                    counterBackToZero(store);
                }
                long tid = cm.start(false).tid();
                assertTrue(tid > last, "tid " + tid + " after " + last);
                last = tid;
                cm.committed(tid);
            }
            assertTrue(store.increment(LocalCommitManager.SYSTEM_DOMAIN, LocalCommitManager.TID_COUNTER, 0) >= last,
                    "the counter was pushed back up past the tids handed out");
        }
    }
}
