package io.tell.index.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStores;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link BTree#scanPage}: pages that end at a leaf's end once they hold enough entries walk a
 * range exactly as one scan does, and a reader wanting the first entry of a range reads one leaf.
 */
class BTreeScanPageTest {

    @Test
    void pagesOfAnySizeWalkARangeAsOneScanDoes() {
        Random rnd = new Random(TreeTesting.SEED);
        BTree tree = BTree.open(RecordStores.open("mem:"), new BTreeConfig("t", false, 4, 1000, 10, false));
        TreeSet<IndexEntry> model = new TreeSet<>();
        for (int i = 0; i < 400; i++) {
            // Few keys: runs of one key span many leaves.
            IndexEntry e = new IndexEntry(TreeTesting.key(rnd.nextInt(40)), rnd.nextLong(1L << 40));
            model.add(e);
            tree.insert(e.key(), e.rid());
        }
        for (int round = 0; round < 300; round++) {
            ScanRange range = TreeTesting.randomRange(rnd, 40);
            int limit = 1 + rnd.nextInt(20);
            List<IndexEntry> walked = new ArrayList<>();
            IndexEntry after = null;
            while (true) {
                int enough = 1 + rnd.nextInt(limit);
                List<IndexEntry> page = tree.scanPage(range, after, enough, limit);
                assertTrue(page.size() <= limit, TreeTesting.seedNote());
                walked.addAll(page);
                if (page.size() < enough) {
                    break;
                }
                after = page.get(page.size() - 1);
            }
            List<IndexEntry> expected = tree.scan(range, false, Integer.MAX_VALUE);
            assertEquals(expected, walked, TreeTesting.seedNote() + ", round " + round);
            List<IndexEntry> inModel = model.stream().filter(e -> range.contains(e.key())).toList();
            assertEquals(inModel, walked, TreeTesting.seedNote() + ", round " + round);
        }
        assertThrows(IllegalArgumentException.class, () -> tree.scanPage(ScanRange.ALL, null, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> tree.scanPage(ScanRange.ALL, null, 2, 1));
    }

    @Test
    void theFirstEntryOfARangeCostsOneRoundTrip() {
        CountingRecordStore store = new CountingRecordStore(RecordStores.open("mem:"));
        BTree tree = BTree.open(store, BTreeConfig.of("t", true));
        for (int k = 0; k < 10_000; k++) {
            if (k % 100 < 50) { // runs of keys and gaps: many ranges start after their first leaf's last entry
                tree.insert(TreeTesting.key(k), k);
            }
        }
        tree.scan(ScanRange.ALL, false, Integer.MAX_VALUE); // every inner node in the cache
        int crossing = 0;
        for (int k = 0; k < 9_900; k += 3) {
            ScanRange range = new ScanRange(ScanRange.inclusive(TreeTesting.key(k)), null);
            long before = store.counts().reads();
            List<IndexEntry> page = tree.scanPage(range, null, 1, 16);
            assertEquals(1, store.counts().reads() - before, "one round trip for the first entry from " + k);
            int expected = k % 100 < 50 ? k : k - k % 100 + 100;
            assertEquals(expected, page.get(0).rid());
            before = store.counts().reads();
            tree.scan(range, false, 16);
            crossing += store.counts().reads() - before > 1 ? 1 : 0;
        }
        assertTrue(crossing > 0, "some scans of 16 entries read the next leaves in a round trip of their own");
    }
}
