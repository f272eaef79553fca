package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.Versioned;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Snapshot isolation at the key-value level, with the in-process commit manager over mem. */
class SnapshotIsolationTest {
    private static final String D = "accounts";

    private RecordStore store;
    private GatedCommitManager cm;
    private TransactionManager tm;

    @BeforeEach
    void setUp() {
        store = RecordStores.open("mem:");
        cm = new GatedCommitManager(LocalCommitManager.open(store, LocalCommitManager.Options.embedded()));
        tm = new TransactionManager(store, cm, "pn-test");
    }

    @AfterEach
    void tearDown() {
        tm.close();
        cm.close();
        store.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] k(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    private void committedInsert(int key, String value) {
        try (Transaction t = tm.begin()) {
            t.insert(D, k(key), b(value));
            t.commit();
        }
    }

    private String read(int key) {
        try (Transaction t = tm.beginReadOnly()) {
            byte[] v = t.get(D, k(key));
            t.commit();
            return v == null ? null : new String(v, StandardCharsets.UTF_8);
        }
    }

    /**
     * A write refused because another transaction of this node has a version in flight waits
     * for that winner to finish before failing: the retry's snapshot then holds the winner's
     * commit, rather than meeting its version in flight again.
     */
    @Test
    void theLoserOfAConflictWithAWriterOfThisNodeInItsCommitWaitsForItsOutcome() throws Exception {
        committedInsert(1, "v0");
        java.util.concurrent.CountDownLatch applied = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        tm.observeCommits((step, tid) -> {
            if (step == CommitObserver.Step.APPLIED) { // its version is in the store, not yet reported
                applied.countDown();
                try {
                    release.await(10, java.util.concurrent.TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Future<?> winner = pool.submit(() -> {
                try (Transaction t = tm.begin()) {
                    t.update(D, k(1), b("winner"));
                    t.commit();
                }
                return null;
            });
            assertTrue(applied.await(10, java.util.concurrent.TimeUnit.SECONDS));
            tm.observeCommits(null);
            Transaction loser = tm.begin();
            java.util.concurrent.atomic.AtomicReference<Thread> loserThread = new java.util.concurrent.atomic.AtomicReference<>();
            java.util.concurrent.Future<TellException> lost = pool.submit(() -> {
                loserThread.set(Thread.currentThread());
                return assertThrows(TellException.class, () -> loser.update(D, k(1), b("loser")));
            });
            // The loser waits (parked) for the winner; the winner goes on only then.
            long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while ((loserThread.get() == null || loserThread.get().getState() != Thread.State.TIMED_WAITING) && System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            assertFalse(lost.isDone(), "the loser failed while the winner was still in its commit");
            release.countDown();
            assertSame(ErrorCode.TX_CONFLICT, lost.get(10, java.util.concurrent.TimeUnit.SECONDS).code());
            assertEquals("winner", read(1), "a transaction begun right after the conflict sees the winner");
            winner.get(10, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            release.countDown();
            pool.shutdown();
        }
    }

    @Test
    void aCommitWhosePreconditionChangedWritesNothingAndReportsItsTid() {
        RecordKey guard = new RecordKey("meta", b("dir"));
        store.write(io.tell.store.WriteOp.put("meta", b("dir"), b("v1"), io.tell.store.Expect.ANY));
        long v1 = store.get("meta", b("dir")).version();
        Transaction t = tm.begin();
        t.requireUnchanged(guard, v1);
        t.insert(D, k(1), b("x"));
        store.write(io.tell.store.WriteOp.put("meta", b("dir"), b("v2"), io.tell.store.Expect.ANY)); // a DDL
        TellException e = assertThrows(TellException.class, t::commit);
        assertSame(ErrorCode.TX_CONFLICT, e.code());
        assertNull(read(1));
        try (Transaction next = tm.begin()) {
            assertTrue(next.snapshot().base() >= t.tid(), "the aborted tid is decided");
            next.requireUnchanged(guard, store.get("meta", b("dir")).version());
            next.insert(D, k(1), b("y"));
            next.commit();
        }
        assertEquals("y", read(1));
        try (Transaction r = tm.beginReadOnly()) {
            r.requireUnchanged(guard, v1); // stale, but a commit without writes checks nothing
            r.get(D, k(1));
            r.commit();
        }
        try (Transaction absent = tm.begin()) {
            absent.requireUnchanged(new RecordKey("meta", b("nothing")), 0);
            absent.insert(D, k(2), b("z"));
            absent.commit();
        }
        assertEquals("z", read(2));
    }

    @Test
    void snapshotDoesNotSeeLaterCommits() {
        committedInsert(1, "old");
        Transaction reader = tm.beginReadOnly();
        try (Transaction w = tm.begin()) {
            w.update(D, k(1), b("new"));
            w.insert(D, k(2), b("two"));
            w.commit();
        }
        assertArrayEquals(b("old"), reader.get(D, k(1)));
        assertNull(reader.get(D, k(2)));
        reader.commit();
        assertEquals("new", read(1));
        assertEquals("two", read(2));
    }

    @Test
    void transactionSeesItsOwnWrites() {
        try (Transaction t = tm.begin()) {
            t.insert(D, k(1), b("a"));
            assertArrayEquals(b("a"), t.get(D, k(1)));
            assertTrue(t.update(D, k(1), b("b")));
            assertArrayEquals(b("b"), t.get(D, k(1)));
            assertTrue(t.delete(D, k(1)));
            assertNull(t.get(D, k(1)));
            assertFalse(t.update(D, k(1), b("c")));
            t.insert(D, k(1), b("d"));
            t.commit();
        }
        assertEquals("d", read(1));
    }

    @Test
    void firstCommitterWinsWhenBothWriteBeforeEitherCommits() {
        committedInsert(1, "0");
        Transaction t1 = tm.begin();
        Transaction t2 = tm.begin();
        t1.update(D, k(1), b("t1"));
        t2.update(D, k(1), b("t2"));
        t1.commit();
        TellException e = assertThrows(TellException.class, t2::commit);
        assertSame(ErrorCode.TX_CONFLICT, e.code());
        assertTrue(e.retriable());
        assertEquals("t1", read(1));
    }

    @Test
    void writeOverCommittedInvisibleVersionAbortsAtOnce() {
        committedInsert(1, "0");
        Transaction old = tm.begin();
        try (Transaction w = tm.begin()) {
            w.update(D, k(1), b("newer"));
            w.commit();
        }
        TellException e = assertThrows(TellException.class, () -> old.update(D, k(1), b("stale")));
        assertSame(ErrorCode.TX_CONFLICT, e.code());
        assertFalse(old.isActive());
        assertEquals("newer", read(1));
    }

    @Test
    void writeOverInFlightVersionAbortsAndReadersDoNotSeeIt() throws Exception {
        committedInsert(1, "0");
        Transaction writer = tm.begin();
        writer.update(D, k(1), b("in-flight"));
        cm.holdCommits();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> commit = pool.submit(writer::commit);
            cm.awaitHeldCommit();
            // The writer's version is in the store now, but not yet reported committed.
            Transaction other = tm.begin();
            assertArrayEquals(b("0"), other.get(D, k(1)));
            TellException e = assertThrows(TellException.class, () -> other.update(D, k(1), b("x")));
            assertSame(ErrorCode.TX_CONFLICT, e.code());
            assertEquals("0", read(1));
            cm.release();
            commit.get(10, TimeUnit.SECONDS);
        } finally {
            cm.release();
            pool.shutdown();
        }
        assertEquals("in-flight", read(1));
    }

    @Test
    void abortedTransactionLeavesNoVersionBehind() {
        committedInsert(1, "a");
        committedInsert(2, "b");
        Transaction loser = tm.begin();
        loser.update(D, k(1), b("loser-1"));
        loser.update(D, k(2), b("loser-2"));
        long loserTid = loser.tid();
        try (Transaction winner = tm.begin()) {
            winner.update(D, k(2), b("winner"));
            winner.commit();
        }
        assertThrows(TellException.class, loser::commit);
        for (int key : new int[] {1, 2}) {
            Versioned raw = store.get(D, k(key));
            assertFalse(MvccRecord.decode(raw.value()).hasVersionOf(loserTid), "key " + key + " still has the aborted version");
        }
        assertEquals("a", read(1));
        assertEquals("winner", read(2));
        assertNull(store.get(TxLog.DOMAIN, TxLog.key(loserTid)), "log entry of the aborted tid is cleaned up");
    }

    @Test
    void rollbackLeavesNoTrace() {
        committedInsert(1, "a");
        Transaction t = tm.begin();
        t.update(D, k(1), b("changed"));
        t.insert(D, k(2), b("new"));
        t.rollback();
        assertEquals("a", read(1));
        assertNull(read(2));
        assertNull(store.get(D, k(2)));
        assertThrows(TellException.class, () -> t.get(D, k(1)));
    }

    @Test
    void duplicateInsertIsRefusedAndInsertAfterDeleteWorks() {
        committedInsert(1, "a");
        try (Transaction t = tm.begin()) {
            TellException e = assertThrows(TellException.class, () -> t.insert(D, k(1), b("dup")));
            assertSame(ErrorCode.DUPLICATE_KEY, e.code());
        }
        try (Transaction t = tm.begin()) {
            assertTrue(t.delete(D, k(1)));
            t.commit();
        }
        assertNull(read(1));
        committedInsert(1, "again");
        assertEquals("again", read(1));
    }

    @Test
    void readOnlyTransactionsCannotWrite() {
        try (Transaction t = tm.beginReadOnly()) {
            assertTrue(t.readOnly());
            TellException e = assertThrows(TellException.class, () -> t.put(D, k(1), b("x")));
            assertSame(ErrorCode.TX_STATE, e.code());
        }
    }

    @Test
    void lostUpdatesAreImpossible() throws Exception {
        committedInsert(0, "0");
        int threads = 8;
        int each = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        tm.run(1000, tx -> {
                            long n = Long.parseLong(new String(tx.get(D, k(0)), StandardCharsets.UTF_8));
                            tx.update(D, k(0), b(Long.toString(n + 1)));
                            return null;
                        });
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(Integer.toString(threads * each), read(0));
    }

    @Test
    void eagerGcBoundsVersionsPerRecord() {
        committedInsert(1, "0");
        for (int i = 0; i < 50; i++) {
            int n = i;
            tm.run(3, tx -> tx.update(D, k(1), b(Integer.toString(n))));
        }
        int versions = MvccRecord.decode(store.get(D, k(1)).value()).versions().size();
        assertTrue(versions <= 2, "versions kept: " + versions);
    }

    @Test
    void oldSnapshotStillReadsItsVersionWhileOthersWrite() {
        committedInsert(1, "v0");
        Transaction reader = tm.beginReadOnly();
        for (int i = 1; i <= 20; i++) {
            int n = i;
            tm.run(3, tx -> tx.update(D, k(1), b("v" + n)));
        }
        assertArrayEquals(b("v0"), reader.get(D, k(1)));
        reader.commit();
    }

    @Test
    void oneRowUpdateCostsThreeStoreRoundTripsAndTwoCommitManagerCalls() {
        CountingRecordStore counting = new CountingRecordStore(store);
        CountingCommitManager countingCm = new CountingCommitManager(cm);
        try (TransactionManager counted = new TransactionManager(counting, countingCm, "pn-count")) {
            committedInsert(1, "0");
            counted.run(1, tx -> tx.update(D, k(1), b("warm"))); // reserve tids etc.
            CountingRecordStore.Counts before = counting.counts();
            long cmBefore = countingCm.calls();
            try (Transaction t = counted.begin()) {
                t.get(D, k(1));
                t.update(D, k(1), b("1"));
                t.commit();
            }
            CountingRecordStore.Counts used = counting.counts().minus(before);
            assertEquals(1, used.reads(), "read");
            // log write + batch apply on the path; the commit manager removes the log entry
            assertEquals(2, used.writes(), "writes");
            assertEquals(0, used.increments() + used.scans());
            assertEquals(2, countingCm.calls() - cmBefore, "start + committed");
        }
    }

    /** A commit manager whose commit reports can be held back, to observe in-flight versions. */
    static final class GatedCommitManager implements CommitManager {
        private final CommitManager delegate;
        private volatile CountDownLatch gate = new CountDownLatch(0);
        private final CountDownLatch held = new CountDownLatch(1);

        GatedCommitManager(CommitManager delegate) {
            this.delegate = delegate;
        }

        void holdCommits() {
            gate = new CountDownLatch(1);
        }

        void awaitHeldCommit() throws InterruptedException {
            assertTrue(held.await(10, TimeUnit.SECONDS));
        }

        void release() {
            gate.countDown();
        }

        @Override
        public CompletableFuture<TxStart> startAsync(boolean readOnly) {
            return delegate.startAsync(readOnly);
        }

        @Override
        public CompletableFuture<Void> committedAsync(long tid, long logVersion) {
            return gated(tid, () -> delegate.committedAsync(tid, logVersion));
        }

        @Override
        public CompletableFuture<Void> decidedAsync(long tid, long entryVersion) {
            return gated(tid, () -> delegate.decidedAsync(tid, entryVersion));
        }

        private CompletableFuture<Void> gated(long tid, java.util.function.Supplier<CompletableFuture<Void>> report) {
            if (tid > 0 && gate.getCount() > 0) {
                held.countDown();
                CountDownLatch g = gate;
                return CompletableFuture.runAsync(() -> {
                    try {
                        g.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }).thenCompose(x -> report.get());
            }
            return report.get();
        }

        @Override
        public CompletableFuture<Void> abortedAsync(long tid) {
            return delegate.abortedAsync(tid);
        }

        @Override
        public CompletableFuture<Void> validatingAsync(long tid) {
            return delegate.validatingAsync(tid);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
