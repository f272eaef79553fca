package io.tell.index.internal;

import static io.tell.index.internal.TreeTesting.SEED;
import static io.tell.index.internal.TreeTesting.seedNote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.index.BTreeConfig;
import io.tell.index.ScanRange;
import io.tell.store.CountingRecordStore;
import io.tell.store.CountingRecordStore.Counts;
import io.tell.store.RecordStores;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Store round trips per operation, counted with {@link CountingRecordStore} (a batch counts as
 * one). Claims, with a warm cache, leaves inline or out of line (a new physical record and the
 * mapping chained to it go in one batch): lookup 1; insert without split 2; insert with a leaf
 * split whose parent has room 4; delete 2; a scan 1 per leaf. From a cold cache a lookup costs
 * 2 per inner level and 1 [2 out of line] for the leaf.
 */
class BTreeRoundTripTest {

    @ParameterizedTest(name = "inlineLeaves={0}")
    @ValueSource(booleans = {true, false})
    void roundTripsPerOperation(boolean inline) {
        Random rnd = new Random(SEED);
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        BTreeConfig config = new BTreeConfig("rt", false, 16, 10_000, 100_000, inline);
        List<SplitStep> steps = new ArrayList<>();
        BLinkTree tree = BLinkTree.open(store, config, (step, level) -> steps.add(step));
        TreeSet<Integer> keys = new TreeSet<>();
        while (keys.size() < 3000) {
            int k = rnd.nextInt(1_000_000);
            if (keys.add(k)) {
                tree.insert(TreeTesting.key(k), k);
            }
        }
        for (int k : keys) { // warm the cache (and, out of line, the leaf hints)
            tree.lookup(TreeTesting.key(k));
        }
        int height = TreeValidator.validate(store, "rt").height();
        assertTrue(height >= 2, "tree too flat: " + height);
        String where = " (inline " + inline + ", height " + height + ")" + seedNote();

        for (int i = 0; i < 200; i++) {
            int k = randomMember(keys, rnd);
            Counts c = measure(store, () -> tree.lookup(TreeTesting.key(k)));
            assertEquals(new Counts(1, 0, 0, 0), c, "warm lookup" + where);
        }

        int plain = 0;
        int leafSplits = 0;
        for (int i = 0; i < 400; i++) {
            int k = rnd.nextInt(1_000_000);
            if (!keys.add(k)) {
                continue;
            }
            steps.clear();
            Counts c = measure(store, () -> tree.insert(TreeTesting.key(k), k));
            if (steps.isEmpty()) {
                plain++;
                assertEquals(new Counts(1, 1, 0, 0), c, "insert without split" + where);
            } else if (steps.equals(List.of(SplitStep.RIGHT_WRITTEN, SplitStep.LEFT_SWUNG, SplitStep.SEPARATOR_POSTED))) {
                leafSplits++;
                assertEquals(new Counts(1, 3, 0, 0), c, "insert with a leaf split" + where);
            }
        }
        assertTrue(plain > 100 && leafSplits > 10, plain + " plain inserts, " + leafSplits + " leaf splits" + where);

        for (int i = 0; i < 100; i++) {
            int k = randomMember(keys, rnd);
            keys.remove(k);
            Counts c = measure(store, () -> assertTrue(tree.delete(TreeTesting.key(k), k)));
            assertEquals(new Counts(1, 1, 0, 0), c, "delete" + where);
        }

        List<Integer> perLevel = TreeValidator.validate(store, "rt").nodesPerLevel();
        int leaves = perLevel.get(height);
        int parents = perLevel.get(height - 1);
        Counts forward = measure(store, () -> assertEquals(keys.size(), tree.scan(ScanRange.ALL, false, Integer.MAX_VALUE).size()));
        // the first leaf, then the leaves the cached parents list read ahead in batches that double
        // (2, 4, ... 64) across parents: 6 round trips for the first 63 leaves, then one per 64
        assertEquals(0, forward.writes() + forward.increments() + forward.scans(), "forward scan only reads" + where);
        int batches = 6 + (leaves - 63 + 63) / 64;
        assertTrue(forward.reads() <= batches && forward.reads() < parents,
                "full forward scan over " + leaves + " leaves under " + parents + " parents: " + forward + where);
        Counts backward = measure(store, () -> assertEquals(keys.size(), tree.scan(ScanRange.ALL, true, Integer.MAX_VALUE).size()));
        assertEquals(new Counts(leaves, 0, 0, 0), backward, "full backward scan over " + leaves + " leaves" + where);

        Counts open = measure(store, () -> BLinkTree.open(store, config));
        BLinkTree cold = BLinkTree.open(store, config);
        int k = randomMember(keys, rnd);
        Counts coldLookup = measure(store, () -> assertEquals(List.of((long) k), cold.lookup(TreeTesting.key(k))));
        assertEquals(new Counts(1, 0, 0, 0), open, "opening a tree reads its meta record" + where);
        assertEquals(new Counts(2L * height + (inline ? 1 : 2), 0, 0, 0), coldLookup, "cold lookup" + where);
        Counts again = measure(store, () -> cold.lookup(TreeTesting.key(k)));
        assertEquals(new Counts(1, 0, 0, 0), again, "the same lookup again" + where);
        TreeValidator.validate(store, "rt");

        System.out.printf("b-tree round trips (inline leaves %s, height %d, %d leaves): warm lookup 1, insert %d,"
                        + " insert with leaf split %d, delete %d, cold lookup %d, scan 1 per leaf%n",
                inline, height, leaves, inline ? 2 : 3, inline ? 5 : 6, inline ? 2 : 3, coldLookup.total());
    }

    @ParameterizedTest(name = "inlineLeaves={0}")
    @ValueSource(booleans = {true, false})
    void leavesEmptiedAtAQueuesHeadLeaveTheTreeSoAScanFromThereReadsOneLeaf(boolean inline) {
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        BTreeConfig config = new BTreeConfig("queue", false, 16, 10_000, 100_000, inline);
        BLinkTree tree = BLinkTree.open(store, config);
        // A queue: ascending keys appended, the oldest taken off the front (TPC-C's NEW_ORDER).
        for (int k = 0; k < 2_000; k++) {
            tree.insert(TreeTesting.key(k), k);
        }
        int before = TreeValidator.validate(store, "queue").nodesPerLevel().getLast();
        for (int k = 0; k < 1_500; k++) {
            assertTrue(tree.delete(TreeTesting.key(k), k));
        }
        TreeValidator.Report report = TreeValidator.validate(store, "queue");
        int after = report.nodesPerLevel().getLast();
        int parents = report.nodesPerLevel().get(report.height() - 1);
        // 125 full leaves of 16, the first 93 emptied: all but each parent's first child leave
        assertEquals(before - after, report.removedLeaves(), "removed leaves are off the chain");
        assertTrue(report.emptyLeaves() <= parents, report.emptyLeaves() + " empty leaves left under " + parents + " parents");
        assertEquals(report.removedLeaves(), tree.stats().leavesRemoved());
        List<io.tell.index.IndexEntry> first = new ArrayList<>();
        Counts scan = measure(store, () -> first.addAll(tree.scan(ScanRange.ALL, false, 1)));
        assertEquals(1_500, TreeTesting.firstInt(first.get(0).key()), "the oldest entry left");
        assertTrue(scan.reads() <= 1 + (report.emptyLeaves() > 0 ? 2 : 0),
                "a scan from the queue's head past " + report.emptyLeaves() + " empty leaves: " + scan);
        System.out.printf("queue of 2000, 1500 taken (inline %s): leaves %d -> %d, %d removed, %d empty left, scan from the head %s%n",
                inline, before, after, report.removedLeaves(), report.emptyLeaves(), scan);
        // The emptied range takes entries again, in the leaves that absorbed it.
        for (int k = 0; k < 1_500; k += 7) {
            tree.insert(TreeTesting.key(k), k);
        }
        assertEquals(1_500 / 7 + 1 + 500, TreeValidator.validate(store, "queue").entries().size());
    }

    /**
     * Batch appends into the leaf this client wrote last plan on the state it wrote: one round
     * trip, no read. When another client changed that leaf meanwhile the write loses, the leaf is
     * read, and every entry of both clients ends up in the tree once.
     */
    @org.junit.jupiter.api.Test
    void batchAppendsToTheLeafThisClientWroteLastCostOneRoundTrip() {
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        BTreeConfig config = new BTreeConfig("append", true, 64, 10_000, 100, true);
        BLinkTree tree = BLinkTree.open(store, config, (step, level) -> { });
        BLinkTree other = BLinkTree.open(store, config, (step, level) -> { });
        TreeSet<Integer> expected = new TreeSet<>();
        int next = 0;
        int oneTrip = 0;
        for (int round = 0; round < 300; round++) {
            List<io.tell.index.BTree.Insertion> batch = new ArrayList<>();
            for (int i = 0; i < 3; i++, next++) {
                batch.add(new io.tell.index.BTree.Insertion(tree, TreeTesting.key(next), next));
                expected.add(next);
            }
            boolean interfere = round % 10 == 9;
            if (interfere) { // the other client appends to the same leaf first
                other.insert(TreeTesting.key(next), next);
                expected.add(next++);
            }
            Counts c = measure(store, () -> {
                for (var r : io.tell.index.BTree.insertAll(batch)) {
                    assertEquals(io.tell.index.InsertResult.INSERTED, r);
                }
            });
            if (!interfere && c.equals(new Counts(0, 1, 0, 0))) {
                oneTrip++;
            }
        }
        List<Integer> found = new ArrayList<>();
        tree.scan(ScanRange.ALL, false, Integer.MAX_VALUE).forEach(e -> found.add((int) e.rid()));
        assertEquals(new ArrayList<>(expected), found, "every entry once, in order");
        TreeValidator.validate(store, "append");
        // Rounds that split a leaf post a separator too; the others are one write, no read.
        assertTrue(oneTrip > 200, "appends in one round trip: " + oneTrip + " of 270");
    }

    private static Counts measure(CountingRecordStore store, Runnable op) {
        Counts before = store.counts();
        op.run();
        return store.counts().minus(before);
    }

    private static int randomMember(TreeSet<Integer> keys, Random rnd) {
        Integer k = keys.ceiling(rnd.nextInt(1_000_000));
        return k != null ? k : keys.first();
    }

}
