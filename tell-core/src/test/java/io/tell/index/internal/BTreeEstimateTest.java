package io.tell.index.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.store.RecordStores;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link BTree#estimateEntries}: within a small factor of the entries a tree holds, at every height. */
class BTreeEstimateTest {

    @ParameterizedTest(name = "{0} entries, {1}")
    @CsvSource({"0, random", "5, random", "60, random", "1000, random", "1000, ascending",
            "30000, random", "30000, ascending", "200000, random"})
    void anEstimateIsWithinAFactorOfThree(int entries, String order) {
        BTree tree = BTree.open(RecordStores.open("mem:"), BTreeConfig.of("t", true));
        List<Integer> keys = new ArrayList<>();
        for (int i = 0; i < entries; i++) {
            keys.add(i);
        }
        if (order.equals("random")) {
            Collections.shuffle(keys, new Random(TreeTesting.SEED));
        }
        List<BTree.Insertion> batch = new ArrayList<>();
        for (int k : keys) {
            batch.add(new BTree.Insertion(tree, TreeTesting.key(k), k));
            if (batch.size() == 1000) {
                BTree.insertAll(batch);
                batch.clear();
            }
        }
        BTree.insertAll(batch);
        assertWithinThree(entries, tree.estimateEntries());
    }

    /** A queue: entries added at the back and taken from the front, whose front leaves are empty or gone. */
    @ParameterizedTest(name = "{0} of {1} taken from the front")
    @CsvSource({"15000, 20000", "19000, 20000", "1000, 20000"})
    void aQueueIsEstimatedByItsLiveEntries(int taken, int added) {
        BTree tree = BTree.open(RecordStores.open("mem:"), BTreeConfig.of("t", true));
        for (int k = 0; k < added; k++) {
            tree.insert(TreeTesting.key(k), k);
        }
        for (int k = 0; k < taken; k++) {
            tree.delete(TreeTesting.key(k), k);
        }
        assertWithinThree(added - taken, tree.estimateEntries());
    }

    private static void assertWithinThree(int entries, long estimate) {
        if (entries < BTreeConfig.DEFAULT_NODE_CAPACITY) {
            assertEquals(entries, estimate, "one leaf: counted exactly");
        } else {
            assertTrue(estimate >= entries / 3 && estimate <= entries * 3L,
                    "estimate " + estimate + " for " + entries + " entries; " + TreeTesting.seedNote());
        }
    }
}
