package io.tell.index.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tell.index.IndexEntry;
import io.tell.index.InsertResult;
import io.tell.index.KeyEncoder;
import io.tell.index.KeyType;
import io.tell.index.ScanRange;
import io.tell.store.RecordStore;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Supplier;

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

    static int firstInt(byte[] key) {
        return (Integer) KEYS.decode(key)[0];
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

    /**
     * One random operation on {@code tree}, checked against {@code model} and applied to it:
     * 45% inserts, 25% deletes (mostly of present entries), 15% lookups, 15% scans.
     */
    static void randomOp(BLinkTree tree, TreeSet<IndexEntry> model, Random rnd, int space, boolean unique,
                         Supplier<String> where) {
        int kind = rnd.nextInt(100);
        if (kind < 45) {
            IndexEntry e = new IndexEntry(key(rnd, space), unique ? rnd.nextInt(1000) : rnd.nextInt(4));
            InsertResult expected = expectedInsert(model, e, unique);
            assertEquals(expected, tree.insert(e.key(), e.rid()), () -> "insert " + e + where.get());
            if (expected.inserted()) {
                model.add(e);
            }
        } else if (kind < 70) {
            IndexEntry e = !model.isEmpty() && rnd.nextInt(10) < 7
                    ? randomMember(model, rnd, space)
                    : new IndexEntry(key(rnd, space), rnd.nextInt(4));
            assertEquals(model.remove(e), tree.delete(e.key(), e.rid()), () -> "delete " + e + where.get());
        } else if (kind < 85) {
            byte[] key = key(rnd, space);
            List<Long> expected = new ArrayList<>();
            for (IndexEntry e : expectedScan(model, ScanRange.key(key), false, Integer.MAX_VALUE)) {
                expected.add(e.rid());
            }
            assertEquals(expected, tree.lookup(key), () -> "lookup" + where.get());
        } else {
            ScanRange range = randomRange(rnd, space);
            boolean descending = rnd.nextBoolean();
            int limit = rnd.nextBoolean() ? Integer.MAX_VALUE : rnd.nextInt(30);
            assertEquals(expectedScan(model, range, descending, limit), tree.scan(range, descending, limit),
                    () -> "scan " + range + " descending " + descending + " limit " + limit + where.get());
        }
    }

    static InsertResult expectedInsert(TreeSet<IndexEntry> model, IndexEntry e, boolean unique) {
        if (model.contains(e)) {
            return InsertResult.ALREADY_PRESENT;
        }
        if (unique) {
            IndexEntry same = model.ceiling(new IndexEntry(e.key(), Long.MIN_VALUE));
            if (same != null && same.sameKey(e)) {
                return new InsertResult.DuplicateKey(same.rid());
            }
        }
        return InsertResult.INSERTED;
    }

    private static IndexEntry randomMember(TreeSet<IndexEntry> model, Random rnd, int space) {
        IndexEntry e = model.ceiling(new IndexEntry(key(rnd, space), rnd.nextLong()));
        return e != null ? e : model.first();
    }
}
