package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A long reader started on a commit manager that dies: the manager that takes over never hands
 * out a {@code lav} past the reader's snapshot while the reader runs (its node's lease carries
 * the reader's base), so eager garbage collection keeps the version the reader needs.
 */
class ReaderAcrossTakeoverTest {
    private static final String D = "rows";
    private static final byte[] KEY = {1};

    @Test
    void aReaderOfADeadManagerStillReadsItsSnapshotAfterTheTakeover() throws Exception {
        String url = "mem:takeover-" + UUID.randomUUID();
        RecordStore store = RecordStores.open(url);
        LocalCommitManager.Options options = new LocalCommitManager.Options(10, true, Duration.ofMillis(100));
        LocalCommitManager first = LocalCommitManager.open(RecordStores.open(url), options);
        Switch cm = new Switch(first);
        try (TransactionManager node = new TransactionManager(RecordStores.open(url), cm, "pn-reader")) {
            node.startLease(Duration.ofSeconds(2));
            node.run(1, tx -> {
                tx.insert(D, KEY, b("old"));
                return null;
            });
            // Started on the first manager; it reads KEY only at the end (a first read goes to the store).
            Transaction reader = node.beginReadOnly();
            first.crash();
            try (LocalCommitManager second = LocalCommitManager.open(RecordStores.open(url), options)) {
                cm.target = second;
                // Let the dead manager's record (and its lav hold) be removed: two graces and more.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!second.describe().contains("others=[]")) {
                    assertTrue(System.nanoTime() < deadline, "the dead manager's record was never removed: " + second.describe());
                    Thread.sleep(20);
                }
                for (int i = 0; i < 5; i++) {
                    String value = "new-" + i;
                    node.run(3, tx -> {
                        tx.update(D, KEY, b(value));
                        return null;
                    });
                    TxStart t = second.start(false);
                    assertTrue(t.lav() <= reader.snapshot().base(),
                            "lav " + t.lav() + " passed the running reader's base " + reader.snapshot().base());
                    second.aborted(t.tid());
                }
                assertArrayEquals(b("old"), reader.get(D, KEY), "the reader's version was collected");
                reader.commit();
            }
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A commit manager whose target changes, as a client failing over to another server does. */
    private static final class Switch extends ForwardingCommitManager {
        volatile CommitManager target;

        Switch(CommitManager target) {
            this.target = target;
        }

        @Override
        protected CommitManager delegate() {
            return target;
        }

        @Override
        public void close() {
        }
    }
}
