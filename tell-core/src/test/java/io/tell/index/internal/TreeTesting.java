package io.tell.index.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tell.index.IndexEntry;
import io.tell.index.KeyEncoder;
import io.tell.index.KeyType;
import io.tell.index.ScanRange;
import io.tell.store.RecordStore;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;

/** Shared pieces of the b-tree tests: seeds, keys, the reference model of a scan, validation. */
final class TreeTesting {
    static final long SEED = Long.getLong("tell.seed", 1);
    private static final KeyEncoder KEYS = KeyEncoder.of(KeyType.INTEGER, KeyType.VARCHAR);
    private static final String[] SUFFIXES = {"", "a", "ab", "b", "\0"};

    private TreeTesting() {
    }

    static String seedNote() {
        return " (seed " + SEED + ", rerun with -Dtell.seed=" + SEED + ")";
    }

    /** Keys with shared prefixes and varying lengths: (k, suffix) for k below {@code space}. */
    static byte[] key(Random rnd, int space) {
        return key(rnd.nextInt(space), suffix(rnd));
    }

    static byte[] key(int k, String suffix) {
        return KEYS.encode(k, suffix);
    }

    static byte[] key(int k) {
        return key(k, "");
    }

    /** Mostly short ranges (up to 60 keys wide, sometimes empty or inverted), now and then open-ended. */
    static ScanRange randomRange(Random rnd, int space) {
        int from = rnd.nextInt(space);
        int to = from + rnd.nextInt(60) - 5;
        ScanRange.Bound lower = rnd.nextInt(20) == 0 ? null : new ScanRange.Bound(key(from, suffix(rnd)), rnd.nextBoolean());
        ScanRange.Bound upper = rnd.nextInt(20) == 0 ? null : new ScanRange.Bound(key(to, suffix(rnd)), rnd.nextBoolean());
        return new ScanRange(lower, upper);
    }

    private static String suffix(Random rnd) {
        return SUFFIXES[rnd.nextInt(SUFFIXES.length)];
    }

    /** What a scan must return, computed from the model. */
    static List<IndexEntry> expectedScan(NavigableSet<IndexEntry> model, ScanRange range, boolean descending, int limit) {
        NavigableSet<IndexEntry> from = model;
        if (!descending && range.lower() != null) {
            from = model.tailSet(new IndexEntry(range.lower().key(), Long.MIN_VALUE), true);
        } else if (descending && range.upper() != null) {
            from = model.headSet(new IndexEntry(range.upper().key(), Long.MAX_VALUE), true);
        }
        List<IndexEntry> out = new ArrayList<>();
        for (IndexEntry e : descending ? from.descendingSet() : from) {
            if (out.size() == limit || (descending ? !range.aboveLower(e.key()) : !range.belowUpper(e.key()))) {
                break;
            }
            if (range.contains(e.key())) {
                out.add(e);
            }
        }
        return out;
    }

    /** Validates the tree and checks that it holds exactly the model's entries. */
    static TreeValidator.Report validateAgainst(RecordStore store, String name, NavigableSet<IndexEntry> model) {
        TreeValidator.Report report = TreeValidator.validate(store, name);
        assertEquals(new ArrayList<>(model), report.entries(), "tree content differs from the model" + seedNote());
        return report;
    }
}
