package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reads of one snapshot spread over threads ({@link Transaction#readInParallel}) over ranges a
 * tree cuts itself into ({@link BTree#splitKeys}): together they read exactly what one scan
 * reads, in the same order, also while writers change the rows; a failed read rolls the
 * transaction back and its tid is reported; SERIALIZABLE and written-to transactions refuse.
 */
class ParallelReadTest {
    private static final String T = "items";
    private static final int ROWS = 3_000;

    private RecordStore store;
    private LocalCommitManager cm;
    private TransactionManager tm;
    private TableIndex byValue;
    private ExecutorService workers;

    @BeforeEach
    void setUp() {
        store = RecordStores.open("mem:");
        cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
        tm = new TransactionManager(store, cm, "pn");
        // Non-unique, few distinct keys: runs of one key span leaves and separators.
        byValue = new TableIndex(T, BTree.open(store, BTreeConfig.of("items.value", false).withNodeCapacity(8)), false,
                row -> Arrays.copyOf(row, 2));
        tm.addIndex(byValue);
        workers = Executors.newFixedThreadPool(3);
        tm.run(1, tx -> {
            for (int rid = 1; rid <= ROWS; rid++) {
                tx.insertNew(T, TableIndex.ridKey(rid), row(rid % 700, 0));
            }
            return null;
        });
    }

    @AfterEach
    void tearDown() {
        workers.shutdownNow();
        tm.close();
        cm.close();
    }

    @Test
    void splitKeysCutTheKeySpaceIntoRangesThatTogetherScanAsOne() {
        List<byte[]> cuts = byValue.tree().splitKeys(8);
        assertTrue(cuts.size() >= 4 && cuts.size() <= 7, "cuts: " + cuts.size());
        for (int i = 1; i < cuts.size(); i++) {
            assertTrue(Arrays.compareUnsigned(cuts.get(i - 1), cuts.get(i)) < 0, "ascending and distinct");
        }
        List<IndexEntry> whole = byValue.tree().scan(ScanRange.ALL, false, Integer.MAX_VALUE);
        List<IndexEntry> joined = new ArrayList<>();
        for (ScanRange r : ScanRange.between(cuts)) {
            joined.addAll(byValue.tree().scan(r, false, Integer.MAX_VALUE));
        }
        assertEquals(ROWS, whole.size());
        assertEquals(whole, joined);
        assertEquals(List.of(), BTree.open(store, BTreeConfig.of("items.empty", false)).splitKeys(8), "one leaf");
    }

    @Test
    void parallelReadersSeeTheSnapshotWhileWritersChangeRows() throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        System.out.println("ParallelReadTest seed " + seed);
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            Transaction reader = tm.beginReadOnly();
            List<IndexedRow> expected = reader.scanIndex(byValue, ScanRange.ALL, Integer.MAX_VALUE);
            // Writers move rows to other keys, delete and insert, and split leaves, after the snapshot.
            int newRids = ROWS + round * 50;
            int version = round + 1;
            tm.run(5, tx -> {
                for (int i = 0; i < 200; i++) {
                    long rid = 1 + random.nextInt(newRids);
                    switch (random.nextInt(3)) {
                        case 0 -> tx.put(T, TableIndex.ridKey(rid), row(random.nextInt(700), version));
                        case 1 -> tx.delete(T, TableIndex.ridKey(rid));
                        default -> tx.put(T, TableIndex.ridKey(newRids + 1 + random.nextInt(50)), row(random.nextInt(700), 1));
                    }
                }
                return null;
            });
            List<byte[]> cuts = byValue.tree().splitKeys(6);
            List<Function<Transaction, List<IndexedRow>>> reads = new ArrayList<>();
            for (ScanRange r : ScanRange.between(cuts)) {
                reads.add(t -> t.scanIndex(byValue, r, Integer.MAX_VALUE));
            }
            List<IndexedRow> joined = new ArrayList<>();
            reader.readInParallel(reads, workers).forEach(joined::addAll);
            assertEquals(expected.size(), joined.size(), "round " + round);
            for (int i = 0; i < expected.size(); i++) {
                assertEquals(expected.get(i).rid(), joined.get(i).rid(), "round " + round + ", row " + i);
                assertTrue(Arrays.equals(expected.get(i).row(), joined.get(i).row()), "round " + round + ", row " + i);
            }
            reader.commit();
        }
    }

    @Test
    void aFailedReadFailsTheCallAndAFailedStoreCallRollsTheTransactionBack() {
        Transaction tx = tm.beginReadOnly();
        IllegalStateException boom = new IllegalStateException("boom");
        List<Function<Transaction, Integer>> reads = List.of(t -> t.scanIndex(byValue, ScanRange.ALL, 10).size(), t -> {
            throw boom;
        });
        assertSame(boom, assertThrows(IllegalStateException.class, () -> tx.readInParallel(reads, workers)));
        assertTrue(tx.isActive(), "a failure of the caller's own code is the statement's, as on one thread");
        tx.commit();

        // A store that fails every row read once told to: the reader's store call fails.
        java.util.concurrent.atomic.AtomicBoolean failing = new java.util.concurrent.atomic.AtomicBoolean();
        RecordStore flaky = new io.tell.store.ForwardingRecordStore(store) {
            @Override
            public java.util.concurrent.CompletableFuture<List<io.tell.store.Versioned>> getAllAsync(List<io.tell.store.RecordKey> keys) {
                return failing.get() ? java.util.concurrent.CompletableFuture.failedFuture(io.tell.error.TellException.of(
                        io.tell.error.ErrorCode.STORE_UNAVAILABLE, "store down")) : super.getAllAsync(keys);
            }
        };
        try (TransactionManager other = new TransactionManager(flaky, cm, "pn2")) {
            other.addIndex(byValue);
            Transaction reader = other.beginReadOnly();
            failing.set(true);
            List<Function<Transaction, Integer>> scans = List.of(t -> t.scanIndex(byValue, ScanRange.ALL, Integer.MAX_VALUE).size(),
                    t -> t.scanIndex(byValue, ScanRange.ALL, Integer.MAX_VALUE).size());
            io.tell.error.TellException down = assertThrows(io.tell.error.TellException.class, () -> reader.readInParallel(scans, workers));
            assertEquals(io.tell.error.ErrorCode.STORE_UNAVAILABLE, down.code());
            assertFalse(reader.isActive(), "rolled back, as a failed store call on its own thread would");
        }
        assertTrue(cm.describe().contains("running=0"), "no tid left running: " + cm.describe());
    }

    @Test
    void serializableAndWrittenToTransactionsReadOnOneThread() {
        Transaction serializable = tm.begin(Isolation.SERIALIZABLE);
        assertFalse(serializable.readsInParallel());
        assertThrows(IllegalStateException.class, () -> serializable.readInParallel(List.of(t -> 1), workers));
        serializable.rollback();
        Transaction writer = tm.begin();
        assertTrue(writer.readsInParallel());
        writer.put(T, TableIndex.ridKey(1), row(1, 9));
        assertFalse(writer.readsInParallel(), "its reads must see its own write");
        writer.rollback();
    }

    /** Two bytes of key (big-endian {@code value}) and a version marker. */
    private static byte[] row(int value, int version) {
        return ByteBuffer.allocate(6).putShort((short) value).putInt(version).array();
    }
}
