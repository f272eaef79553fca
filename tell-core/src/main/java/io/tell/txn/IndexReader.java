package io.tell.txn;

import io.tell.error.TellException;
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
 * at commit), and entries whose rows are gone for everyone are removed on the way.
 */
final class IndexReader {
    private final TransactionManager manager;
    private final TxStart start;

    IndexReader(TransactionManager manager, TxStart start) {
        this.manager = manager;
        this.start = start;
    }

    List<IndexedRow> scan(Transaction tx, java.util.Map<RecordKey, Transaction.Entry> buffer,
                          TableIndex index, ScanRange range, int limit) {
        List<IndexEntry> entries = index.tree().scan(range, false, Integer.MAX_VALUE);
        tx.scanned(index, range, entries);
        List<RecordKey> keys = new ArrayList<>(entries.size());
        for (IndexEntry e : entries) {
            keys.add(new RecordKey(index.table(), TableIndex.ridKey(e.rid())));
        }
        List<byte[]> rows = tx.getAll(keys);
        List<IndexEntry> found = new ArrayList<>();
        List<byte[]> foundRows = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < entries.size(); i++) {
            IndexEntry e = entries.get(i);
            byte[] row = rows.get(i);
            if (row != null && Arrays.equals(e.key(), index.keyOf().apply(row))) {
                if (seen.add(e.rid())) {
                    found.add(e);
                    foundRows.add(row);
                }
            } else {
                Transaction.Entry be = buffer.get(keys.get(i));
                if (be != null && !be.written && rowIsGone(be)) {
                    removeStale(index, e);
                }
            }
        }
        // Rows this transaction wrote with a key in range: the index learns of them at commit.
        for (Transaction.Entry be : buffer.values()) {
            if (be.written && be.newRow != null && be.key.domain().equals(index.table())) {
                byte[] key = index.keyOf().apply(be.newRow);
                long rid = TableIndex.ridOf(be.key.key());
                if (key != null && range.contains(key) && seen.add(rid)) {
                    found.add(new IndexEntry(key, rid));
                    foundRows.add(be.newRow.clone());
                }
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparing(found::get));
        List<IndexedRow> out = new ArrayList<>();
        for (int i : order) {
            if (out.size() >= limit) {
                break;
            }
            out.add(new IndexedRow(found.get(i).rid(), foundRows.get(i)));
        }
        return out;
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

    private void removeStale(TableIndex index, IndexEntry e) {
        try {
            index.tree().delete(e.key(), e.rid());
        } catch (TellException ignored) {
            // Removal is an optimisation; the entry stays and is checked again by the next reader.
        }
    }
}
