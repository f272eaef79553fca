package io.tell.index.internal;

import static io.tell.index.internal.TreeTesting.SEED;
import static io.tell.index.internal.TreeTesting.seedNote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
 * A client stops for good right after one conditional write of a split, as a crashed
 * processing node would. The tree must be valid at once, and other clients (one with a warm,
 * now stale cache, one fresh) must keep working on it, finish or tolerate the split, and end
 * with exactly the entries whose inserts took effect.
 */
class BTreeInterruptedSplitTest {
    private static final int SPACE = 3000;

    /** Thrown from the hook: the client "crashes" here. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super("client stopped by the test", null, false, false);
        }
    }

    /**
     * {@code prefill} entries go in before the hook is armed, so the split stopped is the first
     * {@code step} on {@code level} after that: with 0 a root split (the root a leaf, or on
     * level 1), with more a split below an existing root.
     */
    @ParameterizedTest(name = "stop after {0} on level {1}, prefill {2}, inline {3}")
    @CsvSource({
        "RIGHT_WRITTEN, 0, 0, true", "LEFT_SWUNG, 0, 0, true", "ROOT_WRITTEN, 1, 0, true", "ROOT_SWUNG, 1, 0, true",
        "RIGHT_WRITTEN, 0, 60, true", "LEFT_SWUNG, 0, 60, true", "SEPARATOR_POSTED, 1, 60, true",
        "RIGHT_WRITTEN, 1, 0, true", "LEFT_SWUNG, 1, 0, true", "ROOT_WRITTEN, 2, 0, true", "ROOT_SWUNG, 2, 0, true",
        "LEFT_SWUNG, 1, 400, true", "SEPARATOR_POSTED, 2, 400, true",
        "RIGHT_WRITTEN, 0, 60, false", "LEFT_SWUNG, 0, 60, false", "LEFT_SWUNG, 1, 0, false", "ROOT_WRITTEN, 1, 0, false",
    })
    void otherClientsCarryOnAfterAClientStopsMidSplit(SplitStep step, int level, int prefill, boolean inline) {
        Random rnd = new Random(SEED + step.ordinal() * 10L + level);
        RecordStore store = RecordStores.open("mem:");
        BTreeConfig config = new BTreeConfig("stop", false, 4, 100, 10, inline);
        boolean[] armed = {false};
        BLinkTree victim = BLinkTree.open(store, config, (s, l) -> {
            if (armed[0] && s == step && l == level) {
                throw new Stopped();
            }
        });
        BLinkTree warm = BLinkTree.open(store, config);
        TreeSet<IndexEntry> model = new TreeSet<>();
        for (int i = 0; i < prefill; i++) {
            IndexEntry e = new IndexEntry(TreeTesting.key(rnd, SPACE), rnd.nextInt(4));
            if (warm.insert(e.key(), e.rid()).inserted()) {
                model.add(e);
            }
        }
        armed[0] = true;
        IndexEntry inFlight = null;
        for (int i = 0; i < 20_000 && inFlight == null; i++) {
            IndexEntry e = new IndexEntry(TreeTesting.key(rnd, SPACE), rnd.nextInt(4));
            try {
                if (victim.insert(e.key(), e.rid()).inserted()) {
                    model.add(e);
                }
            } catch (Stopped stopped) {
                inFlight = e;
            }
        }
        assertNotNull(inFlight, "the split to stop never happened" + seedNote());
        boolean leafSwung = !(step == SplitStep.RIGHT_WRITTEN && level == 0);
        if (leafSwung) { // the insert took effect with the leaf's conditional write
            model.add(inFlight);
        }

        TreeValidator.Report stopped = TreeTesting.validateAgainst(store, "stop", model);
        String where = " after " + step + " on level " + level + ": " + stopped + seedNote();
        switch (step) {
            case RIGHT_WRITTEN -> assertTrue(stopped.unreachableMappings() >= 1, "orphan right node expected" + where);
            case LEFT_SWUNG -> assertTrue(stopped.missingSeparators() + stopped.topLevelNodes() - 1 >= 1,
                    "a missing separator or root expected" + where);
            case ROOT_WRITTEN -> assertTrue(stopped.topLevelNodes() >= 2 && stopped.unreachableMappings() >= 1,
                    "an unfinished root and an orphan root expected" + where);
            case SEPARATOR_POSTED, ROOT_SWUNG -> assertEquals(1, stopped.topLevelNodes(), where);
        }

        BLinkTree fresh = BLinkTree.open(store, config);
        List<BLinkTree> others = List.of(warm, fresh);
        for (int op = 0; op < 3000; op++) {
            int opNo = op;
            TreeTesting.randomOp(others.get(op % 2), model, rnd, SPACE, false, () -> " at op " + opNo + where);
        }
        // Writes right next to the interrupted one, from both clients.
        for (int rid = 10; rid < 14; rid++) {
            IndexEntry e = new IndexEntry(inFlight.key(), rid);
            assertTrue(others.get(rid % 2).insert(e.key(), e.rid()).inserted(), where);
            model.add(e);
        }
        assertEquals(TreeTesting.expectedScan(model, io.tell.index.ScanRange.key(inFlight.key()), false, 100)
                .stream().map(IndexEntry::rid).toList(), fresh.lookup(inFlight.key()), where);
        TreeValidator.Report after = TreeTesting.validateAgainst(store, "stop", model);
        assertEquals(0, after.missingSeparators(), "writers finish what the stopped client left" + where);
        assertEquals(1, after.topLevelNodes(), "writers finish an unfinished root" + where);
    }
}
