package io.tell.txn;

import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The index entries one transaction read, kept so that reading the same range again (an UPDATE
 * of the row a SELECT just found, say) costs no round trip. Safe under snapshot isolation:
 * every transaction in the snapshot committed before this one started and added its entries
 * before it committed, so any read during this transaction holds them all; a later read could
 * only add entries of rows this snapshot cannot see. Entries are removed only for rows gone for
 * every snapshot ({@link IndexReader}), so a kept list never misses a visible row either. The
 * transaction's own writes are merged in by the reader on every read, kept or not.
 *
 * <p>Small results only ({@value #MAX_ENTRIES} entries at most, {@value #MAX_RANGES} ranges
 * per transaction, then it starts over), so a scan-heavy transaction holds little more than it
 * did. A join can read ahead here ({@link #prefetch}): the lookups for many outer rows in one
 * batch.
 */
final class TreeReads {
    static final int MAX_ENTRIES = 32;
    static final int MAX_RANGES = 4096;

    /** A range of one index read with one limit (and the page's {@code enough}); bounds compared by content. */
    private record Key(TableIndex index, ScanRange range, int enough, int limit) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.index == index && k.limit == limit && k.enough == enough
                    && same(k.range.lower(), range.lower()) && same(k.range.upper(), range.upper());
        }

        @Override
        public int hashCode() {
            return ((System.identityHashCode(index) * 31 + hash(range.lower())) * 31 + hash(range.upper()) + limit) * 31
                    + enough;
        }

        private static boolean same(ScanRange.Bound a, ScanRange.Bound b) {
            return a == null ? b == null : b != null && a.inclusive() == b.inclusive() && Arrays.equals(a.key(), b.key());
        }

        private static int hash(ScanRange.Bound b) {
            return b == null ? 0 : Arrays.hashCode(b.key()) * 2 + (b.inclusive() ? 1 : 0);
        }
    }

    private final Map<Key, List<IndexEntry>> kept = new HashMap<>();

    /** Up to {@code limit} entries of {@code range}, ascending: kept ones, or read from the tree. */
    List<IndexEntry> scan(TableIndex index, ScanRange range, int limit) {
        Key key = new Key(index, range, limit, limit);
        List<IndexEntry> entries = kept.get(key);
        if (entries == null) {
            entries = index.tree().scan(range, false, limit);
            keep(key, entries);
        }
        return entries;
    }

    /**
     * A page of {@code range} after {@code after} ({@link io.tell.index.BTree#scanPage}): kept,
     * or read from the tree. Only first pages are kept.
     */
    List<IndexEntry> scanPage(TableIndex index, ScanRange range, IndexEntry after, int enough, int limit) {
        if (after != null) {
            return index.tree().scanPage(range, after, enough, limit);
        }
        Key key = new Key(index, range, enough, limit);
        List<IndexEntry> entries = kept.get(key);
        if (entries == null) {
            entries = index.tree().scanPage(range, null, enough, limit);
            keep(key, entries);
        }
        return entries;
    }

    /**
     * Reads the entries of those {@code ranges} not kept yet in one batch ({@link
     * io.tell.index.BTree#scanBatch}), keeps them as an unlimited scan of each range would, and
     * returns the rids found.
     */
    List<Long> prefetch(TableIndex index, List<ScanRange> ranges) {
        Map<Key, ScanRange> missingByKey = new LinkedHashMap<>();
        for (ScanRange r : ranges) {
            Key key = new Key(index, r, Integer.MAX_VALUE, Integer.MAX_VALUE);
            if (!kept.containsKey(key)) {
                missingByKey.putIfAbsent(key, r);
            }
        }
        List<Key> keys = new ArrayList<>(missingByKey.keySet());
        List<ScanRange> missing = new ArrayList<>(missingByKey.values());
        List<Long> rids = new ArrayList<>();
        if (missing.isEmpty()) {
            return rids;
        }
        List<List<IndexEntry>> found = index.tree().scanBatch(missing);
        for (int i = 0; i < missing.size(); i++) {
            keep(keys.get(i), found.get(i));
            found.get(i).forEach(e -> rids.add(e.rid()));
        }
        return rids;
    }

    /** True when the entries of {@code range} are kept from an unlimited scan or a read-ahead: reading them costs nothing. */
    boolean holds(TableIndex index, ScanRange range) {
        return kept.containsKey(new Key(index, range, Integer.MAX_VALUE, Integer.MAX_VALUE));
    }

    private void keep(Key key, List<IndexEntry> entries) {
        if (entries.size() > MAX_ENTRIES) {
            return;
        }
        if (kept.size() >= MAX_RANGES) {
            kept.clear(); // a cache, not a record: starting over costs round trips, never answers
        }
        kept.put(key, List.copyOf(entries));
    }

    /** Forgets every kept range of {@code index} (after one of its entries was removed from the tree). */
    void forget(TableIndex index) {
        kept.keySet().removeIf(k -> k.index() == index);
    }
}
