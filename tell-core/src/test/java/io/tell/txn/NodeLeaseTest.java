package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.ForwardingRecordStore;
import io.tell.store.RecordStores;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NodeLeaseTest {
    /** A store whose next write of the lease record waits until it is let go. */
    private static final class HeldStore extends ForwardingRecordStore {
        final CountDownLatch writing = new CountDownLatch(1);
        final CountDownLatch letGo = new CountDownLatch(1);
        volatile boolean armed;

        HeldStore() {
            super(RecordStores.open("mem:"));
        }

        @Override
        public CompletableFuture<WriteResult> writeAsync(WriteOp op) {
            if (armed && op.key().domain().equals(NodeLease.key("x").domain()) && !op.isDelete()) {
                armed = false;
                writing.countDown();
                try {
                    letGo.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.writeAsync(op);
        }
    }

    @Test
    void aLeaveDuringARenewalRemovesTheLeaseTheRenewalLeft() throws Exception {
        HeldStore store = new HeldStore();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        NodeLease lease = NodeLease.acquire(store, "pn", Duration.ofSeconds(30), () -> 1, timer);
        timer.shutdown(); // no renewals but the one driven below
        assertEquals(1, NodeLease.all(store).size());

        store.armed = true;
        Thread renewal = new Thread(lease::renew);
        renewal.start();
        assertTrue(store.writing.await(10, TimeUnit.SECONDS));
        Thread leave = new Thread(lease::close);
        leave.start();
        // The leave waits for the renewal under way (it must not remove the registration the
        // renewal is about to replace): give it time to get there, then let the renewal write.
        for (int i = 0; i < 200 && leave.getState() != Thread.State.BLOCKED; i++) {
            Thread.sleep(5);
        }
        store.letGo.countDown();
        renewal.join(10_000);
        leave.join(10_000);
        assertEquals(0, NodeLease.all(store).size(), "a clean leave leaves no lease: " + NodeLease.all(store));
    }
}
