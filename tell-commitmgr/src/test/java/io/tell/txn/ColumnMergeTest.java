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
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
 * Updates given a {@link RowMerge} commit over a newer committed version that changed other
 * columns, and fail as before when it changed a column they changed or read, when it is not
 * committed yet, or when they read the whole row. Rows here are {@value #COLUMNS} longs.
 */
class ColumnMergeTest {
    private static final String D = "rows";
    private static final int COLUMNS = 4;
    private static final byte[] KEY = {1};
    /** Column-wise merge of rows of longs (no column forbids it). */
    private static final RowMerge MERGE = (base, ours, theirs) -> {
        long[] b = row(base);
        long[] o = row(ours);
        long[] t = row(theirs);
        for (int i = 0; i < COLUMNS; i++) {
            if (o[i] != b[i]) {
                if (t[i] != b[i]) {
                    return null;
                }
                t[i] = o[i];
            }
        }
        return bytes(t);
    };
    /**
     * Merge of rows written only by additions that read nothing of the row: each side's
     * additions count (as SQL's re-applied {@code SET c = c + ?}); a row written twice in one
     * transaction merges by {@link #MERGE}.
     */
    private static final RowMerge ADD = new RowMerge() {
        @Override
        public byte[] merge(byte[] base, byte[] ours, byte[] theirs) {
            long[] b = row(base);
            long[] o = row(ours);
            long[] t = row(theirs);
            for (int i = 0; i < COLUMNS; i++) {
                t[i] += o[i] - b[i];
            }
            return bytes(t);
        }

        @Override
        public boolean reapplies(byte[] base, byte[] theirs) {
            return !java.util.Arrays.equals(base, theirs);
        }

        @Override
        public RowMerge then(RowMerge later) {
            return MERGE;
        }
    };
    /** A read that used nothing of the row (it only found it). */
    private static final RowProjection NOTHING = (a, b) -> true;
    private static final RowProjection[] COLUMN = new RowProjection[COLUMNS];

    static {
        for (int i = 0; i < COLUMNS; i++) {
            int c = i;
            COLUMN[i] = (a, b) -> row(a)[c] == row(b)[c];
        }
    }

    private RecordStore mem;
    private CommitManager cm;
    private TransactionManager tm;

    @BeforeEach
    void setUp() {
        mem = RecordStores.open("mem:");
        cm = LocalCommitManager.open(mem, LocalCommitManager.Options.embedded());
        tm = new TransactionManager(mem, cm, "pn-merge");
        tm.run(1, tx -> {
            tx.insert(D, KEY, bytes(new long[COLUMNS]));
            return null;
        });
    }

    @AfterEach
    void tearDown() {
        tm.close();
        cm.close();
        mem.close();
    }

    private static long[] row(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long[] out = new long[COLUMNS];
        for (int i = 0; i < COLUMNS; i++) {
            out[i] = b.getLong();
        }
        return out;
    }

    private static byte[] bytes(long[] row) {
        ByteBuffer b = ByteBuffer.allocate(8 * COLUMNS);
        for (long v : row) {
            b.putLong(v);
        }
        return b.array();
    }

    /** Adds {@code delta} to column {@code c} as a statement reading only that column does; true when the update merges. */
    private static void add(Transaction tx, int c, long delta, boolean merges) {
        long[] r = row(tx.get(D, KEY, COLUMN[c]));
        r[c] += delta;
        tx.update(D, KEY, bytes(r), merges ? MERGE : null);
    }

    /** Adds {@code delta} to column {@code c} as {@code SET c = c + delta} does, which reads nothing else of the row. */
    private static void increment(Transaction tx, int c, long delta) {
        long[] r = row(tx.get(D, KEY, NOTHING));
        r[c] += delta;
        tx.update(D, KEY, bytes(r), ADD);
    }

    private long[] committed() {
        return tm.run(1, tx -> row(tx.get(D, KEY)));
    }

    private void commitsElsewhere(int c, long delta) {
        tm.run(1, tx -> {
            add(tx, c, delta, false);
            return null;
        });
    }

    @Test
    void anUpdateOfOtherColumnsCommittedSinceTheReadIsMergedIn() {
        Transaction t = tm.begin();
        add(t, 0, 5, true);
        commitsElsewhere(1, 7);
        t.commit();
        assertArrayEquals(new long[] {5, 7, 0, 0}, committed());
        assertEquals(1, tm.mergedWrites());
    }

    @Test
    void aNewerVersionAlreadyThereWhenTheRowIsReadIsMergedIn() {
        Transaction t = tm.begin();
        commitsElsewhere(1, 7);
        add(t, 0, 5, true); // reads the record with the other version on top
        t.commit();
        assertArrayEquals(new long[] {5, 7, 0, 0}, committed());
    }

    @Test
    void severalNewerVersionsAreMergedInAtOnce() {
        Transaction t = tm.begin();
        add(t, 0, 5, true);
        commitsElsewhere(1, 7);
        commitsElsewhere(2, 9);
        commitsElsewhere(1, 1);
        t.commit();
        assertArrayEquals(new long[] {5, 8, 9, 0}, committed());
    }

    @Test
    void additionsToOneColumnBothCount() {
        Transaction t = tm.begin();
        increment(t, 0, 5);
        tm.run(1, tx -> {
            increment(tx, 0, 7);
            return null;
        });
        t.commit();
        assertArrayEquals(new long[] {12, 0, 0, 0}, committed());
    }

    /**
     * An addition re-applied on another writer's value puts the transaction after that writer:
     * at both levels it commits only if that writer changed nothing else it read.
     */
    @ParameterizedTest
    @EnumSource(value = Isolation.class, names = {"SNAPSHOT", "SERIALIZABLE"})
    void aReappliedAdditionCommitsOnlyIfTheOtherWriterChangedNothingElseItRead(Isolation isolation) {
        byte[] other = {2};
        tm.run(1, tx -> {
            tx.insert(D, other, bytes(new long[COLUMNS]));
            return null;
        });
        for (boolean readOther : new boolean[] {false, true}) {
            Transaction t = tm.begin(isolation);
            if (readOther) {
                t.get(D, other, COLUMN[0]);
            }
            increment(t, 0, 5);
            tm.run(1, tx -> {
                tx.update(D, other, bytes(new long[] {readOther ? 2 : 1, 0, 0, 0})); // changes what t may read of it
                increment(tx, 0, 7);
                return null;
            });
            if (readOther) {
                assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
            } else {
                t.commit();
            }
        }
        assertArrayEquals(new long[] {5 + 7 + 7, 0, 0, 0}, committed());
        assertEquals(1, tm.mergedWrites());
    }

    /**
     * Below SERIALIZABLE a transaction that read more records than a validation would re-read
     * ({@link Transaction#NOTED_ENTRIES}) re-applies nothing: the addition is a conflict. One
     * record fewer, and it merges.
     */
    @Test
    void noAdditionIsReappliedAfterReadingTooManyRecordsToValidate() {
        for (int read : new int[] {Transaction.NOTED_ENTRIES - 1, Transaction.NOTED_ENTRIES}) {
            Transaction t = tm.begin(Isolation.SNAPSHOT);
            List<io.tell.store.RecordKey> keys = new java.util.ArrayList<>();
            for (int i = 0; i < read; i++) {
                keys.add(new io.tell.store.RecordKey("absent", java.nio.ByteBuffer.allocate(4).putInt(i).array()));
            }
            t.getAll(keys); // plus the record it adds to: one over the limit in the second round
            increment(t, 0, 5);
            tm.run(1, tx -> {
                increment(tx, 0, 7);
                return null;
            });
            if (read < Transaction.NOTED_ENTRIES) {
                t.commit();
            } else {
                assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
            }
        }
        assertArrayEquals(new long[] {5 + 7 + 7, 0, 0, 0}, committed());
    }

    /**
     * Below SERIALIZABLE the reads are validated before the records are written; a write refused
     * then (another writer committed in between) that merges again is validated again before
     * the commit is decided: a record read that the later writer changed fails it.
     */
    @Test
    void aMergeMadeAgainWhenTheApplyIsRefusedIsValidatedAgain() {
        byte[] other = {2};
        tm.run(1, tx -> {
            tx.insert(D, other, bytes(new long[COLUMNS]));
            return null;
        });
        Transaction t = tm.begin(Isolation.SNAPSHOT);
        t.get(D, other, COLUMN[0]);
        increment(t, 0, 5);
        tm.run(1, tx -> {
            increment(tx, 0, 7); // merged onto at the commit; nothing t read changed
            return null;
        });
        tm.observeCommits((step, tid) -> {
            if (tid == t.tid() && step == CommitObserver.Step.INDEXED) { // validated, not yet written
                tm.observeCommits(null);
                tm.run(1, tx -> {
                    tx.update(D, other, bytes(new long[] {1, 0, 0, 0}));
                    increment(tx, 0, 11);
                    return null;
                });
            }
        });
        try {
            assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
        } finally {
            tm.observeCommits(null);
        }
        assertArrayEquals(new long[] {7 + 11, 0, 0, 0}, committed());
    }

    @Test
    void aRowWrittenTwiceMergesByWhatTheMergeSaysThen() {
        Transaction t = tm.begin();
        increment(t, 0, 5);
        increment(t, 0, 1);
        commitsElsewhere(0, 7);
        assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
        assertArrayEquals(new long[] {7, 0, 0, 0}, committed());
    }

    @Test
    void aColumnBothChangedIsAConflict() {
        Transaction t = tm.begin();
        add(t, 0, 5, true);
        commitsElsewhere(0, 7);
        assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
        assertArrayEquals(new long[] {7, 0, 0, 0}, committed());
        assertEquals(0, tm.mergedWrites());
    }

    @Test
    void aColumnReadAndChangedByTheOtherIsAConflict() {
        Transaction t = tm.begin();
        long other = row(t.get(D, KEY, COLUMN[1]))[1];
        long[] r = row(t.get(D, KEY, COLUMN[0]));
        r[0] = other + 1; // column 0 computed from column 1
        t.update(D, KEY, bytes(r), MERGE);
        commitsElsewhere(1, 7);
        assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
        assertArrayEquals(new long[] {0, 7, 0, 0}, committed());
    }

    @Test
    void aWholeRowReadIsNeverMerged() {
        Transaction t = tm.begin();
        t.get(D, KEY);
        add(t, 0, 5, true);
        commitsElsewhere(1, 7);
        assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
    }

    @Test
    void aWriteWithoutAMergeAfterOneWithIsNotMerged() {
        Transaction t = tm.begin();
        add(t, 0, 5, true);
        add(t, 2, 1, false);
        commitsElsewhere(1, 7);
        assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
    }

    @Test
    void aWriteWithoutAMergeUndoneToASavepointNoLongerCounts() {
        Transaction t = tm.begin();
        add(t, 0, 5, true);
        Transaction.Savepoint sp = t.savepoint();
        add(t, 2, 1, false);
        t.rollbackTo(sp);
        commitsElsewhere(1, 7);
        t.commit();
        assertArrayEquals(new long[] {5, 7, 0, 0}, committed());
    }

    /**
     * A merge needs the other writer committed: when a later start of this node already shows
     * it, or it is a commit of this node whose report was acknowledged, the commit manager is not
     * asked again; otherwise one read-only start asks it.
     */
    @Test
    void aMergeAsksTheCommitManagerOnlyWhenTheNodeHasNotSeenTheOtherCommit() {
        CountingCommitManager counting = new CountingCommitManager(cm);
        TransactionManager node = new TransactionManager(mem, counting, "pn-merge-counted");
        try {
            Transaction t = node.begin();
            add(t, 0, 5, true);
            commitsElsewhere(1, 7); // another node's commit
            node.begin().rollback(); // a later start of this node, which shows it committed
            long probes = counting.counts().readOnlyStarts();
            t.commit();
            assertEquals(probes, counting.counts().readOnlyStarts());

            Transaction u = node.begin();
            add(u, 0, 1, true);
            commitsElsewhere(1, 1); // no start of this node since
            u.commit();
            assertEquals(probes + 1, counting.counts().readOnlyStarts());

            Transaction w = node.begin();
            add(w, 0, 1, true);
            Transaction v = node.begin();
            add(v, 1, 1, true);
            v.commit(); // this node's own commit, which no start of it shows yet
            w.commit();
            assertEquals(probes + 1, counting.counts().readOnlyStarts());
            assertArrayEquals(new long[] {7, 9, 0, 0}, committed());
            assertEquals(3, node.mergedWrites());
        } finally {
            node.close();
        }
    }

    /** Readers of the snapshot on other threads note what they read in their own buffers: no later update merges. */
    @Test
    void noUpdateMergesAfterReadsInParallel() {
        ExecutorService workers = Executors.newSingleThreadExecutor();
        try {
            Transaction t = tm.begin();
            t.readInParallel(List.of(reader -> reader.get(D, KEY)), workers); // the whole row, read elsewhere
            add(t, 0, 5, true);
            commitsElsewhere(1, 7);
            assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
        } finally {
            workers.shutdownNow();
        }
    }

    @Test
    void aLockedRowIsNotMerged() {
        Transaction t = tm.begin();
        add(t, 0, 5, true);
        t.lock(D, KEY);
        commitsElsewhere(1, 7);
        assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
    }

    @Test
    void aDeletedRowIsNotMergedOnto() {
        Transaction t = tm.begin();
        add(t, 0, 5, true);
        tm.run(1, tx -> tx.delete(D, KEY));
        assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
        byte[] gone = tm.run(1, tx -> tx.get(D, KEY));
        assertNull(gone);
    }

    @Test
    void aConflictKnownWhenTheUpdateRunsFailsTheUpdate() {
        Transaction t = tm.begin();
        commitsElsewhere(0, 7);
        TellException e = assertThrows(TellException.class, () -> add(t, 0, 5, true));
        assertSame(ErrorCode.TX_CONFLICT, e.code());
        assertFalse(t.isActive());
    }

    /**
     * A version whose commit the commit manager does not know yet is never merged onto: a
     * snapshot could otherwise see the merged row, which carries its change, without it.
     */
    @Test
    void aVersionNotYetCommittedIsNotMergedOnto() throws Exception {
        CountDownLatch applied = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        TransactionManager other = new TransactionManager(mem, cm, "pn-merge-2");
        other.observeCommits((step, tid) -> {
            if (step == CommitObserver.Step.APPLIED) {
                applied.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Transaction t = tm.begin();
            add(t, 0, 5, true);
            Future<?> writer = pool.submit(() -> other.run(1, tx -> {
                add(tx, 1, 7, false);
                return null;
            }));
            assertTrue(applied.await(10, TimeUnit.SECONDS));
            assertSame(ErrorCode.TX_CONFLICT, assertThrows(TellException.class, t::commit).code());
            release.countDown();
            writer.get(10, TimeUnit.SECONDS);
            assertArrayEquals(new long[] {0, 7, 0, 0}, committed());
        } finally {
            release.countDown();
            pool.shutdownNow();
            other.close();
        }
    }

    /**
     * Threads add to columns of one row, each update reading only its column (merging by
     * column), reading nothing (its addition re-applied) or, one time in five, the whole row
     * (not merging), retrying conflicts; every column must end as the sum of the committed
     * additions to it. {@code -Dtell.seed=N} replays a run.
     */
    @ParameterizedTest
    @EnumSource(value = Isolation.class, names = {"SNAPSHOT", "SERIALIZABLE"})
    void concurrentAdditionsToColumnsOfOneRowAreNeverLost(Isolation isolation) throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        System.out.println("ColumnMergeTest " + isolation + ": seed " + seed);
        int threads = 6;
        int each = 150;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<long[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Random random = new Random(seed + t);
            results.add(pool.submit(() -> {
                long[] added = new long[COLUMNS];
                for (int i = 0; i < each; i++) {
                    int c = random.nextInt(COLUMNS);
                    long delta = 1 + random.nextInt(100);
                    int mode = random.nextInt(5); // 0: whole row read, 1 and 2: column merge, 3 and 4: re-applied addition
                    tm.run(100, isolation, tx -> {
                        if (mode == 0) {
                            tx.get(D, KEY);
                        }
                        if (mode >= 3) {
                            increment(tx, c, delta);
                        } else {
                            add(tx, c, delta, true);
                        }
                        if (random.nextBoolean()) {
                            Thread.yield();
                        }
                        return null;
                    });
                    added[c] += delta;
                }
                return added;
            }));
        }
        long[] expected = new long[COLUMNS];
        try {
            for (Future<long[]> f : results) {
                long[] added = f.get(120, TimeUnit.SECONDS);
                for (int c = 0; c < COLUMNS; c++) {
                    expected[c] += added[c];
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertArrayEquals(expected, committed(), "seed " + seed);
        System.out.println("ColumnMergeTest " + isolation + ": " + tm.mergedWrites() + " merged writes, "
                + tm.aborts() + " aborts");
    }
}
