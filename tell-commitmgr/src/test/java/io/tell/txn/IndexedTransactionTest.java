package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Indexes kept by transactions: rows are "email|city"; {@code byCity} is non-unique and
 * {@code byEmail} unique. Several processing nodes each have their own tree clients (caches).
 */
class IndexedTransactionTest {
    private static final String T = "people";
    private RecordStore store;
    private LocalCommitManager cm;
    private final List<TransactionManager> nodes = new ArrayList<>();
    private final List<TableIndex[]> nodeIndexes = new ArrayList<>();

    @BeforeEach
    void setUp() {
        store = RecordStores.open("mem:");
        cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
        for (int n = 0; n < 4; n++) {
            TransactionManager tm = new TransactionManager(store, cm, "pn-" + n);
            TableIndex byCity = new TableIndex(T, BTree.open(store, BTreeConfig.of("people.city", false).withNodeCapacity(8)), false,
                    row -> field(row, 1));
            TableIndex byEmail = new TableIndex(T, BTree.open(store, BTreeConfig.of("people.email", false).withNodeCapacity(8)), true,
                    row -> field(row, 0));
            tm.addIndex(byCity);
            tm.addIndex(byEmail);
            nodes.add(tm);
            nodeIndexes.add(new TableIndex[] {byCity, byEmail});
        }
    }

    @AfterEach
    void tearDown() {
        nodes.forEach(TransactionManager::close);
        cm.close();
    }

    private static byte[] field(byte[] row, int i) {
        String[] parts = new String(row, StandardCharsets.UTF_8).split("\\|", -1);
        return parts[i].isEmpty() ? null : parts[i].getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] row(String email, String city) {
        return (email + "|" + city).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private TableIndex byCity(int node) {
        return nodeIndexes.get(node)[0];
    }

    private TableIndex byEmail(int node) {
        return nodeIndexes.get(node)[1];
    }

    private void put(int node, long rid, String email, String city) {
        nodes.get(node).run(5, tx -> {
            tx.put(T, TableIndex.ridKey(rid), row(email, city));
            return null;
        });
    }

    /** Gives {@code tm} the two indexes, with tree clients of its own over {@code store}; returns {@code byCity}. */
    private static TableIndex addIndexes(TransactionManager tm, RecordStore store) {
        TableIndex byCity = new TableIndex(T, BTree.open(store, BTreeConfig.of("people.city", false)), false,
                row -> field(row, 1));
        tm.addIndex(byCity);
        tm.addIndex(new TableIndex(T, BTree.open(store, BTreeConfig.of("people.email", false)), true,
                row -> field(row, 0)));
        return byCity;
    }

    private List<String> cities(Transaction tx, int node, String city) {
        return tx.lookup(byCity(node), b(city)).stream().map(r -> new String(r.row(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void lookupSeesCommittedRowsAndOwnWrites() {
        put(0, 1, "a@x", "Bern");
        put(1, 2, "b@x", "Bern");
        put(2, 3, "c@x", "Basel");
        try (Transaction tx = nodes.get(3).begin()) {
            assertEquals(List.of("a@x|Bern", "b@x|Bern"), cities(tx, 3, "Bern"));
            tx.put(T, TableIndex.ridKey(4), row("d@x", "Bern"));
            tx.update(T, TableIndex.ridKey(1), row("a@x", "Basel"));
            assertEquals(List.of("b@x|Bern", "d@x|Bern"), cities(tx, 3, "Bern"));
            assertEquals(List.of("a@x|Basel", "c@x|Basel"), cities(tx, 3, "Basel"));
            tx.commit();
        }
        try (Transaction tx = nodes.get(0).beginReadOnly()) {
            assertEquals(List.of("b@x|Bern", "d@x|Bern"), cities(tx, 0, "Bern"));
        }
    }

    @Test
    void repeatedLookupCostsNoRoundTripSeesOwnInsertsAndNotLaterCommits() {
        put(0, 1, "a@x", "Bern");
        CountingRecordStore counting = new CountingRecordStore(store);
        try (TransactionManager tm = new TransactionManager(counting, cm, "pn-counted")) {
            TableIndex byCity = addIndexes(tm, counting);
            try (Transaction tx = tm.begin()) {
                assertEquals(1, tx.lookup(byCity, b("Bern")).size());
                put(1, 2, "b@x", "Bern"); // committed after tx's snapshot
                CountingRecordStore.Counts before = counting.counts();
                tx.insertNew(T, TableIndex.ridKey(3), row("c@x", "Bern"));
                List<String> seen = tx.lookup(byCity, b("Bern")).stream()
                        .map(r -> new String(r.row(), StandardCharsets.UTF_8)).toList();
                assertEquals(0, counting.counts().minus(before).total(), "insertNew and the repeated lookup read nothing");
                assertEquals(List.of("a@x|Bern", "c@x|Bern"), seen);
                tx.commit();
            }
        }
        try (Transaction tx = nodes.get(0).beginReadOnly()) {
            assertEquals(List.of("a@x|Bern", "b@x|Bern", "c@x|Bern"), cities(tx, 0, "Bern"));
        }
    }

    /**
     * New entries for leaves the node wrote last ride the log batch, chained to its checks: a
     * commit whose read record changed meanwhile (found at the log write) adds none, and the node
     * keeps the leaf as it wrote it, so its next insert there reads no leaf.
     */
    @Test
    void aConflictFoundAtTheLogWriteAddsNoEntryAndTheNodeKeepsItsLeaf() {
        CountingRecordStore counting = new CountingRecordStore(store);
        try (TransactionManager tm = new TransactionManager(counting, cm, "pn-counted")) {
            TableIndex byCity = addIndexes(tm, counting);
            for (long rid = 1; rid <= 2; rid++) {
                long r = rid;
                tm.run(5, tx -> {
                    tx.insertNew(T, TableIndex.ridKey(r), row(r + "@x", "Bern"));
                    return null;
                });
            }
            try (Transaction tx = tm.begin()) {
                tx.get(T, TableIndex.ridKey(1));
                tx.update(T, TableIndex.ridKey(1), row("1@x", "Aarau"));
                put(0, 1, "1@x", "Bern"); // another node writes the row first, its keys unchanged
                TellException e = assertThrows(TellException.class, tx::commit);
                assertEquals(ErrorCode.TX_CONFLICT, e.code());
            }
            assertEquals(List.of(), byCity.tree().lookup(b("Aarau")), "no entry of the failed commit");
            CountingRecordStore.Counts before = counting.counts();
            tm.run(5, tx -> {
                tx.insertNew(T, TableIndex.ridKey(3), row("3@x", "Bern"));
                return null;
            });
            CountingRecordStore.Counts used = counting.counts().minus(before);
            assertEquals(0, used.reads(), "both leaves as this node wrote them: no read");
            assertEquals(List.of(1L, 2L, 3L), byCity.tree().lookup(b("Bern")));
        }
    }

    @Test
    void insertNewUnderAUsedKeyFailsTheCommitAndOverwritesNothing() {
        put(0, 1, "a@x", "Bern");
        Transaction tx = nodes.get(1).begin();
        tx.insertNew(T, TableIndex.ridKey(1), row("z@x", "Zug"));
        TellException e = assertThrows(TellException.class, tx::commit);
        assertEquals(ErrorCode.TX_CONFLICT, e.code());
        try (Transaction r = nodes.get(2).beginReadOnly()) {
            assertEquals(List.of("a@x|Bern"), cities(r, 2, "Bern"));
            assertEquals(List.of(), cities(r, 2, "Zug"));
        }
    }

    @Test
    void oldSnapshotStillFindsRowByItsOldKey() {
        put(0, 1, "a@x", "Bern");
        Transaction old = nodes.get(1).beginReadOnly();
        put(2, 1, "a@x", "Zug");
        assertEquals(List.of("a@x|Bern"), cities(old, 1, "Bern"));
        assertEquals(List.of(), cities(old, 1, "Zug"));
        old.commit();
        try (Transaction now = nodes.get(3).beginReadOnly()) {
            assertEquals(List.of(), cities(now, 3, "Bern"));
            assertEquals(List.of("a@x|Zug"), cities(now, 3, "Zug"));
        }
    }

    @Test
    void entriesOfGoneRowsAreRemovedByReadersOnceNobodyCanSeeThem() {
        put(0, 1, "a@x", "Bern");
        put(0, 1, "a@x", "Zug");
        assertEquals(List.of(1L), byCity(0).tree().lookup(b("Bern")), "the old entry stays at commit");
        Transaction old = nodes.get(2).beginReadOnly();
        nodes.get(0).run(1, tx -> tx.delete(T, TableIndex.ridKey(1)));
        put(0, 2, "other@x", "Uri");
        try (Transaction tx = nodes.get(1).beginReadOnly()) {
            assertEquals(List.of(), cities(tx, 1, "Zug"));
        }
        assertEquals(List.of(1L), byCity(0).tree().lookup(b("Zug")), "an older snapshot can still see the row");
        assertEquals(List.of("a@x|Zug"), cities(old, 2, "Zug"));
        old.commit();
        put(0, 3, "more@x", "Uri"); // lav moves past the delete
        try (Transaction tx = nodes.get(1).beginReadOnly()) {
            assertEquals(List.of(), cities(tx, 1, "Zug"));
            assertEquals(List.of(), cities(tx, 1, "Bern"));
        }
        nodes.get(1).staleEntries().awaitQueued(); // removed off the reader's path
        assertEquals(List.of(), byCity(0).tree().lookup(b("Zug")), "the reader removed the entry of the gone row");
        assertEquals(List.of(), byCity(0).tree().lookup(b("Bern")));
        assertEquals(List.of(2L, 3L), byCity(0).tree().lookup(b("Uri")));
    }

    @Test
    void uniqueKeyIsRefusedWhileHeldAndFreeOnceDeleted() {
        put(0, 1, "a@x", "Bern");
        TellException e = assertThrows(TellException.class, () -> put(1, 2, "a@x", "Basel"));
        assertSame(ErrorCode.DUPLICATE_KEY, e.code());
        try (Transaction tx = nodes.get(2).beginReadOnly()) {
            assertEquals(List.of(), cities(tx, 2, "Basel"), "the refused row was reverted");
            assertEquals(1, tx.lookup(byEmail(2), b("a@x")).size());
        }
        Transaction old = nodes.get(3).beginReadOnly();
        nodes.get(0).run(1, tx -> tx.delete(T, TableIndex.ridKey(1)));
        put(1, 2, "a@x", "Basel"); // the key is free again, though an old snapshot still sees row 1
        assertEquals(List.of(1L), old.lookup(byEmail(3), b("a@x")).stream().map(IndexedRow::rid).toList());
        old.commit();
        try (Transaction tx = nodes.get(2).beginReadOnly()) {
            assertEquals(List.of(2L), tx.lookup(byEmail(2), b("a@x")).stream().map(IndexedRow::rid).toList());
        }
    }

    /**
     * A key claimed by a transaction that has not committed yet is undecided, not a duplicate:
     * the second claimer gets a retriable conflict, and its retry succeeds when the first one
     * aborted, or fails with DUPLICATE_KEY when it committed.
     */
    @Test
    void aKeyClaimedByAnUncommittedTransactionIsAConflictNotADuplicate() throws Exception {
        for (boolean firstCommits : new boolean[] {false, true}) {
            String email = firstCommits ? "kept@x" : "dropped@x";
            long firstRid = firstCommits ? 11 : 21;
            CountDownLatch claimed = new CountDownLatch(1);
            CountDownLatch decide = new CountDownLatch(1);
            nodes.get(0).observeCommits((step, tid) -> {
                if (step == CommitObserver.Step.APPLIED) { // records written, keys claimed, not reported
                    claimed.countDown();
                    await(decide);
                    if (!firstCommits) {
                        throw new IllegalStateException("the first transaction fails after claiming");
                    }
                }
            });
            ExecutorService one = Executors.newSingleThreadExecutor();
            Future<?> first = one.submit(() -> {
                // SERIALIZABLE: the commit manager decides, so a failure after APPLIED aborts it
                // (a commit its node decided would stand).
                Transaction tx = nodes.get(0).begin(Isolation.SERIALIZABLE);
                tx.put(T, TableIndex.ridKey(firstRid), row(email, "Bern"));
                tx.commit();
                return null;
            });
            assertTrue(claimed.await(10, TimeUnit.SECONDS));
            Transaction second = nodes.get(1).begin();
            second.put(T, TableIndex.ridKey(firstRid + 1), row(email, "Basel"));
            TellException e = assertThrows(TellException.class, second::commit);
            assertSame(ErrorCode.TX_CONFLICT, e.code(), e.toString());
            assertTrue(e.retriable());
            decide.countDown();
            if (firstCommits) {
                first.get(10, TimeUnit.SECONDS);
                TellException again = assertThrows(TellException.class, () -> put(1, firstRid + 1, email, "Basel"));
                assertSame(ErrorCode.DUPLICATE_KEY, again.code(), "decided: the key is taken");
            } else {
                assertThrows(java.util.concurrent.ExecutionException.class, () -> first.get(10, TimeUnit.SECONDS));
                put(1, firstRid + 1, email, "Basel"); // decided: the key is free
            }
            one.shutdown();
            nodes.get(0).observeCommits(null);
            try (Transaction tx = nodes.get(2).beginReadOnly()) {
                assertEquals(List.of(firstCommits ? firstRid : firstRid + 1),
                        tx.lookup(byEmail(2), b(email)).stream().map(IndexedRow::rid).toList());
            }
        }
    }

    /**
     * A claim's holder row whose newest version gave the key up, written by a transaction still
     * in flight, over a version that holds the key and committed after our snapshot: the key is
     * not free, since that writer may yet abort and leave the row holding it. Taking it over
     * would let two rows hold one unique key once that writer fails.
     */
    @Test
    void aKeyGivenUpByAWriterInFlightIsNotFreeWhileAVersionBelowHoldsIt() throws Exception {
        put(0, 1, "a@x", "Bern");
        put(0, 2, "b@x", "Bern");
        Transaction renamer = nodes.get(1).begin(); // its snapshot sees row 2 as b@x
        put(0, 2, "k@x", "Bern"); // committed after that snapshot: row 2 holds k@x
        CountDownLatch written = new CountDownLatch(1);
        CountDownLatch fail = new CountDownLatch(1);
        nodes.get(0).observeCommits((step, tid) -> {
            if (step == CommitObserver.Step.APPLIED) { // row 2 written as b2@x, not reported
                written.countDown();
                await(fail);
                throw new IllegalStateException("the writer giving k@x up fails");
            }
        });
        ExecutorService one = Executors.newSingleThreadExecutor();
        try {
            Future<?> givingUp = one.submit(() -> {
                // SERIALIZABLE: the commit manager decides, so the failure at APPLIED aborts it.
                Transaction tx = nodes.get(0).begin(Isolation.SERIALIZABLE);
                tx.put(T, TableIndex.ridKey(2), row("b2@x", "Bern"));
                tx.commit();
                return null;
            });
            assertTrue(written.await(10, TimeUnit.SECONDS));
            renamer.put(T, TableIndex.ridKey(1), row("k@x", "Bern"));
            TellException e = assertThrows(TellException.class, renamer::commit);
            assertSame(ErrorCode.TX_CONFLICT, e.code(), e.toString());
            fail.countDown();
            assertThrows(java.util.concurrent.ExecutionException.class, () -> givingUp.get(10, TimeUnit.SECONDS));
        } finally {
            fail.countDown();
            one.shutdown();
            nodes.get(0).observeCommits(null);
        }
        try (Transaction tx = nodes.get(2).beginReadOnly()) {
            assertEquals("k@x|Bern", new String(tx.get(T, TableIndex.ridKey(2)), StandardCharsets.UTF_8));
            assertEquals("a@x|Bern", new String(tx.get(T, TableIndex.ridKey(1)), StandardCharsets.UTF_8));
            assertEquals(List.of(2L), tx.lookup(byEmail(2), b("k@x")).stream().map(IndexedRow::rid).toList());
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void updatingARowToATakenUniqueKeyIsRefused() {
        put(0, 1, "a@x", "Bern");
        put(0, 2, "b@x", "Bern");
        TellException e = assertThrows(TellException.class, () -> put(1, 2, "a@x", "Bern"));
        assertSame(ErrorCode.DUPLICATE_KEY, e.code());
        put(1, 2, "b2@x", "Bern"); // changing to a free key works
    }

    @Test
    void concurrentUniqueInsertsFromManyNodesLetExactlyOneWin() throws Exception {
        long seed = Long.getLong("tell.seed", 1);
        Random rnd = new Random(seed);
        int rounds = 40;
        ExecutorService pool = Executors.newFixedThreadPool(nodes.size());
        try {
            for (int round = 0; round < rounds; round++) {
                String email = "u" + round + "-" + rnd.nextInt(1000) + "@x";
                CyclicBarrier barrier = new CyclicBarrier(nodes.size());
                AtomicInteger winners = new AtomicInteger();
                AtomicInteger duplicates = new AtomicInteger();
                List<Future<?>> fs = new ArrayList<>();
                for (int n = 0; n < nodes.size(); n++) {
                    int node = n;
                    long rid = 1000L * round + n;
                    fs.add(pool.submit(() -> {
                        barrier.await();
                        try {
                            put(node, rid, email, "City" + node);
                            winners.incrementAndGet();
                        } catch (TellException e) {
                            assertSame(ErrorCode.DUPLICATE_KEY, e.code(), e.toString());
                            duplicates.incrementAndGet();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : fs) {
                    f.get(30, TimeUnit.SECONDS);
                }
                assertEquals(1, winners.get(), "seed " + seed + " round " + round);
                assertEquals(nodes.size() - 1, duplicates.get());
                try (Transaction tx = nodes.get(0).beginReadOnly()) {
                    assertEquals(1, tx.lookup(byEmail(0), b(email)).size(), "seed " + seed + " round " + round);
                }
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void rowsWithoutAKeyAreNotIndexed() {
        put(0, 1, "", "Bern");
        put(0, 2, "", "Bern"); // a unique index does not constrain missing keys
        try (Transaction tx = nodes.get(1).beginReadOnly()) {
            assertEquals(2, cities(tx, 1, "Bern").size());
            assertFalse(tx.lookup(byCity(1), b("Bern")).isEmpty());
            assertTrue(byEmail(1).tree().scan(io.tell.index.ScanRange.ALL, false, 10).isEmpty());
        }
    }
}
