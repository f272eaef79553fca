package io.tell.index.internal;

import static io.tell.index.internal.TreeTesting.SEED;
import static io.tell.index.internal.TreeTesting.seedNote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.index.InsertResult;
import io.tell.index.ScanRange;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link BTree#insertAll} and {@link BTree#scanBatch}. Every insert result is what one insert
 * after another would give (cold caches, duplicates within the batch and against the tree,
 * leaves that must split), a warm batch costs three round trips, and clients batching into one
 * tree at once (each with its own cache) keep it valid and unique. Batched scans return what
 * scans do, whether or not a range fits in one leaf.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BatchOperationsTest {

    private record Tree(BLinkTree tree, boolean unique, TreeSet<IndexEntry> model, String name) {
    }

    @Test
    void resultsAreThoseOfSingleInsertsInOrder() {
        RecordStore store = new JitterRecordStore(RecordStores.open("mem:"));
        List<Tree> trees = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            boolean unique = i % 2 == 0;
            String name = "batch" + i;
            trees.add(new Tree(BLinkTree.open(store, new BTreeConfig(name, unique, 6, 100, 20, i >= 2)),
                    unique, new TreeSet<>(), name));
        }
        Random rnd = new Random(SEED);
        for (int round = 0; round < 300; round++) {
            int n = 1 + rnd.nextInt(round % 10 == 0 ? 40 : 12);
            List<BTree.Insertion> batch = new ArrayList<>();
            List<Tree> targets = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Tree t = trees.get(rnd.nextInt(trees.size()));
                batch.add(new BTree.Insertion(t.tree(), TreeTesting.key(rnd, 400), rnd.nextInt(t.unique() ? 1000 : 3)));
                targets.add(t);
            }
            if (round % 50 == 0) {
                trees.forEach(t -> t.tree().clearCache());
            }
            List<InsertResult> results = BTree.insertAll(batch);
            for (int i = 0; i < n; i++) {
                Tree t = targets.get(i);
                IndexEntry e = new IndexEntry(batch.get(i).key(), batch.get(i).rid());
                InsertResult expected = TreeTesting.expectedInsert(t.model(), e, t.unique());
                assertEquals(expected, results.get(i), "round " + round + " entry " + i + " " + e + seedNote());
                if (expected.inserted()) {
                    t.model().add(e);
                }
            }
        }
        for (Tree t : trees) {
            TreeValidator.Report report = TreeTesting.validateAgainst(store, t.name(), t.model());
            assertTrue(report.entries().size() > 100, "the trees grew past a leaf: " + report);
        }
    }

    @Test
    void batchedScansAgreeWithScans() {
        RecordStore store = RecordStores.open("mem:");
        for (boolean unique : new boolean[] {false, true}) {
            BLinkTree tree = BLinkTree.open(store, new BTreeConfig("scan" + unique, unique, 6, 100, 20, false));
            Random rnd = new Random(SEED);
            TreeSet<IndexEntry> model = new TreeSet<>();
            for (int i = 0; i < 800; i++) {
                IndexEntry e = new IndexEntry(TreeTesting.key(rnd, 300), unique ? i : rnd.nextInt(20));
                if (TreeTesting.expectedInsert(model, e, unique).inserted()) {
                    model.add(e);
                }
                tree.insert(e.key(), e.rid());
            }
            for (int round = 0; round < 50; round++) {
                if (round % 10 == 0) {
                    tree.clearCache();
                }
                List<ScanRange> ranges = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    ranges.add(rnd.nextBoolean() ? ScanRange.key(TreeTesting.key(rnd, 300)) : TreeTesting.randomRange(rnd, 300));
                }
                List<List<IndexEntry>> batched = tree.scanBatch(ranges);
                for (int i = 0; i < ranges.size(); i++) {
                    assertEquals(TreeTesting.expectedScan(model, ranges.get(i), false, Integer.MAX_VALUE), batched.get(i),
                            "range " + ranges.get(i) + " unique " + unique + seedNote());
                }
            }
        }
    }

    @Test
    void warmBatchCostsTwoRoundTrips() {
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        List<BLinkTree> trees = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            trees.add(BLinkTree.open(store, new BTreeConfig("rt" + i, i == 0, 64, 100, 100, false)));
        }
        for (int k = 0; k < 2_000; k += 2) { // several levels, caches warmed by the inserts
            for (BLinkTree t : trees) {
                t.insert(TreeTesting.key(k), k);
            }
        }
        for (BLinkTree t : trees) { // right-edge splits leave full leaves: make room around 1000
            for (int k = 1000; k <= 1020; k += 2) {
                assertTrue(t.delete(TreeTesting.key(k), k));
            }
        }
        List<BTree.Insertion> batch = new ArrayList<>();
        for (BLinkTree t : trees) {
            for (int k = 1001; k < 1011; k += 2) { // five neighbours in each tree: one leaf, with room
                batch.add(new BTree.Insertion(t, TreeTesting.key(k), k));
            }
        }
        CountingRecordStore.Counts before = store.counts();
        List<InsertResult> results = BTree.insertAll(batch);
        CountingRecordStore.Counts used = store.counts().minus(before);
        assertTrue(results.stream().allMatch(InsertResult::inserted), results.toString());
        assertEquals(2, used.total(), "leaf reads, then new leaf records with the swings chained to them: " + used);
        for (BLinkTree t : trees) {
            assertEquals(List.of(1003L), t.lookup(TreeTesting.key(1003)));
        }
    }

    /**
     * Ranges that run past their first leaf go on along the right links in one batch more per
     * leaf crossed, not a scan each: ten ranges of 20 entries over leaves of at most 16 cost
     * three round trips at most (each range crosses one or two fences).
     */
    @Test
    void rangesPastTheirLeavesCostABatchPerLeafCrossed() {
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        BLinkTree tree = BLinkTree.open(store, new BTreeConfig("spill", false, 16, 1000, 100, false));
        TreeSet<IndexEntry> model = new TreeSet<>();
        for (int k = 0; k < 2_000; k += 2) { // caches warmed by the inserts
            tree.insert(TreeTesting.key(k), k);
            model.add(new IndexEntry(TreeTesting.key(k), k));
        }
        List<ScanRange> ranges = new ArrayList<>();
        for (int r = 0; r < 10; r++) {
            int from = 100 + r * 170;
            ranges.add(new ScanRange(ScanRange.inclusive(TreeTesting.key(from)), ScanRange.exclusive(TreeTesting.key(from + 40))));
        }
        CountingRecordStore.Counts before = store.counts();
        List<List<IndexEntry>> batched = tree.scanBatch(ranges);
        CountingRecordStore.Counts used = store.counts().minus(before);
        for (int i = 0; i < ranges.size(); i++) {
            assertEquals(TreeTesting.expectedScan(model, ranges.get(i), false, Integer.MAX_VALUE), batched.get(i));
            assertEquals(20, batched.get(i).size());
        }
        assertTrue(used.total() <= 3, "ten ranges crossing leaves cost " + used);
    }

    @Test
    void ascendingBulkInsertCostsAFewRoundTripsInAll() {
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        BLinkTree tree = BLinkTree.open(store, new BTreeConfig("bulk", false, 64, 100, 100, false));
        for (int k = 0; k < 200; k++) { // a few levels' worth, caches warm
            tree.insert(TreeTesting.key(k), k);
        }
        List<BTree.Insertion> batch = new ArrayList<>();
        TreeSet<IndexEntry> model = new TreeSet<>();
        for (int k = 0; k < 2_000; k++) {
            model.add(new IndexEntry(TreeTesting.key(k), k));
            if (k >= 200) {
                batch.add(new BTree.Insertion(tree, TreeTesting.key(k), k));
            }
        }
        CountingRecordStore.Counts before = store.counts();
        assertTrue(BTree.insertAll(batch).stream().allMatch(InsertResult::inserted));
        CountingRecordStore.Counts used = store.counts().minus(before);
        System.out.println("1,800 ascending entries in one insertAll: " + used);
        // one by one: 3 per entry plus the splits (over 5,400); in rounds with one split each, a
        // batch and a split per leaf (256); now the leaf reads, the new leaves with the physical
        // records, the swing, and the separators of all new leaves in one write to their parent
        assertTrue(used.total() <= 6, "1,800 ascending entries cost " + used);
        TreeTesting.validateAgainst(store, "bulk", model);
    }

    @Test
    void concurrentBatchingClientsKeepAUniqueTreeValid() throws Exception {
        RecordStore store = new JitterRecordStore(RecordStores.open("mem:"));
        BTreeConfig config = new BTreeConfig("cbatch", true, 5, 200, 20, false);
        int clients = 4;
        int threadsPerClient = 2;
        int space = 1500;
        List<BLinkTree> shared = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            shared.add(BLinkTree.open(store, config));
        }
        ExecutorService pool = Executors.newFixedThreadPool(clients * threadsPerClient);
        List<Future<Map<Integer, InsertResult>>> futures = new ArrayList<>();
        for (int t = 0; t < clients * threadsPerClient; t++) {
            BLinkTree tree = shared.get(t % clients);
            long rid = 1_000 + t; // every thread claims keys with its own rid
            Random rnd = new Random(SEED * 100 + t);
            futures.add(pool.submit(() -> {
                Map<Integer, InsertResult> outcome = new HashMap<>();
                for (int b = 0; b < 150; b++) {
                    List<BTree.Insertion> batch = new ArrayList<>();
                    List<Integer> keys = new ArrayList<>();
                    for (int i = 0, n = 1 + rnd.nextInt(10); i < n; i++) {
                        int k = rnd.nextInt(space);
                        keys.add(k);
                        batch.add(new BTree.Insertion(tree, TreeTesting.key(k), rid));
                    }
                    List<InsertResult> results = BTree.insertAll(batch);
                    for (int i = 0; i < keys.size(); i++) {
                        outcome.merge(keys.get(i), results.get(i), (a, c) -> a.inserted() ? a : c);
                    }
                }
                return outcome;
            }));
        }
        Map<Integer, Long> winners = new HashMap<>();
        List<Map<Integer, InsertResult>> outcomes = new ArrayList<>();
        try {
            for (int t = 0; t < futures.size(); t++) {
                Map<Integer, InsertResult> outcome = futures.get(t).get();
                outcomes.add(outcome);
                for (Map.Entry<Integer, InsertResult> e : outcome.entrySet()) {
                    if (e.getValue().inserted()) {
                        Long earlier = winners.put(e.getKey(), 1_000L + t);
                        assertEquals(null, earlier, "key " + e.getKey() + " inserted by two threads" + seedNote());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        for (Map<Integer, InsertResult> outcome : outcomes) {
            for (Map.Entry<Integer, InsertResult> e : outcome.entrySet()) {
                InsertResult r = e.getValue();
                Long winner = winners.get(e.getKey());
                assertTrue(r.inserted() || r instanceof InsertResult.AlreadyPresent
                        || r instanceof InsertResult.DuplicateKey d && winner != null && d.existingRid() == winner,
                        "key " + e.getKey() + ": " + r + " but the winner is " + winner + seedNote());
            }
        }
        TreeSet<IndexEntry> model = new TreeSet<>();
        winners.forEach((k, rid) -> model.add(new IndexEntry(TreeTesting.key(k), rid)));
        TreeValidator.Report report = TreeTesting.validateAgainst(store, "cbatch", model);
        assertTrue(report.height() > 2, "splits happened under contention: " + report);
    }
    @Test
    void scatteredBatchesPostTheirSplitsInOneWrite() {
        // A bulk load into an index whose keys spread each batch over every leaf: a batch of
        // 1,000 splits some 20 leaves under as many parents, whose separators (and the parents'
        // own splits) go in one write per level, not one write each.
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        BLinkTree tree = BLinkTree.open(store, new BTreeConfig("scatter", false, 64, 10_000, 100, true));
        TreeSet<IndexEntry> model = new TreeSet<>();
        Random rnd = new Random(SEED);
        CountingRecordStore.Counts before = null;
        int leavesBefore = 0;
        int batches = 40;
        for (int b = 0; b < batches; b++) {
            if (b == batches / 2) {
                leavesBefore = TreeTesting.validateAgainst(store, "scatter", model).nodesPerLevel().get(2);
                before = store.counts();
            }
            List<BTree.Insertion> batch = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                IndexEntry e = new IndexEntry(TreeTesting.key(rnd.nextInt(1_000_000)), b * 1000L + i);
                batch.add(new BTree.Insertion(tree, e.key(), e.rid()));
                model.add(e);
            }
            assertTrue(BTree.insertAll(batch).stream().allMatch(InsertResult::inserted));
        }
        CountingRecordStore.Counts used = store.counts().minus(before);
        int measured = batches - batches / 2;
        TreeValidator.Report report = TreeTesting.validateAgainst(store, "scatter", model);
        int splits = report.nodesPerLevel().get(2) - leavesBefore;
        assertTrue(splits >= 10 * measured, "leaves split in every batch: " + splits + " in " + measured);
        // the leaves in one read, their new states and parts in one write, the parents' in one
        // more (two when a parent splits too); it was a write per split leaf
        assertTrue(used.writes() <= 3L * measured, measured + " batches wrote " + used + " for " + splits + " splits");
        assertTrue(used.reads() <= 2L * measured, measured + " batches read " + used);
    }

    @Test
    void concurrentScatteredBatchesKeepATreeValid() throws Exception {
        for (boolean inline : new boolean[] {false, true}) {
            concurrentScatteredBatches(inline);
        }
    }

    private void concurrentScatteredBatches(boolean inline) throws Exception {
        // Clients with their own caches batch many scattered entries at once into small nodes,
        // so that a batch splits many leaves and its posting splits parents, while the others
        // do the same to the same nodes: every entry ends up in a valid tree exactly once.
        RecordStore store = new JitterRecordStore(RecordStores.open("mem:"));
        String name = "sbatch" + inline;
        BTreeConfig config = new BTreeConfig(name, false, 6, 200, 20, inline);
        int clients = 3;
        int threadsPerClient = 2;
        List<BLinkTree> shared = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            shared.add(BLinkTree.open(store, config));
        }
        ExecutorService pool = Executors.newFixedThreadPool(clients * threadsPerClient);
        List<Future<List<IndexEntry>>> futures = new ArrayList<>();
        for (int t = 0; t < clients * threadsPerClient; t++) {
            BLinkTree tree = shared.get(t % clients);
            Random rnd = new Random(SEED * 1000 + t);
            long base = t * 1_000_000L;
            futures.add(pool.submit(() -> {
                List<IndexEntry> mine = new ArrayList<>();
                for (int b = 0; b < 12; b++) {
                    List<BTree.Insertion> batch = new ArrayList<>();
                    for (int i = 0; i < 100; i++) {
                        IndexEntry e = new IndexEntry(TreeTesting.key(rnd.nextInt(5_000)), base + b * 100L + i);
                        batch.add(new BTree.Insertion(tree, e.key(), e.rid()));
                        mine.add(e);
                    }
                    List<InsertResult> results = BTree.insertAll(batch);
                    assertTrue(results.stream().allMatch(InsertResult::inserted), results + seedNote());
                }
                return mine;
            }));
        }
        TreeSet<IndexEntry> model = new TreeSet<>();
        try {
            for (Future<List<IndexEntry>> f : futures) {
                model.addAll(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        TreeValidator.Report report = TreeTesting.validateAgainst(store, name, model);
        assertTrue(report.height() >= 3, "parents split: " + report.nodesPerLevel() + seedNote());
    }
}
