package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * A processing node that stops mid-commit (at each commit step) and never comes back in
 * time: its lease expires, a commit manager recovers it, its rows are writable again, its
 * writes are gone and its tid is completed. When the stopped node then wakes up (a long pause,
 * not a crash) it cannot commit what recovery took over.
 */
class NodeRecoveryTest {
    private static final String D = "accounts";
    private static final Duration LEASE = Duration.ofMillis(200);

    private static byte[] k(int i) {
        return new byte[] {(byte) i};
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * One durable commit manager over a fresh store and two nodes on it with leases: one to stop
     * mid-commit (its lease short) and a survivor (its lease long enough never to expire on a
     * loaded machine).
     */
    private record Nodes(RecordStore store, LocalCommitManager cm, TransactionManager stopped, TransactionManager survivor)
            implements AutoCloseable {
        static Nodes start() {
            String url = "mem:recovery-" + UUID.randomUUID();
            RecordStore store = RecordStores.open(url);
            LocalCommitManager cm = LocalCommitManager.open(store, new LocalCommitManager.Options(10, true, Duration.ofMillis(100)));
            TransactionManager stopped = new TransactionManager(RecordStores.open(url), cm, "pn-stopped");
            TransactionManager survivor = new TransactionManager(RecordStores.open(url), cm, "pn-survivor");
            stopped.startLease(LEASE);
            survivor.startLease(Duration.ofSeconds(5));
            return new Nodes(store, cm, stopped, survivor);
        }

        @Override
        public void close() {
            survivor.close();
            stopped.close();
            cm.close();
        }
    }

    @ParameterizedTest
    @EnumSource(CommitObserver.Step.class)
    void aNodeStoppedMidCommitIsRecoveredAndItsRowsAreWritableAgain(CommitObserver.Step step) throws Exception {
        try (Nodes nodes = Nodes.start()) {
            RecordStore store = nodes.store();
            LocalCommitManager cm = nodes.cm();
            TransactionManager stopped = nodes.stopped();
            TransactionManager survivor = nodes.survivor();
            survivor.run(1, tx -> {
                tx.insert(D, k(1), b("one"));
                tx.insert(D, k(2), b("two"));
                return null;
            });
            Pause pause = pauseAt(stopped, step);
            CountDownLatch paused = pause.paused();
            CountDownLatch wake = pause.wake();
            AtomicLong pausedTid = pause.tid();
            java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                // SERIALIZABLE: the commit manager decides (under snapshot isolation the node's
                // last batch decides, so a node stopped at APPLIED has committed: see below).
                Transaction tx = stopped.begin(Isolation.SERIALIZABLE);
                tx.update(D, k(1), b("lost-1"));
                tx.update(D, k(2), b("lost-2"));
                tx.commit();
            }, thread);
            try {
                recoverAndWake(step, cm, store, stopped, survivor, paused, wake, pausedTid, commit);
            } finally {
                wake.countDown();
                thread.shutdown();
            }
        }
    }

    private static void recoverAndWake(CommitObserver.Step step, LocalCommitManager cm, RecordStore store,
                                       TransactionManager stopped, TransactionManager survivor, CountDownLatch paused,
                                       CountDownLatch wake, AtomicLong pausedTid, CompletableFuture<Void> commit) throws Exception {
        {
            assertTrue(paused.await(10, TimeUnit.SECONDS), "the commit never reached " + step);
            stopped.abandonLease(); // as a crash: no more heartbeats

            // The survivor can write both rows again once recovery has run.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (true) {
                try {
                    survivor.run(1, tx -> {
                        assertArrayEquals(b("one"), tx.get(D, k(1)), "the stopped node's write is gone");
                        assertArrayEquals(b("two"), tx.get(D, k(2)));
                        tx.update(D, k(1), b("survivor-1"));
                        tx.update(D, k(2), b("survivor-2"));
                        return null;
                    });
                    break;
                } catch (TellException e) {
                    assertTrue(e.retriable(), e.toString());
                    assertTrue(System.nanoTime() < deadline, "rows never became writable: " + cm.describe());
                    Thread.sleep(20);
                }
            }
            // The stopped node's tid is settled: the base passes it.
            long tid = pausedTid.get();
            while (cm.start(true).snapshot().base() < tid) {
                assertTrue(System.nanoTime() < deadline, "tid " + tid + " never settled: " + cm.describe());
                Thread.sleep(10);
            }
            assertEquals(1, cm.recoveredNodes(), cm.describe());
            TxLog.Entry log = TxLog.decode(store.get(TxLog.DOMAIN, TxLog.key(tid)).value());
            assertEquals(TxLog.State.FENCED, log.state(), "recovery fenced the entry");

            // The node wakes up: whatever it does, its old transaction does not commit.
            wake.countDown();
            Throwable failure = assertThrowsLater(commit);
            TellException te = TellException.unwrap(failure);
            assertTrue(te.code() == ErrorCode.TX_FENCED || te.code() == ErrorCode.TX_CONFLICT, te.toString());
            Transaction check = survivor.beginReadOnly();
            assertArrayEquals(b("survivor-1"), check.get(D, k(1)));
            assertArrayEquals(b("survivor-2"), check.get(D, k(2)));
            check.commit();
        }
    }

    /**
     * A stopped node's insert of a unique key, at each commit step: once recovered, the key is
     * free again — its index entry (if added) is stale and skipped, its claim (if written) is
     * taken over — and a lookup finds exactly the survivor's row.
     */
    @ParameterizedTest
    @EnumSource(CommitObserver.Step.class)
    void aStoppedNodesUniqueKeyIsFreeAfterRecovery(CommitObserver.Step step) throws Exception {
        String table = "people";
        try (Nodes nodes = Nodes.start()) {
            LocalCommitManager cm = nodes.cm();
            TransactionManager stopped = nodes.stopped();
            TransactionManager survivor = nodes.survivor();
            TableIndex[] byName = new TableIndex[2];
            int i = 0;
            for (TransactionManager tm : List.of(stopped, survivor)) {
                byName[i] = new TableIndex(table, io.tell.index.BTree.open(tm.store(),
                        io.tell.index.BTreeConfig.of("people.name", false).withNodeCapacity(8)), true, row -> row);
                tm.addIndex(byName[i++]);
            }
            CountDownLatch paused = new CountDownLatch(1);
            CountDownLatch wake = new CountDownLatch(1);
            stopped.observeCommits((reached, tid) -> {
                if (reached == step) {
                    paused.countDown();
                    await(wake);
                }
            });
            java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> stopped.run(1, Isolation.SERIALIZABLE, tx -> {
                tx.insertNew(table, TableIndex.ridKey(10), b("ada"));
                tx.insertNew(table, TableIndex.ridKey(12), b("bob"));
                return null;
            }), thread);
            try {
                assertTrue(paused.await(10, TimeUnit.SECONDS), "the commit never reached " + step);
                stopped.abandonLease();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (true) {
                    try {
                        survivor.run(1, tx -> {
                            tx.insertNew(table, TableIndex.ridKey(11), b("ada"));
                            return null;
                        });
                        break;
                    } catch (TellException e) {
                        // DUPLICATE_KEY until recovery reverted the stopped node's row (its claim then is stale).
                        assertTrue(e.retriable() || e.code() == ErrorCode.DUPLICATE_KEY, e.toString());
                        assertTrue(System.nanoTime() < deadline, "the key never became free: " + cm.describe());
                        Thread.sleep(20);
                    }
                }
                Transaction check = survivor.beginReadOnly();
                List<IndexedRow> found = check.lookup(byName[1], b("ada"));
                assertEquals(1, found.size());
                assertEquals(11, found.get(0).rid());
                assertTrue(check.lookup(byName[1], b("bob")).isEmpty(), "the stopped node's other row is gone");
                check.commit();
            } finally {
                wake.countDown();
                thread.shutdown();
            }
            Throwable failure = assertThrowsLater(commit);
            assertTrue(TellException.unwrap(failure).retriable() || TellException.unwrap(failure).code() == ErrorCode.DUPLICATE_KEY,
                    failure.toString());
            Transaction again = survivor.beginReadOnly();
            assertEquals(1, again.lookup(byName[1], b("ada")).size());
            assertTrue(again.lookup(byName[1], b("bob")).isEmpty());
            again.commit();
        }
    }

    /**
     * Under snapshot isolation the last batch of a commit also moves its log entry to COMMITTED:
     * a node stopped after it (at APPLIED) has committed. Recovery completes the commit instead
     * of reverting it, and the node, woken up, reports it and returns normally.
     */
    @Test
    void aNodeStoppedAfterDecidingItsCommitIsRecoveredCommitted() throws Exception {
        try (Nodes nodes = Nodes.start()) {
            RecordStore store = nodes.store();
            LocalCommitManager cm = nodes.cm();
            TransactionManager stopped = nodes.stopped();
            TransactionManager survivor = nodes.survivor();
            survivor.run(1, tx -> {
                tx.insert(D, k(1), b("one"));
                return null;
            });
            Pause pause = pauseAt(stopped, CommitObserver.Step.APPLIED);
            CountDownLatch paused = pause.paused();
            CountDownLatch wake = pause.wake();
            AtomicLong pausedTid = pause.tid();
            java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                Transaction tx = stopped.begin();
                tx.update(D, k(1), b("decided"));
                tx.commit();
            }, thread);
            try {
                assertTrue(paused.await(10, TimeUnit.SECONDS), "the commit never reached APPLIED");
                assertEquals(TxLog.State.COMMITTED, TxLog.decode(store.get(TxLog.DOMAIN, TxLog.key(pausedTid.get())).value()).state());
                stopped.abandonLease();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (cm.recoveredNodes() < 1 || cm.start(true).snapshot().base() < pausedTid.get()) {
                    assertTrue(System.nanoTime() < deadline, "the decided commit was never completed: " + cm.describe());
                    Thread.sleep(10);
                }
                try (Transaction check = survivor.beginReadOnly()) {
                    assertArrayEquals(b("decided"), check.get(D, k(1)), "recovery kept the decided commit");
                }
                wake.countDown();
                commit.get(20, TimeUnit.SECONDS); // the woken node reports it and returns normally
                survivor.run(1, tx -> tx.update(D, k(1), b("after")));
            } finally {
                wake.countDown();
                thread.shutdown();
            }
        }
    }

    @Test
    void aNodeThatLeavesCleanlyLeavesNoLeaseToRecover() throws Exception {
        String url = "mem:recovery-" + UUID.randomUUID();
        RecordStore store = RecordStores.open(url);
        try (LocalCommitManager cm = LocalCommitManager.open(store, new LocalCommitManager.Options(10, true, Duration.ofMillis(100)))) {
            try (TransactionManager node = new TransactionManager(RecordStores.open(url), cm, "pn-clean")) {
                node.startLease(LEASE);
                node.run(1, tx -> {
                    tx.insert(D, k(1), b("x"));
                    return null;
                });
                assertFalse(NodeLease.all(store).isEmpty());
            }
            assertEquals(List.of(), NodeLease.all(store));
            Thread.sleep(LEASE.toMillis() * 3);
            assertEquals(0, cm.recoveredNodes());
            assertNull(store.get(TxLog.DOMAIN, TxLog.key(1)), "no log entry left behind");
        }
    }

    /** A commit of {@code node} that stops at {@code step} until {@code wake}; {@code tid} is the stopped one. */
    private record Pause(CountDownLatch paused, CountDownLatch wake, AtomicLong tid) {
    }

    private static Pause pauseAt(TransactionManager node, CommitObserver.Step step) {
        Pause pause = new Pause(new CountDownLatch(1), new CountDownLatch(1), new AtomicLong());
        node.observeCommits((reached, tid) -> {
            if (reached == step) {
                pause.tid().set(tid);
                pause.paused().countDown();
                await(pause.wake());
            }
        });
        return pause;
    }

    private static Throwable assertThrowsLater(CompletableFuture<Void> commit) throws InterruptedException {
        try {
            commit.get(20, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the woken commit never ended", e);
        }
        throw new AssertionError("the stopped node committed a transaction its recovery took over");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
