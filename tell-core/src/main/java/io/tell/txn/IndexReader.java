package io.tell.txn;

import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import io.tell.store.RecordKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads rows through an index for one transaction: entries are version-unaware, so every row
 * is checked against the snapshot (and the transaction's own writes, which reach the index only
 * at commit), and entries whose rows are gone for everyone are handed to {@link StaleEntries} for removal.
 */
final class IndexReader {
    private final TransactionManager manager;
    private final TxStart start;

    IndexReader(TransactionManager manager, TxStart start) {
        this.manager = manager;
        this.start = start;
    }

    /** Entries per tree read when a scan has a limit: a few more than asked for, as some rows may not be visible. */
    private static final int MIN_PAGE = 16;

    /**
     * Up to {@code limit} rows in (key, rid) order. Without a limit the whole range is read at
     * once (one leaf walk, one batched row read); with one, it is read in pages and stops as
     * soon as enough visible rows are found, and only the part of the range actually read
     * counts as scanned (for merging the transaction's own writes); read validation then
     * re-scans only up to the last row returned.
     */
    List<IndexedRow> scan(Transaction tx, java.util.Map<RecordKey, Transaction.Entry> buffer,
                          TableIndex index, ScanRange range, int limit, RowProjection used, boolean oneUniqueKey) {
        Found found = new Found();
        List<IndexEntry> all = new ArrayList<>();
        ScanRange scanned = range;
        if (limit == Integer.MAX_VALUE) {
            all = tx.treeReads().scan(index, range, Integer.MAX_VALUE);
            check(tx, buffer, index, all, found, used);
        } else {
            // Pages end at a leaf's end once they hold as many entries as rows are still wanted:
            // a scan for the first row of a range reads one leaf when that leaf has an entry.
            int page = Math.max(MIN_PAGE, limit * 2);
            IndexEntry last = null;
            while (true) {
                int enough = Math.min(page, Math.max(1, limit - found.entries.size()));
                List<IndexEntry> read = tx.treeReads().scanPage(index, range, last, enough, page);
                all.addAll(read);
                check(tx, buffer, index, read, found, used);
                if (read.size() < enough) {
                    break; // the range holds no more
                }
                last = read.get(read.size() - 1);
                if (found.entries.size() >= limit) {
                    scanned = new ScanRange(range.lower(), ScanRange.inclusive(last.key()));
                    break;
                }
            }
        }
        boolean foundStored = !found.entries.isEmpty();
        // Rows this transaction wrote with a key in range: the index learns of them at commit.
        for (Transaction.Entry be : tx.writtenEntries()) {
            if (be.newRow != null && be.key.domain().equals(index.table())) {
                byte[] key = index.keyOf().apply(be.newRow);
                long rid = TableIndex.ridOf(be.key.key());
                if (key != null && scanned.contains(key) && found.seen.add(rid)) {
                    found.entries.add(new IndexEntry(key, rid));
                    found.rows.add(be.newRow.clone());
                }
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < found.entries.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparing(found.entries::get));
        List<IndexedRow> out = new ArrayList<>();
        for (int i : order) {
            if (out.size() >= limit) {
                break;
            }
            out.add(new IndexedRow(found.entries.get(i).rid(), found.rows.get(i)));
        }
        if (!oneUniqueKey || !foundStored) {
            ScanRange validated = scanned;
            if (limit != Integer.MAX_VALUE && out.size() >= limit) {
                // The result is the first `limit` rows of the range: a row entering it past the
                // last one returned cannot change that, so only the range up to it is validated.
                validated = new ScanRange(range.lower(), ScanRange.inclusive(found.entries.get(order.get(limit - 1)).key()));
            }
            tx.scanned(index, validated, all);
        }
        return out;
    }

    /** Entries whose rows the transaction sees with the entry's key, and those rows. */
    private static final class Found {
        final List<IndexEntry> entries = new ArrayList<>();
        final List<byte[]> rows = new ArrayList<>();
        final Set<Long> seen = new HashSet<>();
    }

    /** Reads the rows of {@code entries} (one batched round trip) and keeps those visible with the entry's key. */
    private void check(Transaction tx, java.util.Map<RecordKey, Transaction.Entry> buffer, TableIndex index,
                       List<IndexEntry> entries, Found found, RowProjection used) {
        List<RecordKey> keys = new ArrayList<>(entries.size());
        for (IndexEntry e : entries) {
            keys.add(new RecordKey(index.table(), TableIndex.ridKey(e.rid())));
        }
        List<byte[]> rows = tx.readRows(keys, used);
        for (int i = 0; i < entries.size(); i++) {
            IndexEntry e = entries.get(i);
            byte[] row = rows.get(i);
            if (row != null && Arrays.equals(e.key(), index.keyOf().apply(row))) {
                if (found.seen.add(e.rid())) {
                    found.entries.add(e);
                    found.rows.add(row);
                }
            } else {
                Transaction.Entry be = buffer.get(keys.get(i));
                if (be != null && !be.written && rowIsGone(be)) {
                    manager.staleEntries().remove(index, e);
                    tx.treeReads().forget(index);
                }
            }
        }
    }

    /**
     * True when the entry's row is gone for everyone: its record holds no version (a revert's
     * placeholder) or its newest version is a delete at or below lav (committed, and no running
     * transaction can see past it). An absent record is not gone: entries are added before
     * their rows, so it may be an insert in flight. Rids
     * are never reused, so no writer can give a gone row a key again: removing its entries
     * cannot race with one. Entries of live rows whose key changed stay (readers skip them):
     * removing those would race with a writer that found the entry present and added none.
     */
    private boolean rowIsGone(Transaction.Entry be) {
        RowVersion newest = be.record.newest();
        return be.stored != null && (newest == null || (newest.deleted() && newest.tid() <= start.lav()));
    }
}
