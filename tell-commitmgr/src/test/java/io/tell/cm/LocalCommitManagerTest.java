package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.error.TellRetriableException;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import io.tell.txn.TxLog;
import io.tell.txn.TxStart;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LocalCommitManagerTest {
    private static final Duration LONG_GRACE = Duration.ofHours(1);

    private static String uniqueStore() {
        return "mem:cm-" + UUID.randomUUID();
    }

    private static LocalCommitManager durable(RecordStore store, int tidRange, Duration grace) {
        return LocalCommitManager.open(store, new LocalCommitManager.Options(tidRange, true, grace));
    }

    private static TellException failure(Runnable call) {
        return assertThrows(TellException.class, call::run);
    }

    @Test
    void tidsStrictlyIncreaseAcrossRanges() {
        for (boolean isDurable : new boolean[] {false, true}) {
            try (LocalCommitManager cm = LocalCommitManager.open(RecordStores.open("mem:"),
                    new LocalCommitManager.Options(3, isDurable, LONG_GRACE))) {
                long last = 0;
                for (int i = 0; i < 50; i++) {
                    TxStart s = cm.start(false);
                    assertTrue(s.tid() > last, "tid " + s.tid() + " after " + last);
                    last = s.tid();
                    if (i % 2 == 0) {
                        cm.committed(s.tid());
                    }
                }
            }
        }
    }

    @Test
    void acknowledgedCommitIsVisibleToLaterSnapshotsOnly() {
        try (LocalCommitManager cm = LocalCommitManager.open(RecordStores.open("mem:"), LocalCommitManager.Options.embedded())) {
            TxStart writer = cm.start(false);
            assertFalse(writer.snapshot().isVisible(writer.tid()), "own tid is never in own snapshot");
            TxStart before = cm.start(false);
            TxStart beforeReader = cm.start(true);
            cm.committed(writer.tid());
            TxStart after = cm.start(false);
            TxStart afterReader = cm.start(true);
            assertFalse(before.snapshot().isVisible(writer.tid()));
            assertFalse(beforeReader.snapshot().isVisible(writer.tid()));
            assertTrue(after.snapshot().isVisible(writer.tid()));
            assertTrue(afterReader.snapshot().isVisible(writer.tid()));
            assertFalse(after.snapshot().isVisible(before.tid()), "still running");
            assertFalse(after.snapshot().isVisible(after.tid()));
        }
    }

    @Test
    void aStartKnowsTheManagersWritersAndWhichOfThemValidate() {
        for (boolean isDurable : new boolean[] {false, true}) {
            RecordStore store = RecordStores.open(uniqueStore());
            try (LocalCommitManager cm = LocalCommitManager.open(store, new LocalCommitManager.Options(4, isDurable, LONG_GRACE))) {
                TxStart w0 = cm.start(false);
                TxStart w1 = cm.start(false);
                TxStart w2 = cm.start(false);
                assertTrue(w1.writers().hears(w1.tid()), "a writer reports to the manager that started it");
                cm.validatingAsync(w1.tid()).join();
                TxStart same = cm.start(true);
                assertFalse(same.mayPrecedeSnapshot(w1.tid()), "validating, but nothing completed since: it precedes nothing seen");
                cm.committed(w0.tid());
                TxStart reader = cm.start(true);
                TxStart w3 = cm.start(false);
                assertTrue(reader.mayPrecedeSnapshot(w1.tid()), "validating, and a commit completed since");
                assertFalse(reader.mayPrecedeSnapshot(w2.tid()), "running, not validating: validates after the snapshot");
                assertFalse(reader.mayPrecedeSnapshot(w3.tid()), "issued after the snapshot");
                assertTrue(reader.mayPrecedeSnapshot(reader.writers().to() + 1000), "a tid the manager does not know");

                cm.committed(w1.tid());
                TxStart later = cm.start(true);
                assertTrue(later.snapshot().isVisible(w1.tid()));
                assertFalse(later.mayPrecedeSnapshot(w1.tid()), "its outcome is in the snapshot: no longer validating");
                assertEquals(ErrorCode.TX_CONFLICT, TellException.unwrap(assertThrows(Exception.class,
                        () -> cm.validatingAsync(w1.tid()).join())).code(), "no longer running");
                assertEquals(ErrorCode.TX_CONFLICT, TellException.unwrap(assertThrows(Exception.class,
                        () -> cm.validatingAsync(later.tid()).join())).code(), "a reader id");
                if (isDurable) {
                    try (LocalCommitManager other = durable(store, 4, LONG_GRACE)) {
                        assertEquals(ErrorCode.TX_CONFLICT, TellException.unwrap(assertThrows(Exception.class,
                                () -> other.validatingAsync(w2.tid()).join())).code(), "started by another member");
                        assertTrue(other.start(true).mayPrecedeSnapshot(w2.tid()), "another member's writer is unknown");
                    }
                }
                cm.aborted(w2.tid());
                cm.aborted(w3.tid());
            }
        }
    }

    @Test
    void durableCommitIsVisibleOnceAcknowledged() {
        try (LocalCommitManager cm = durable(RecordStores.open("mem:"), 10, LONG_GRACE)) {
            for (int i = 0; i < 20; i++) {
                TxStart t = cm.start(false);
                cm.committed(t.tid());
                assertTrue(cm.start(true).snapshot().isVisible(t.tid()));
            }
        }
    }

    @Test
    void readOnlyTransactionsHoldLavBack() {
        try (LocalCommitManager cm = LocalCommitManager.open(RecordStores.open("mem:"), LocalCommitManager.Options.embedded())) {
            TxStart w1 = cm.start(false);
            cm.committed(w1.tid());
            TxStart reader = cm.start(true);
            assertTrue(reader.readOnly());
            assertEquals(w1.tid(), reader.lav());
            TxStart w2 = cm.start(false);
            cm.committed(w2.tid());
            assertEquals(w1.tid(), cm.start(false).lav(), "the reader still reads at base " + w1.tid());
            cm.committed(reader.tid());
            TxStart w4 = cm.start(false);
            assertTrue(w4.lav() > w1.tid(), "released: " + w4);
        }
    }

    @Test
    void readerIdsAreUniqueAcrossIncarnations() {
        String url = uniqueStore();
        long oldReader;
        try (LocalCommitManager cm = durable(RecordStores.open(url), 10, LONG_GRACE)) {
            oldReader = cm.start(true).tid();
        }
        try (LocalCommitManager cm = durable(RecordStores.open(url), 10, LONG_GRACE)) {
            TxStart reader = cm.start(true);
            assertTrue(reader.tid() < 0);
            assertTrue(reader.tid() != oldReader);
            cm.committed(oldReader); // an earlier incarnation's reader: accepted, changes nothing
            assertTrue(cm.describe().contains("running=1"), cm.describe());
            assertEquals(ErrorCode.TX_STATE, failure(() -> cm.committed(reader.tid() - 5)).code());
            cm.committed(reader.tid());
            cm.committed(reader.tid());
            assertTrue(cm.describe().contains("running=0"), cm.describe());
        }
    }

    @Test
    void unknownTidReportsFailWithTxState() {
        try (LocalCommitManager cm = LocalCommitManager.open(RecordStores.open("mem:"), LocalCommitManager.Options.embedded())) {
            TxStart t = cm.start(false);
            for (long bad : new long[] {0, t.tid() + 1, t.tid() + 1_000_000, Long.MIN_VALUE}) {
                TellException e = failure(() -> cm.committed(bad));
                assertEquals(ErrorCode.TX_STATE, e.code(), "tid " + bad);
                assertFalse(e.retriable());
                assertEquals(ErrorCode.TX_STATE, failure(() -> cm.aborted(bad)).code());
            }
            cm.aborted(t.tid());
            cm.aborted(t.tid());
        }
    }

    @Test
    void durableRestartContinuesTidsAndKeepsCompletedAndInDoubtState() {
        String url = uniqueStore();
        TxStart committed;
        TxStart aborted;
        TxStart unreported;
        try (LocalCommitManager cm = durable(RecordStores.open(url), 10, LONG_GRACE)) {
            committed = cm.start(false);
            unreported = cm.start(false);
            aborted = cm.start(false);
            cm.committed(committed.tid());
            cm.aborted(aborted.tid());
        }
        try (LocalCommitManager cm = durable(RecordStores.open(url), 10, LONG_GRACE)) {
            TxStart next = cm.start(false);
            assertTrue(next.tid() > aborted.tid(), "tids continue above the old ones: " + next.tid());
            assertTrue(next.tid() > 10, "the old range may have been handed out: " + next.tid());
            assertTrue(next.snapshot().isVisible(committed.tid()));
            assertFalse(next.snapshot().isVisible(unreported.tid()), "in doubt stays invisible");
            // Its owner was alive all along and reports to the new incarnation.
            cm.committed(unreported.tid());
            assertTrue(cm.start(true).snapshot().isVisible(unreported.tid()));
            assertEquals(ErrorCode.TX_STATE, failure(() -> cm.committed(next.tid() + 500)).code());
        }
        try (LocalCommitManager cm = durable(RecordStores.open(url), 10, LONG_GRACE)) {
            assertTrue(cm.start(true).snapshot().isVisible(unreported.tid()), "a late report is journaled too");
        }
    }

    @Test
    void inDoubtTidsAreSettledAfterTheGraceByTheirLogEntries() throws Exception {
        String url = uniqueStore();
        RecordStore store = RecordStores.open(url);
        java.util.concurrent.ScheduledExecutorService timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        io.tell.txn.NodeLease live = io.tell.txn.NodeLease.acquire(store, "pn-live", Duration.ofSeconds(30), () -> Long.MAX_VALUE, timer);
        TxStart logged;
        TxStart orphan;
        TxStart silent;
        try (LocalCommitManager cm = durable(store, 5, LONG_GRACE)) {
            logged = cm.start(false);
            orphan = cm.start(false);
            silent = cm.start(false);
            // logged's node (alive, holding its lease) and orphan's (gone, no lease) wrote their
            // log entries before their commit manager went away; silent's node did not.
            assertTrue(store.write(WriteOp.insert(TxLog.DOMAIN, TxLog.key(logged.tid()), entry(TxLog.State.WRITING, live.id()))).written());
            assertTrue(store.write(WriteOp.insert(TxLog.DOMAIN, TxLog.key(orphan.tid()), entry(TxLog.State.WRITING, "pn-gone"))).written());
            cm.crash();
        }
        try (LocalCommitManager cm = durable(store, 5, Duration.ofMillis(50))) {
            TxStart first = cm.start(false);
            assertFalse(first.snapshot().isVisible(silent.tid()), "not settled before the grace");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            // Settled one by one: the silent and the orphan tid, and the old range's tids never handed out.
            while (!allVisible(cm, orphan.tid(), silent.tid(), silent.tid() + 1, 5)) {
                assertTrue(System.nanoTime() < deadline, "settling did not happen: " + cm.describe());
                Thread.sleep(10);
            }
            assertEquals(TxLog.State.FENCED, TxLog.decode(store.get(TxLog.DOMAIN, TxLog.key(silent.tid())).value()).state());
            assertEquals(TxLog.State.FENCED, TxLog.decode(store.get(TxLog.DOMAIN, TxLog.key(orphan.tid())).value()).state());
            // The owner of the fenced tid can no longer log and must abort.
            WriteResult late = store.write(WriteOp.insert(TxLog.DOMAIN, TxLog.key(silent.tid()), entry(TxLog.State.WRITING, "pn")));
            assertInstanceOf(WriteResult.Conflict.class, late);
            // The logged one of a live node waits for that node's report.
            TxStart later = cm.start(false);
            assertFalse(later.snapshot().isVisible(logged.tid()));
            assertEquals(TxLog.State.WRITING, TxLog.decode(store.get(TxLog.DOMAIN, TxLog.key(logged.tid())).value()).state());
            assertTrue(later.snapshot().base() < logged.tid());
            // Reserved but never handed out tids of the old range were settled as well.
            for (long t = silent.tid() + 1; t <= 5; t++) {
                assertTrue(later.snapshot().isVisible(t), "tid " + t);
            }
            long version = store.get(TxLog.DOMAIN, TxLog.key(logged.tid())).version();
            cm.committedAsync(logged.tid(), version).get(10, TimeUnit.SECONDS); // its node reports through the new manager
            assertTrue(cm.start(true).snapshot().base() >= 5);
        } finally {
            live.close();
            timer.shutdownNow();
        }
    }

    @Test
    void aCommitFencedByRecoveryIsRefusedAndACommitDecidedFirstStands() throws Exception {
        RecordStore store = RecordStores.open(uniqueStore());
        try (LocalCommitManager cm = durable(store, 10, LONG_GRACE)) {
            TxStart fenced = cm.start(false);
            TxStart decided = cm.start(false);
            long fencedLog = store.write(WriteOp.insert(TxLog.DOMAIN, TxLog.key(fenced.tid()), entry(TxLog.State.WRITING, "pn-x"))).version();
            long decidedLog = store.write(WriteOp.insert(TxLog.DOMAIN, TxLog.key(decided.tid()), entry(TxLog.State.WRITING, "pn-x"))).version();
            // Recovery wins the race for one: it moves the entry to FENCED on the version it read.
            assertTrue(store.write(new WriteOp(TxLog.recordKey(fenced.tid()), entry(TxLog.State.FENCED, "pn-x"),
                    io.tell.store.Expect.version(fencedLog))).written());
            java.util.concurrent.ExecutionException refused = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> cm.committedAsync(fenced.tid(), fencedLog).get(10, TimeUnit.SECONDS));
            assertEquals(ErrorCode.TX_FENCED, TellException.unwrap(refused.getCause()).code());
            assertFalse(cm.start(true).snapshot().isVisible(fenced.tid()), "a refused commit is not made visible");
            // The other commit is decided first; a fence that comes later loses.
            cm.committedAsync(decided.tid(), decidedLog).get(10, TimeUnit.SECONDS);
            assertTrue(cm.start(true).snapshot().isVisible(decided.tid()));
            assertFalse(store.write(new WriteOp(TxLog.recordKey(decided.tid()), entry(TxLog.State.FENCED, "pn-x"),
                    io.tell.store.Expect.version(decidedLog))).written());
            // A resent report of the decided commit is acknowledged again.
            cm.committedAsync(decided.tid(), decidedLog).get(10, TimeUnit.SECONDS);
        }
    }

    private static byte[] entry(TxLog.State state) {
        return entry(state, "pn-test");
    }

    private static byte[] entry(TxLog.State state, String node) {
        return TxLog.encode(new TxLog.Entry(state, node, System.currentTimeMillis(), List.of()));
    }

    @Test
    void groupCommitNeverWritesMoreThanOnceAReport() throws Exception {
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        try (LocalCommitManager cm = durable(store, 1000, LONG_GRACE)) {
            List<TxStart> started = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                started.add(cm.start(false));
            }
            CountingRecordStore.Counts before = store.counts();
            List<CompletableFuture<Void>> acks = new ArrayList<>();
            for (TxStart s : started) {
                acks.add(cm.committedAsync(s.tid()));
            }
            CompletableFuture.allOf(acks.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
            // A completion without a log entry is acknowledged first and published by the flush
            // right after (ClusterMember.flush): wait for that publish before counting.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (store.counts().minus(before).writes() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(50); // a flush still running when the first write was counted
            long writes = store.counts().minus(before).writes();
            assertTrue(writes >= 1 && writes <= 200, "journal writes: " + writes);
        }
    }

    @Test
    void twoManagersServeAtOnceWithConsistentSnapshots() throws Exception {
        String url = uniqueStore();
        try (LocalCommitManager first = durable(RecordStores.open(url), 10, LONG_GRACE);
             LocalCommitManager second = durable(RecordStores.open(url), 10, LONG_GRACE)) {
            TxStart a = first.start(false);
            TxStart b = second.start(false);
            assertTrue(a.tid() != b.tid());
            // In flight on one manager: invisible in the other's snapshots, however long we look.
            second.committed(b.tid());
            for (int i = 0; i < 20; i++) {
                assertFalse(second.start(true).snapshot().isVisible(a.tid()), "in-flight tid of the other manager visible");
                Thread.sleep(2);
            }
            // A commit acknowledged by one becomes visible at the other within a few sync periods.
            awaitVisible(first, b.tid());
            // A transaction begun on one manager commits through the other.
            second.committed(a.tid());
            awaitVisible(first, a.tid());
            awaitVisible(second, a.tid());
            // The others' reserved ranges do not hold the base back for good: idle ranges are given up.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (second.start(true).snapshot().base() < Math.max(a.tid(), b.tid())) {
                assertTrue(System.nanoTime() < deadline, "base stuck: " + second.describe());
                Thread.sleep(5);
            }
        }
    }

    @Test
    void completionsNobodyResendsSurviveAStoreOutage() throws Exception {
        FlakyStore store = new FlakyStore(RecordStores.open(uniqueStore()));
        try (LocalCommitManager cm = durable(store, 10, LONG_GRACE)) {
            TxStart t = cm.start(false);
            cm.committed(t.tid());
            // Acknowledged before it is published: let the publication end, so the manager is idle.
            long published = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ClusterStatus.read(store, java.time.Duration.ZERO).base() < t.tid()) {
                assertTrue(System.nanoTime() < published, "commit never published: " + cm.describe());
                Thread.sleep(1);
            }
            // The store goes away while the idle manager gives up its unissued tids (2..10):
            // nobody will ever report those, so the manager itself must get them published.
            store.down = true;
            Thread.sleep(200);
            store.down = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!allVisible(cm, 2, 5, 10)) {
                assertTrue(System.nanoTime() < deadline, "given-up tids never published: " + cm.describe());
                Thread.sleep(10);
            }
        }
    }

    private static boolean allVisible(LocalCommitManager cm, long... tids) {
        TxStart probe = cm.start(true);
        cm.committed(probe.tid());
        for (long t : tids) {
            if (!probe.snapshot().isVisible(t)) {
                return false;
            }
        }
        return true;
    }

    private static void awaitVisible(LocalCommitManager cm, long tid) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!cm.start(true).snapshot().isVisible(tid)) {
            assertTrue(System.nanoTime() < deadline, "tid " + tid + " never became visible: " + cm.describe());
            Thread.sleep(2);
        }
    }

    @Test
    void storeFailureWhileReservingTidsFailsStartsPromptly() {
        FlakyStore store = new FlakyStore(RecordStores.open("mem:"));
        try (LocalCommitManager cm = LocalCommitManager.open(store, new LocalCommitManager.Options(2, false, Duration.ZERO))) {
            cm.start(false);
            cm.start(false); // uses the prefetched range
            store.down = true;
            long seen = 0;
            TellException e = null;
            for (int i = 0; i < 5 && e == null; i++) {
                try {
                    seen = cm.start(false).tid();
                } catch (TellException failed) {
                    e = failed;
                }
            }
            assertNotNull(e, "a start needs a new range at least every other call");
            assertEquals(ErrorCode.CM_UNAVAILABLE, e.code());
            store.down = false;
            assertTrue(cm.start(false).tid() > seen, "recovers when the store is back");
        }
    }

    @Test
    void aRangeWhoseReservationAnswerWasLostDoesNotHoldTheBaseBack() {
        FlakyStore store = new FlakyStore(RecordStores.open("mem:"));
        try (LocalCommitManager cm = LocalCommitManager.open(store, new LocalCommitManager.Options(2, false, Duration.ZERO))) {
            TxStart t1 = cm.start(false);
            store.loseIncrementAnswers = true; // the prefetch after the next start takes 3..4 but fails
            TxStart t2 = cm.start(false);
            store.loseIncrementAnswers = false;
            TxStart t5;
            try {
                t5 = cm.start(false);
            } catch (TellException e) {
                // It waited for the failing prefetch (still in flight): retriable, as a client would.
                assertEquals(ErrorCode.CM_UNAVAILABLE, e.code());
                t5 = cm.start(false);
            }
            assertEquals(List.of(1L, 2L, 5L), List.of(t1.tid(), t2.tid(), t5.tid()));
            for (TxStart t : List.of(t1, t2, t5)) {
                cm.committed(t.tid());
            }
            assertEquals(5, cm.start(true).snapshot().base(), cm.describe());
        }
    }

    @Test
    void closedManagerRefusesCallsAsUnavailable() {
        LocalCommitManager cm = LocalCommitManager.open(RecordStores.open("mem:"), LocalCommitManager.Options.embedded());
        TxStart t = cm.start(false);
        cm.close();
        assertEquals(ErrorCode.CM_UNAVAILABLE, failure(() -> cm.start(false)).code());
        assertEquals(ErrorCode.CM_UNAVAILABLE, failure(() -> cm.committed(t.tid())).code());
    }

    @Test
    void blockingCallOnTheJournalThreadIsRefusedNotDeadlocked() throws Exception {
        FlakyStore store = new FlakyStore(RecordStores.open("mem:"));
        try (LocalCommitManager cm = durable(store, 10, LONG_GRACE)) {
            TxStart t = cm.start(false);
            AtomicReference<Throwable> seen = new AtomicReference<>();
            long logVersion = writingEntry(store, t.tid());
            java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
            store.writeGate = gate; // holds the decision's write, so the ack completes on the journal thread
            CompletableFuture<Void> ack = cm.committedAsync(t.tid(), logVersion);
            CompletableFuture<Void> callback = ack.thenRun(() -> {
                try {
                    cm.committed(cm.start(false).tid());
                } catch (Throwable e) {
                    seen.set(e);
                }
            });
            gate.countDown();
            store.writeGate = null;
            callback.get(10, TimeUnit.SECONDS);
            assertInstanceOf(IllegalStateException.class, seen.get());
        }
    }

    @Test
    void aCommitToDecideBecomesVisibleOnlyWithItsDecision() throws Exception {
        FlakyStore store = new FlakyStore(RecordStores.open("mem:"));
        try (LocalCommitManager cm = durable(store, 10, LONG_GRACE)) {
            long tid = cm.start(false).tid();
            long logVersion = writingEntry(store, tid);
            store.writeGate = new java.util.concurrent.CountDownLatch(1);
            CompletableFuture<Void> ack = cm.committedAsync(tid, logVersion);
            // The decision (the entry's move to COMMITTED) is held: neither acknowledged nor visible.
            assertFalse(ack.isDone());
            assertFalse(cm.start(true).snapshot().isVisible(tid), "visible before it was decided");
            store.writeGate.countDown();
            ack.get(10, TimeUnit.SECONDS);
            assertTrue(cm.start(true).snapshot().isVisible(tid));
        }
    }

    @Test
    void aCommitDecidedByItsNodeIsVisibleAtOnceWithoutAStoreWrite() throws Exception {
        FlakyStore store = new FlakyStore(RecordStores.open("mem:"));
        try (LocalCommitManager cm = durable(store, 10, LONG_GRACE)) {
            long tid = cm.start(false).tid();
            long logVersion = writingEntry(store, tid);
            WriteResult decided = store.write(new WriteOp(TxLog.recordKey(tid), TxLog.encode(
                    new TxLog.Entry(TxLog.State.COMMITTED, "pn", System.currentTimeMillis(), List.of())), io.tell.store.Expect.version(logVersion)));
            store.writeGate = new java.util.concurrent.CountDownLatch(1); // every store write held
            CompletableFuture<Void> ack = cm.decidedAsync(tid, decided.version());
            assertTrue(ack.isDone(), "a decided commit waits for no store write");
            assertTrue(cm.start(true).snapshot().isVisible(tid));
            store.writeGate.countDown();
            // Its entry goes once a record naming the tid completed is published.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (store.get(TxLog.DOMAIN, TxLog.key(tid)) != null) {
                assertTrue(System.nanoTime() < deadline, "the decided entry was never deleted");
                Thread.sleep(5);
            }
        }
    }

    @Test
    void aStreamOfDecidedCommitsPublishesOncePerSyncPeriodNotOncePerReport() throws Exception {
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        try (LocalCommitManager cm = durable(store, 1000, LONG_GRACE)) {
            int reports = 200;
            List<long[]> decided = new ArrayList<>(); // {tid, entry version}
            for (int i = 0; i < reports; i++) {
                long tid = cm.start(false).tid();
                decided.add(new long[] {tid, store.write(new WriteOp(TxLog.recordKey(tid), entry(TxLog.State.COMMITTED, "pn"),
                        io.tell.store.Expect.ABSENT)).version()});
            }
            CountingRecordStore.Counts before = store.counts();
            long began = System.nanoTime();
            for (long[] d : decided) {
                cm.decidedAsync(d[0], d[1]).get(10, TimeUnit.SECONDS);
                java.util.concurrent.locks.LockSupport.parkNanos(200_000); // each report its own group
            }
            long periods = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began) / ClusterMember.SYNC_MILLIS + 2;
            long lastTid = decided.get(reports - 1)[0];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ClusterStatus.read(store, Duration.ZERO).base() < lastTid
                    || decided.stream().anyMatch(d -> store.get(TxLog.DOMAIN, TxLog.key(d[0])) != null)) {
                assertTrue(System.nanoTime() < deadline, "completions never all published and their entries deleted: " + cm.describe());
                Thread.sleep(5);
            }
            // Each publish is the member record, then the published entries' delete; a ClusterStatus
            // read writes nothing. Publishing per report would make 2 writes per report (about 400
            // here); at most two publishes a period (a late tick behind a flush) leaves slack.
            long writes = store.counts().minus(before).writes();
            assertTrue(writes <= 2 * (2 * periods + 4), writes + " writes for " + reports + " reports in " + periods + " sync periods");
        }
    }

    @Test
    void theTidsOtherMembersMayHaveHandedOutLeaveOutTheMemberOfTheGivenTid() {
        String url = uniqueStore();
        RecordStore store = RecordStores.open(url);
        try (LocalCommitManager first = durable(RecordStores.open(url), 10, LONG_GRACE);
             LocalCommitManager second = durable(RecordStores.open(url), 10, LONG_GRACE)) {
            long ofFirst = first.start(false).tid();
            long ofSecond = second.start(false).tid();
            assertTrue(ofSecond > ofFirst, ofFirst + " then " + ofSecond);
            assertTrue(ClusterStatus.highestReservedElsewhere(store, ofFirst) >= ofSecond, "the second's range counts for the first's tid");
            assertTrue(ClusterStatus.highestReservedElsewhere(store, ofSecond) < ofSecond,
                    "the second's own range does not count for its tid: its later tids were handed out after it");
        }
        String single = uniqueStore();
        try (LocalCommitManager alone = durable(RecordStores.open(single), 10, LONG_GRACE)) {
            long tid = alone.start(false).tid();
            assertEquals(0, ClusterStatus.highestReservedElsewhere(RecordStores.open(single), tid), "one member: its marker alone");
        }
    }

    @Test
    void aMemberThatServesOnlyReadersGivesItsUnissuedTidsUp() throws Exception {
        try (LocalCommitManager cm = durable(RecordStores.open(uniqueStore()), 10, LONG_GRACE)) {
            long tid = cm.start(false).tid();
            cm.committed(tid);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            TxStart reader;
            do { // a reader every 2 ms: no 20 ms without a start, but none takes a tid
                assertTrue(System.nanoTime() < deadline, "unissued tids never given up: " + cm.describe());
                reader = cm.start(true);
                cm.committed(reader.tid());
                Thread.sleep(2);
            } while (reader.snapshot().base() < tid + 9);
        }
    }

    private static long writingEntry(RecordStore store, long tid) {
        return store.write(new WriteOp(TxLog.recordKey(tid), TxLog.encode(
                new TxLog.Entry(TxLog.State.WRITING, "pn", System.currentTimeMillis(), List.of())), io.tell.store.Expect.ABSENT)).version();
    }

    @Test
    void restartedManagerHoldsLavForTransactionsOfItsPredecessor() throws Exception {
        String url = uniqueStore();
        long oldBase;
        long oldTid;
        try (LocalCommitManager first = durable(RecordStores.open(url), 10, LONG_GRACE)) {
            TxStart earlier = first.start(false);
            TxStart old = first.start(false);
            oldBase = old.snapshot().base();
            oldTid = old.tid();
            first.committed(earlier.tid()); // the base moves past the old snapshot's base
            for (int i = 0; i < 30; i++) {
                first.committed(first.start(false).tid());
            }
            assertTrue(first.start(true).snapshot().base() > oldBase, "the base moved past the old snapshot");
        }
        // The old transaction is still running somewhere (mid-commit: it has its log entry), so
        // the new manager must not let lav pass its base.
        RecordStores.open(url).write(new WriteOp(TxLog.recordKey(oldTid),
                TxLog.encode(new TxLog.Entry(TxLog.State.WRITING, "pn", 0, List.of())), io.tell.store.Expect.ABSENT));
        try (LocalCommitManager second = durable(RecordStores.open(url), 10, Duration.ofMillis(50))) {
            for (int i = 0; i < 5; i++) {
                TxStart t = second.start(false);
                assertTrue(t.lav() <= oldBase, "lav " + t.lav() + " passed the old snapshot base " + oldBase);
                second.committed(t.tid());
            }
            second.committed(oldTid);
            long deadline = System.nanoTime() + 10_000_000_000L;
            long lav;
            do {
                Thread.sleep(20);
                lav = second.start(true).lav();
            } while (lav <= oldBase && System.nanoTime() < deadline);
            assertTrue(lav > oldBase, "lav stays held after the old tids settled: " + lav);
        }
    }
}
