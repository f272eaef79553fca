package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The shared record buffers ({@link Buffering#SHARED}, {@link Buffering#SYNCED}): several nodes,
 * each with its own buffer, over one store; every read must be what the store gives the
 * reader's snapshot, whatever the buffer holds.
 */
class SharedBufferTest {
    private static final String T = "acct";
    private static final int ACCOUNTS = 24;
    private static final long BALANCE = 100;

    private RecordStore store;
    private LocalCommitManager cm;
    private final List<TransactionManager> nodes = new ArrayList<>();

    @BeforeEach
    void setUp() {
        store = RecordStores.open("mem:");
        cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
    }

    @AfterEach
    void tearDown() {
        nodes.forEach(TransactionManager::close);
        cm.close();
        store.close();
    }

    private TransactionManager node(Buffering buffering, int unitSize) {
        return node(store, buffering, unitSize);
    }

    /** A node over {@code over} (the store, or a counting view of it). */
    private TransactionManager node(RecordStore over, Buffering buffering, int unitSize) {
        TransactionManager tm = new TransactionManager(over, cm, "pn-" + nodes.size());
        tm.useBuffering(buffering, unitSize, 1000);
        nodes.add(tm);
        return tm;
    }

    private static byte[] key(int account) {
        return TableIndex.ridKey(account);
    }

    private static byte[] amount(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static long amountOf(byte[] row) {
        return ByteBuffer.wrap(row).getLong();
    }

    private static void fund(TransactionManager tm) {
        tm.run(1, tx -> {
            for (int a = 0; a < ACCOUNTS; a++) {
                tx.insert(T, key(a), amount(BALANCE));
            }
            return null;
        });
    }

    private static long balance(TransactionManager tm, int account) {
        try (Transaction tx = tm.beginReadOnly()) {
            long v = amountOf(tx.get(T, key(account)));
            tx.commit();
            return v;
        }
    }

    private static void set(TransactionManager tm, int account, long value) {
        tm.run(1, tx -> tx.update(T, key(account), amount(value)));
    }

    @ParameterizedTest
    @EnumSource(value = Buffering.class, names = {"SHARED", "SYNCED"})
    void transfersKeepTheirTotalInEverySnapshotOfEveryNode(Buffering buffering) throws Exception {
        runTransfers(store, cm, buffering, 400);
    }

    /**
     * Three nodes with {@code buffering} and two threads each over {@code store} (fresh: its first
     * node decides about version sets) and its commit manager {@code cm}: transfers, and
     * read-only totals that must always add up.
     */
    static void runTransfers(RecordStore store, CommitManager cm, Buffering buffering, int opsPerThread) throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime() % 10_000);
        List<TransactionManager> nodes = new ArrayList<>();
        try {
            for (int n = 0; n < 3; n++) {
                TransactionManager tm = new TransactionManager(store, cm, "pn-" + n);
                tm.useBuffering(buffering, 4, 1000);
                nodes.add(tm);
            }
            fund(nodes.get(0));
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            int threads = 6;
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    fs.add(pool.submit(() -> {
                        Random rnd = new Random(seed * 31 + thread);
                        TransactionManager tm = nodes.get(thread % nodes.size());
                        for (int i = 0; i < opsPerThread && failures.isEmpty(); i++) {
                            try {
                                if (rnd.nextInt(3) == 0) {
                                    transfer(tm, rnd);
                                } else {
                                    checkTotal(tm, rnd, failures, "seed " + seed + " thread " + thread + " op " + i);
                                }
                            } catch (TellException e) {
                                if (!e.retriable()) {
                                    failures.add("seed " + seed + ": " + e);
                                }
                            }
                        }
                    }));
                }
                for (Future<?> f : fs) {
                    f.get(120, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdown();
            }
            assertTrue(failures.isEmpty(), String.join("\n", failures));
            // Every node agrees with an unbuffered node on every account.
            TransactionManager plain = new TransactionManager(store, cm, "pn-plain");
            nodes.add(plain);
            for (int a = 0; a < ACCOUNTS; a++) {
                for (TransactionManager tm : nodes) {
                    assertEquals(balance(plain, a), balance(tm, a), "account " + a + " (seed " + seed + ")");
                }
            }
            long served = 0;
            for (TransactionManager tm : nodes) {
                long[] c = tm.sharedBufferCounts();
                served += c[0] + c[1];
            }
            assertTrue(served > 0, "no read was served by a shared buffer (seed " + seed + ")");
        } finally {
            nodes.forEach(TransactionManager::close);
        }
    }

    private static void transfer(TransactionManager tm, Random rnd) {
        int from = rnd.nextInt(ACCOUNTS);
        int to = (from + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
        long sum = rnd.nextInt(20);
        tm.run(1, tx -> {
            long a = amountOf(tx.get(T, key(from)));
            long b = amountOf(tx.get(T, key(to)));
            tx.update(T, key(from), amount(a - sum));
            tx.update(T, key(to), amount(b + sum));
            return null;
        });
    }

    /** The total over all accounts, read partly one by one and partly in a batch, is what was funded. */
    private static void checkTotal(TransactionManager tm, Random rnd, ConcurrentLinkedQueue<String> failures, String where) {
        try (Transaction tx = tm.beginReadOnly()) {
            int split = rnd.nextInt(ACCOUNTS + 1);
            long total = 0;
            for (int a = 0; a < split; a++) {
                total += amountOf(tx.get(T, key(a)));
            }
            List<RecordKey> rest = new ArrayList<>();
            for (int a = split; a < ACCOUNTS; a++) {
                rest.add(new RecordKey(T, key(a)));
            }
            for (byte[] row : tx.getAll(rest)) {
                total += amountOf(row);
            }
            tx.commit();
            if (total != ACCOUNTS * BALANCE) {
                failures.add(where + ": total " + total);
            }
        }
    }

    @Test
    void anOlderSnapshotReadsWhatANewerOneFetched() {
        TransactionManager tm = node(Buffering.SHARED, 1);
        fund(tm);
        try (Transaction older = tm.beginReadOnly(); Transaction newer = tm.beginReadOnly()) {
            assertEquals(BALANCE, amountOf(newer.get(T, key(3))));
            long before = tm.sharedBufferCounts()[0];
            assertEquals(BALANCE, amountOf(older.get(T, key(3))));
            assertEquals(before + 1, tm.sharedBufferCounts()[0], "the older snapshot is a subset of the newer: a hit");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Buffering.class, names = {"SHARED", "SYNCED"})
    void aCommitOfAnotherNodeIsSeenByTheNextTransaction(Buffering buffering) {
        TransactionManager reader = node(buffering, 1);
        TransactionManager writer = node(Buffering.TRANSACTION, 1);
        fund(writer);
        assertEquals(BALANCE, balance(reader, 5));
        set(writer, 5, 7);
        assertEquals(7, balance(reader, 5));
    }

    @Test
    void anUnchangedUnitServesANewerSnapshotWithoutFetching() {
        TransactionManager reader = node(Buffering.SYNCED, 4);
        TransactionManager writer = node(Buffering.TRANSACTION, 4);
        fund(writer);
        assertEquals(BALANCE, balance(reader, 1));
        set(writer, 9, 50); // another unit: accounts 8-11
        long[] before = reader.sharedBufferCounts();
        assertEquals(BALANCE, balance(reader, 1));
        long[] after = reader.sharedBufferCounts();
        assertEquals(before[1] + 1, after[1], "served on an unchanged unit");
        assertEquals(before[2], after[2], "nothing fetched");
        set(writer, 2, 60); // the same unit as account 1: its copy may not be trusted
        assertEquals(BALANCE, balance(reader, 1));
        assertEquals(after[2] + 1, reader.sharedBufferCounts()[2], "fetched again after its unit changed");
        assertEquals(60, balance(reader, 2));
    }

    /**
     * A transaction reads a unit's version set once: with the first record it fetches, every
     * other buffered record of that unit then costs no round trip; a node's commits bump the sets
     * they wrote without a round trip of their own.
     */
    @Test
    void aTransactionReadsEachUnitsSetOnceAndCommitsBumpInTheirApplyBatch() {
        CountingRecordStore counted = new CountingRecordStore(store);
        TransactionManager reader = node(counted, Buffering.SYNCED, 100); // every account in one unit
        TransactionManager writer = node(Buffering.SYNCED, 100);
        fund(writer);
        for (int pass = 0; pass < 2; pass++) { // fills the buffer, then proves the unit good
            for (int a = 0; a < ACCOUNTS; a++) {
                assertEquals(BALANCE, balance(reader, a));
            }
        }
        set(writer, 3, 40); // the unit changes: all its copies are stale now, and fetched again
        CountingRecordStore.Counts before = counted.counts();
        for (int a = 0; a < ACCOUNTS; a++) {
            assertEquals(a == 3 ? 40 : BALANCE, balance(reader, a));
        }
        assertTrue(counted.counts().minus(before).reads() >= ACCOUNTS, "every copy of the changed unit fetched again");
        writer.run(1, tx -> {
            tx.insert("other", key(1), amount(1)); // newer snapshots, the unit unchanged
            return null;
        });
        before = counted.counts();
        try (Transaction tx = reader.beginReadOnly()) {
            for (int a = 0; a < ACCOUNTS; a++) {
                assertEquals(a == 3 ? 40 : BALANCE, amountOf(tx.get(T, key(a))));
            }
            tx.commit();
        }
        CountingRecordStore.Counts read = counted.counts().minus(before);
        assertEquals(1, read.reads(), "one read of the unit's set, then every copy served: " + read);

        before = counted.counts();
        reader.run(1, tx -> tx.update(T, key(5), amount(55)));
        CountingRecordStore.Counts commit = counted.counts().minus(before);
        TransactionManager plain = new TransactionManager(store, cm, "pn-plain");
        nodes.add(plain);
        CountingRecordStore plainCounted = new CountingRecordStore(store);
        TransactionManager unbuffered = new TransactionManager(plainCounted, cm, "pn-tx");
        nodes.add(unbuffered);
        set(unbuffered, 6, 60); // its first commit looks the store's version-set setting up
        before = plainCounted.counts();
        unbuffered.run(1, tx -> tx.update(T, key(6), amount(66)));
        CountingRecordStore.Counts plainCommit = plainCounted.counts().minus(before);
        assertEquals(plainCommit.writes(), commit.writes(), "the bump rode in the apply batch: " + commit + " vs " + plainCommit);
        assertEquals(55, balance(plain, 5));
        set(writer, 7, 70);
        assertEquals(70, balance(reader, 7), "the reader's own bump did not hide another node's later write");
    }

    /**
     * A SERIALIZABLE transaction that wrote nothing, whose reads the buffer served (by the
     * snapshot test, or on an unchanged unit), makes no store call at commit when no writer may
     * precede its snapshot: a copy is judged as served.
     */
    @Test
    void aSerializableReaderTheBufferServedMakesNoStoreCallAtCommit() {
        CountingRecordStore counted = new CountingRecordStore(store);
        TransactionManager reader = node(counted, Buffering.SYNCED, 4);
        TransactionManager writer = node(Buffering.TRANSACTION, 4);
        fund(writer);
        assertEquals(BALANCE, balance(reader, 1)); // a copy, older than the transactions below

        long[] before = reader.sharedBufferCounts();
        assertEquals(0, readsAtSerializableCommit(reader, counted, 1), "a copy older than the snapshot");
        assertEquals(before[0] + 1, reader.sharedBufferCounts()[0], "served by the snapshot test");

        set(writer, 9, 50); // a newer snapshot, account 1's unit (accounts 0-3) unchanged
        before = reader.sharedBufferCounts();
        assertEquals(0, readsAtSerializableCommit(reader, counted, 1), "a copy the set vouched for");
        assertEquals(before[1] + 1, reader.sharedBufferCounts()[1], "served on an unchanged unit");
    }

    /** The store reads a SERIALIZABLE read-only transaction of {@code tm} makes at commit after reading {@code account}. */
    private static long readsAtSerializableCommit(TransactionManager tm, CountingRecordStore counted, int account) {
        try (Transaction tx = tm.beginReadOnly(Isolation.SERIALIZABLE)) {
            assertEquals(BALANCE, amountOf(tx.get(T, key(account))));
            long before = counted.counts().reads();
            tx.commit();
            return counted.counts().reads() - before;
        }
    }

    /**
     * A node that asks for the best buffering (the default over a store) gets version sets on a
     * new store that runs batches in order, and the transaction buffer where the store keeps no
     * sets or cannot order a commit's bumps behind its writes; a store so decided stays so.
     */
    @Test
    void theBestBufferingIsSyncedWhereTheStoreOrdersBatchesAndKeepsVersionSets() {
        TransactionManager first = new TransactionManager(store, cm, "pn-best");
        nodes.add(first);
        assertSame(Buffering.SYNCED, first.useBestBuffering(100, 1000));
        fund(first);
        assertEquals(BALANCE, balance(first, 1));
        assertEquals(BALANCE, balance(first, 1));
        assertTrue(first.sharedBufferCounts()[2] > 0, "reads go through the shared buffer");

        RecordStore plain = RecordStores.open("mem:");
        RecordStore unordered = new io.tell.store.ForwardingRecordStore(RecordStores.open("mem:")) {
            @Override
            public boolean ordersBatches() {
                return false;
            }
        };
        try (LocalCommitManager plainCm = LocalCommitManager.open(plain, LocalCommitManager.Options.embedded());
             LocalCommitManager unorderedCm = LocalCommitManager.open(unordered, LocalCommitManager.Options.embedded())) {
            TransactionManager keepsNone = new TransactionManager(plain, plainCm, "pn-tx");
            keepsNone.useBuffering(Buffering.TRANSACTION, 100, 1000);
            TransactionManager late = new TransactionManager(plain, plainCm, "pn-late");
            assertSame(Buffering.TRANSACTION, late.useBestBuffering(100, 1000), "the store's first node chose none");
            TransactionManager onUnordered = new TransactionManager(unordered, unorderedCm, "pn-unordered");
            assertSame(Buffering.TRANSACTION, onUnordered.useBestBuffering(100, 1000));
            TellException e = assertThrows(TellException.class,
                    () -> new TransactionManager(unordered, unorderedCm, "pn-synced").useBuffering(Buffering.SYNCED, 100, 1000));
            assertSame(ErrorCode.BAD_CONFIGURATION, e.code(), "the first node fixed the unordered store to keep none");
            keepsNone.close();
            late.close();
            onUnordered.close();
        } finally {
            plain.close();
            unordered.close();
        }
    }

    /**
     * A record a transaction asks to read along (the SQL layer's catalog check) rides in the
     * first store call its reads through the buffer make, and waits for one while the buffer
     * serves everything.
     */
    @Test
    void aRecordReadAlongRidesTheBuffersStoreCall() {
        CountingRecordStore counted = new CountingRecordStore(store);
        TransactionManager reader = node(counted, Buffering.SYNCED, 100);
        TransactionManager writer = node(Buffering.TRANSACTION, 100);
        fund(writer);
        RecordKey directory = new RecordKey("other", key(1));
        writer.run(1, tx -> {
            tx.insert(directory.domain(), directory.key(), amount(1));
            return null;
        });
        long stored = TellException.join(store.getAsync(directory)).version();
        assertEquals(BALANCE, balance(reader, 2)); // buffered now
        try (Transaction tx = reader.beginReadOnly()) {
            tx.readAlong(directory);
            CountingRecordStore.Counts before = counted.counts();
            assertEquals(BALANCE, amountOf(tx.get(T, key(2))));
            assertEquals(-1, tx.alongVersion(), "served from the buffer: nothing read along yet");
            assertEquals(BALANCE, amountOf(tx.get(T, key(20))));
            assertEquals(stored, tx.alongVersion(), "read along with the fetch");
            assertEquals(1, counted.counts().minus(before).reads(), "no store call of its own");
            tx.commit();
        }
    }

    /**
     * A copy taken while a writer's version was in the record, the writer failing and reverting
     * afterwards without moving the unit's version set: a snapshot that counts the aborted tid
     * as completed must not see its version through the copy.
     */
    @Test
    void aVersionRevertedAfterTheCopyWasTakenIsNeverServed() throws Exception {
        TransactionManager reader = node(Buffering.SYNCED, 1);
        TransactionManager writer = node(Buffering.TRANSACTION, 1);
        TransactionManager rival = node(Buffering.TRANSACTION, 1);
        fund(writer);
        CountDownLatch halfway = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        writer.observeCommits((step, tid) -> {
            if (step == CommitObserver.Step.PARTLY_APPLIED) {
                halfway.countDown();
                try {
                    resume.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        CompletableFuture<Void> doomed = CompletableFuture.runAsync(() -> writer.run(1, tx -> {
            tx.update(T, key(1), amount(-1)); // the first half of the apply batch
            tx.update(T, key(2), amount(-2));
            return null;
        }));
        assertTrue(halfway.await(30, TimeUnit.SECONDS));
        assertEquals(BALANCE, balance(reader, 1), "the in-flight version is invisible"); // the copy holds it
        set(rival, 2, 77); // the doomed writer's second half now conflicts
        resume.countDown();
        Exception e = assertThrows(Exception.class, doomed::join);
        assertTrue(e.getCause() instanceof TellException te && te.code() == ErrorCode.TX_CONFLICT, e.toString());
        assertEquals(BALANCE, balance(reader, 1));
        assertEquals(77, balance(reader, 2));
    }
}
