package io.tell.index.internal;

import static io.tell.index.internal.TreeTesting.SEED;
import static io.tell.index.internal.TreeTesting.seedNote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Single-threaded randomized test against a {@link TreeSet} model, with small nodes so splits
 * happen all the time. Three clients over one store take turns (one without a cache, one with
 * a tiny one), so stale caches, back-down searches and moves to the right are exercised too.
 * {@code -Dtell.btree.ops=N} sets the operations per configuration (default 50,000, i.e.
 * 200,000 over the four configurations).
 */
class BTreeModelTest {
    private static final int OPS = Integer.getInteger("tell.btree.ops", 50_000);

    @ParameterizedTest(name = "unique={0} inlineLeaves={1}")
    @CsvSource({"false,true", "true,true", "false,false", "true,false"})
    void randomOperationsMatchTheModel(boolean unique, boolean inline) {
        String name = "t" + (unique ? "u" : "n") + (inline ? "i" : "p");
        runModel(RecordStores.open("mem:"), name, unique, inline, OPS);
    }

    /** The model test on any store (BTreeRedisIT runs it on Redis). */
    static void runModel(RecordStore store, String name, boolean unique, boolean inline, int ops) {
        Random rnd = new Random(SEED * 31 + (unique ? 1 : 0) * 2 + (inline ? 1 : 0));
        int capacity = 4 + rnd.nextInt(5);
        int space = 1500;
        BTreeConfig config = new BTreeConfig(name, unique, capacity, 1000, 10, inline);
        List<BLinkTree> clients = List.of(
                BLinkTree.open(store, config),
                BLinkTree.open(store, config.withCacheEntries(0)),
                BLinkTree.open(store, config.withCacheEntries(3)));
        TreeSet<IndexEntry> model = new TreeSet<>();
        long started = System.nanoTime();
        String where = " [capacity " + capacity + ", unique " + unique + ", inline " + inline + "]" + seedNote();
        for (int op = 0; op < ops; op++) {
            BLinkTree tree = clients.get(rnd.nextInt(clients.size()));
            int opNo = op;
            TreeTesting.randomOp(tree, model, rnd, space, unique, () -> " at op " + opNo + where);
            if (op % 20_000 == 19_999) {
                TreeTesting.validateAgainst(store, name, model);
            }
        }
        for (BLinkTree c : clients) {
            c.flush();
        }
        TreeValidator.Report report = TreeTesting.validateAgainst(store, name, model);
        assertEquals(0, report.missingSeparators(), "a single thread finishes every split" + where);
        assertEquals(1, report.topLevelNodes(), where);
        assertEquals(0, report.unreachableMappings(), "garbage left" + where);
        assertEquals(0, report.unreferencedPhysical(), "garbage left" + where);
        assertTrue(report.maxNodeSize() <= capacity, "node over capacity" + where);
        assertTrue(report.height() >= 2, "tree too flat to mean much: " + report.nodesPerLevel() + where);
        System.out.printf("b-tree model test on %s %s: %d ops in %d ms, %d entries, nodes per level %s%n", store.describe(), where, ops,
                (System.nanoTime() - started) / 1_000_000, report.entries().size(), report.nodesPerLevel());
    }
}
