package io.tell.txn;

import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads rows through an index for one transaction: entries are version-unaware, so every row
 * is checked against the snapshot (and the transaction's own writes, which reach the index only
 * at commit), and an entry no version anyone can see still matches is removed on the way.
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
                if (be != null && !be.written && isGarbage(be, index, e.key())) {
                    removeStale(index, e, be.stored);
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
     * True when no version anyone may still read holds {@code key}: those are the versions
     * down to and including the newest one at or below lav (everything older is invisible to
     * every running transaction), and in-flight ones, which are above lav.
     */
    private boolean isGarbage(Transaction.Entry be, TableIndex index, byte[] key) {
        for (RowVersion v : be.record.versions()) {
            if (IndexWriter.holdsKey(v, index, key)) {
                return false;
            }
            if (v.tid() <= start.lav()) {
                break;
            }
        }
        return true;
    }

    /**
     * Removes a garbage entry, then re-reads the row: a writer that gave the row this key again
     * meanwhile may have found the entry still present (and added nothing), so it is put back.
     */
    private void removeStale(TableIndex index, IndexEntry e, Versioned readBefore) {
        try {
            if (!index.tree().delete(e.key(), e.rid())) {
                return;
            }
            Versioned now = TellException.join(manager.store().getAsync(new RecordKey(index.table(), TableIndex.ridKey(e.rid()))));
            long before = readBefore == null ? 0 : readBefore.version();
            long after = now == null ? 0 : now.version();
            if (after != before && now != null) {
                for (RowVersion v : MvccRecord.decode(now.value()).versions()) {
                    if (IndexWriter.holdsKey(v, index, e.key())) {
                        index.tree().insert(e.key(), e.rid());
                        return;
                    }
                }
            }
        } catch (TellException ignored) {
            // Removal is an optimisation; the entry stays and is checked again by the next reader.
        }
    }
}
