package io.tell.txn;

import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import java.util.HashMap;
import java.util.HexFormat;
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
 * per transaction), so a scan-heavy transaction holds no more than it did.
 */
final class TreeReads {
    static final int MAX_ENTRIES = 32;
    static final int MAX_RANGES = 256;

    private record Key(TableIndex index, String range, int limit) {
    }

    private final Map<Key, List<IndexEntry>> kept = new HashMap<>();

    /** Up to {@code limit} entries of {@code range}, ascending: kept ones, or read from the tree. */
    List<IndexEntry> scan(TableIndex index, ScanRange range, int limit) {
        Key key = new Key(index, describe(range), limit);
        List<IndexEntry> entries = kept.get(key);
        if (entries == null) {
            entries = index.tree().scan(range, false, limit);
            if (entries.size() <= MAX_ENTRIES && kept.size() < MAX_RANGES) {
                kept.put(key, List.copyOf(entries));
            }
        }
        return entries;
    }

    /** Forgets every kept range of {@code index} (after one of its entries was removed from the tree). */
    void forget(TableIndex index) {
        kept.keySet().removeIf(k -> k.index() == index);
    }

    private static String describe(ScanRange range) {
        return bound(range.lower()) + "/" + bound(range.upper());
    }

    private static String bound(ScanRange.Bound b) {
        return b == null ? "-" : (b.inclusive() ? "[" : "(") + HexFormat.of().formatHex(b.key());
    }
}
