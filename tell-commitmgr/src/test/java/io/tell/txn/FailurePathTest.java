package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.store.ForwardingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * No failure path leaks a tid: whatever a transaction's user code, its indexes, the store or
 * the commit manager throw, the tid ends up reported and nothing it wrote stays behind.
 */
class FailurePathTest {
    private static final String T = "rows";
    private RecordStore mem;
    private BrokenStore store;
    private LocalCommitManager cm;
    private TransactionManager tm;

    /** The real store, or one whose next batch write (or batch read) throws a plain (non-Tell) exception. */
    static final class BrokenStore extends ForwardingRecordStore {
        volatile boolean breakNextBatch;
        volatile boolean breakGets;

        BrokenStore(RecordStore delegate) {
            super(delegate);
        }

        @Override
        public CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops) {
            if (breakNextBatch && ops.stream().anyMatch(o -> !o.isCheck() && o.key().domain().equals(T))) {
                breakNextBatch = false;
                throw new IllegalStateException("injected: a bug in the store client");
            }
            return delegate.writeAllAsync(ops);
        }

        @Override
        public CompletableFuture<List<Versioned>> getAllAsync(List<io.tell.store.RecordKey> keys) {
            if (breakGets) {
                breakGets = false;
                throw new IllegalStateException("injected: a bug in the store client");
            }
            return delegate.getAllAsync(keys);
        }

        @Override
        public String describe() {
            return "broken(" + delegate.describe() + ")";
        }
    }

    @BeforeEach
    void setUp() {
        mem = RecordStores.open("mem:");
        store = new BrokenStore(mem);
        cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
        tm = new TransactionManager(store, cm, "pn");
    }

    @AfterEach
    void tearDown() {
        tm.close();
        cm.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The tid is no longer running at the commit manager and a new snapshot's base is past it. */
    private void assertReported(long tid) {
        assertEnded(tid);
        assertNull(store.get(TxLog.DOMAIN, TxLog.key(tid)), "transaction-log entry of tid " + tid + " left behind");
    }

    /** Reported, whatever became of its log entry. */
    private void assertEnded(long tid) {
        assertTrue(cm.describe().endsWith("running=0"), "a transaction is still running: " + cm.describe());
        try (Transaction next = tm.beginReadOnly()) {
            assertTrue(next.snapshot().base() >= tid, "base " + next.snapshot().base() + " did not pass tid " + tid);
        }
    }

    private void assertNoVersionOf(long tid, byte[] key) {
        Versioned v = store.get(T, key);
        assertTrue(v == null || !MvccRecord.decode(v.value()).hasVersionOf(tid), "a version of tid " + tid + " is left");
    }

    @Test
    void runRollsBackOnARuntimeExceptionOfTheWork() {
        long[] tid = new long[1];
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> tm.run(3, tx -> {
            tid[0] = tx.tid();
            tx.put(T, b("k"), b("v"));
            throw new IllegalStateException("bug in the work");
        }));
        assertEquals("bug in the work", e.getMessage());
        assertReported(tid[0]);
    }

    @Test
    void runRollsBackOnAnErrorOfTheWork() {
        long[] tid = new long[1];
        assertThrows(AssertionError.class, () -> tm.run(3, tx -> {
            tid[0] = tx.tid();
            throw new AssertionError("an Error from user code");
        }));
        assertReported(tid[0]);
    }

    @Test
    void commitWhoseIndexInsertThrowsRevertsAndReports() {
        // The key function makes a key the tree refuses (over MAX_KEY_BYTES) for one row only.
        BTree tree = BTree.open(store, BTreeConfig.of("rows.v", false));
        tm.addIndex(new TableIndex(T, tree, false,
                row -> Arrays.equals(row, b("huge")) ? new byte[BTreeConfig.MAX_KEY_BYTES + 1] : row));
        tm.run(1, tx -> {
            tx.insert(T, TableIndex.ridKey(1), b("small"));
            return null;
        });
        Transaction tx = tm.begin();
        tx.insert(T, TableIndex.ridKey(2), b("ok"));
        tx.insert(T, TableIndex.ridKey(3), b("huge"));
        assertThrows(IllegalArgumentException.class, tx::commit);
        assertFalse(tx.isActive());
        assertReported(tx.tid());
        assertNoVersionOf(tx.tid(), TableIndex.ridKey(2));
        try (Transaction r = tm.beginReadOnly()) {
            assertEquals(List.of(), r.lookup(tm.indexesOf(T).get(0), b("ok")), "index entry of the aborted row left");
            assertNull(r.get(T, TableIndex.ridKey(2)));
        }
    }

    @Test
    void commitWhoseApplyBatchThrowsANonTellExceptionRevertsAndReports() {
        tm.run(1, tx -> {
            tx.insert(T, b("a"), b("old"));
            return null;
        });
        Transaction tx = tm.begin();
        tx.update(T, b("a"), b("new"));
        tx.insert(T, b("b"), b("x"));
        store.breakNextBatch = true;
        long before = System.currentTimeMillis();
        assertThrows(IllegalStateException.class, tx::commit);
        assertFalse(tx.isActive());
        assertEnded(tx.tid());
        assertNoVersionOf(tx.tid(), b("a"));
        assertNoVersionOf(tx.tid(), b("b"));
        // The batch may still land, so the absent record became a fence that says when it was
        // written, and the log entry that names it stays for the sweeper.
        MvccRecord fence = MvccRecord.decode(store.get(T, b("b")).value());
        assertTrue(fence.isEmpty() && fence.fencedAt() >= before, "fence written at " + fence.fencedAt());
        assertNotNull(store.get(TxLog.DOMAIN, TxLog.key(tx.tid())));
    }

    @Test
    void aCommitRefusedForGoodIsRevertedUnlessItsNodeDecidedIt() {
        CommitManager refusing = new DelegatingCommitManager(cm) {
            @Override
            public CompletableFuture<Void> committedAsync(long tid, long logVersion) {
                return CompletableFuture.failedFuture(TellException.of(ErrorCode.TX_STATE, "injected: refused"));
            }

            @Override
            public CompletableFuture<Void> decidedAsync(long tid, long entryVersion) {
                return committedAsync(tid, entryVersion);
            }
        };
        try (TransactionManager refused = new TransactionManager(store, refusing, "pn-2")) {
            // SERIALIZABLE: the commit manager decides, and refused to: not committed.
            Transaction tx = refused.begin(Isolation.SERIALIZABLE);
            tx.insert(T, b("a"), b("v"));
            TellException e = assertThrows(TellException.class, tx::commit);
            assertSame(ErrorCode.TX_STATE, e.code());
            assertFalse(tx.isActive());
            assertReported(tx.tid());
            assertNoVersionOf(tx.tid(), b("a"));
            // Snapshot isolation: the node decided (its entry is COMMITTED) before the report
            // was refused, so the commit stands: pending, nothing reverted.
            Transaction decided = refused.begin();
            decided.insert(T, b("d"), b("v"));
            TellException pending = assertThrows(TellException.class, decided::commit);
            assertSame(ErrorCode.TX_COMMIT_PENDING, pending.code(), pending.toString());
            assertTrue(MvccRecord.decode(store.get(T, b("d")).value()).hasVersionOf(decided.tid()), "the decided commit was reverted");
            assertSame(TxLog.State.COMMITTED, TxLog.decode(store.get(TxLog.DOMAIN, TxLog.key(decided.tid())).value()).state());
            cm.decidedAsync(decided.tid(), store.get(TxLog.DOMAIN, TxLog.key(decided.tid())).version()).join(); // as recovery would
        }
    }

    @Test
    void beginInterruptedWhileWaitingReleasesTheTidThatArrivesLater() {
        CompletableFuture<TxStart> late = new CompletableFuture<>();
        CommitManager slow = new DelegatingCommitManager(cm) {
            @Override
            public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
                return late;
            }
        };
        try (TransactionManager waiting = new TransactionManager(store, slow, "pn-2")) {
            Thread.currentThread().interrupt();
            assertThrows(TellException.class, waiting::begin);
            assertTrue(Thread.interrupted(), "the interrupt flag is kept");
            TxStart started = cm.start(false);
            late.complete(started);
            assertReported(started.tid());
        }
    }

    private boolean leaseOf(String nodeId) {
        return NodeLease.all(store).stream().anyMatch(l -> l.id().startsWith(nodeId + "."));
    }

    @Test
    void closeWaitsForReportsOnTheirWayAndKeepsTheLeaseOfOneNeverAcknowledged() {
        // A rollback's report is sent without waiting for its answer; a node that closes right
        // after must not drop it with its connection (the tid would stay running at the
        // commit manager), nor leave cleanly while one is unacknowledged.
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor();
        try {
            DelegatingCommitManager slow = new DelegatingCommitManager(cm) {
                @Override
                public CompletableFuture<Void> abortedAsync(long tid) {
                    CompletableFuture<Void> answer = new CompletableFuture<>();
                    later.schedule(() -> super.abortedAsync(tid).whenComplete((ok, e) -> answer.complete(null)),
                            300, TimeUnit.MILLISECONDS);
                    return answer;
                }
            };
            TransactionManager node = new TransactionManager(store, slow, "pn-slow");
            node.startLease(Duration.ofSeconds(5));
            Transaction tx = node.begin();
            tx.put(T, b("k"), b("v"));
            tx.rollback();
            node.close();
            assertTrue(cm.describe().endsWith("running=0"), "closed before its report arrived: " + cm.describe());
            assertFalse(leaseOf("pn-slow"), "a clean leave removes the lease");

            DelegatingCommitManager deaf = new DelegatingCommitManager(cm) {
                @Override
                public CompletableFuture<Void> abortedAsync(long tid) {
                    return new CompletableFuture<>(); // never answered
                }
            };
            TransactionManager stuck = new TransactionManager(store, deaf, "pn-deaf", Duration.ofMillis(200));
            stuck.startLease(Duration.ofSeconds(5));
            Transaction lost = stuck.begin();
            lost.rollback();
            stuck.close();
            assertTrue(leaseOf("pn-deaf"), "the lease stays for recovery to end the unreported tid");
        } finally {
            later.shutdownNow();
        }
    }

    @Test
    void commitWithoutWritesWhoseValidationThrowsReportsTheEnd() {
        tm.run(1, tx -> {
            tx.insert(T, b("a"), b("v"));
            return null;
        });
        // A commit manager that cannot tell which writers validated before a snapshot: a reader
        // then checks every newer version it read, here with a row projection that throws.
        DelegatingCommitManager unknowing = new DelegatingCommitManager(cm) {
            @Override
            public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
                return super.startAsync(readOnly, owner).thenApply(s -> new TxStart(s.tid(), s.snapshot(), s.lav()));
            }
        };
        long tid;
        try (TransactionManager readers = new TransactionManager(store, unknowing, "pn-2")) {
            Transaction tx = readers.begin(Isolation.SERIALIZABLE);
            tid = tx.tid();
            tm.run(1, w -> w.update(T, b("a"), b("w")));
            tx.get(T, b("a"), (x, y) -> {
                throw new IllegalStateException("injected: a bug in a row projection");
            });
            assertThrows(IllegalStateException.class, tx::commit);
            assertFalse(tx.isActive());
        }
        assertReported(tid);
    }

    /** Forwards every call to a real commit manager; tests override the one they break. */
    static class DelegatingCommitManager extends ForwardingCommitManager {
        private final CommitManager delegate;

        DelegatingCommitManager(CommitManager delegate) {
            this.delegate = delegate;
        }

        @Override
        protected CommitManager delegate() {
            return delegate;
        }

        @Override
        public void close() {
        }
    }
}
