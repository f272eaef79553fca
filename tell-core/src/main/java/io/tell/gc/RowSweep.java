package io.tell.gc;

import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import io.tell.store.Expect;
import io.tell.store.KeyRange;
import io.tell.store.StoredRecord;
import io.tell.store.WriteOp;
import io.tell.txn.MvccRecord;
import io.tell.txn.RowVersion;
import io.tell.txn.TableIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reclaims the rows of one table that are gone for everyone — the newest version a delete at
 * or below lav — together with their index entries.
 *
 * <p>Order matters: <b>entries first, records after</b>. Readers never remove an entry whose row
 * is absent, because {@code IndexWriter} adds entries before the records are written, so an
 * absent row may be an insert in flight; an entry whose record the sweeper deleted first would
 * therefore stay forever. Removing the entries of a gone row is safe: rids are never reused,
 * so no writer can give that row a key again, and any transaction that could still have added
 * an entry for it (one that read the row before the delete) had a base below the delete's tid
 * and has ended, since lav is past that tid. The record goes last, with a delete conditional on
 * the version read: if anything changed it meanwhile, the delete is refused and the row waits
 * for the next pass. A writer that read the row's tombstone and commits after the delete finds
 * the record absent and conflicts ({@code Committer.reload}: a different newest version).
 *
 * <p>Records that hold no version at all are left alone: they are fences a revert wrote over
 * a write of unknown outcome (see {@code TransactionManager.revert}), there to make a late
 * insert-if-absent fail.
 */
final class RowSweep {
    private final SweepPass pass;
    private final SweepScope.Table table;

    RowSweep(SweepPass pass, SweepScope.Table table) {
        this.pass = pass;
        this.table = table;
    }

    void run() {
        byte[] from = null;
        boolean end = false;
        while (!end) {
            List<StoredRecord> gone = new ArrayList<>();
            while (gone.size() < pass.options().maxGoneRows()) {
                List<StoredRecord> page = pass.page(table.rowDomain(), new KeyRange(from, null));
                for (StoredRecord r : page) {
                    if (isGone(r)) {
                        gone.add(r);
                    }
                }
                if (page.size() < pass.options().pageSize()) {
                    end = true;
                    break;
                }
                from = SweepPass.after(page.get(page.size() - 1).key());
            }
            if (!gone.isEmpty()) {
                reclaim(gone);
            }
        }
    }

    private boolean isGone(StoredRecord r) {
        RowVersion newest = MvccRecord.decode(r.value()).newest();
        return newest != null && newest.deleted() && newest.tid() <= pass.lav();
    }

    private void reclaim(List<StoredRecord> gone) {
        Map<Long, StoredRecord> byRid = new HashMap<>();
        for (StoredRecord r : gone) {
            byRid.put(TableIndex.ridOf(r.key()), r);
        }
        for (BTreeConfig config : table.indexes()) {
            removeEntries(pass.tree(config), byRid);
        }
        // Only now that no index names them: the records themselves.
        List<WriteOp> deletes = new ArrayList<>();
        for (StoredRecord r : gone) {
            deletes.add(WriteOp.delete(table.rowDomain(), r.key(), Expect.version(r.version())));
            if (deletes.size() == pass.options().pageSize()) {
                pass.counters().rows.add(pass.writeAll(deletes));
                deletes.clear();
            }
        }
        pass.counters().rows.add(pass.writeAll(deletes));
    }

    /**
     * Walks the whole tree (an entry's key cannot be derived from the row: eager GC may have
     * dropped the versions that held older keys) and deletes the entries of gone rows.
     */
    private void removeEntries(BTree tree, Map<Long, StoredRecord> gone) {
        pass.checkLease();
        List<IndexEntry> entries = tree.scan(ScanRange.ALL, false, Integer.MAX_VALUE);
        pass.counters().scanned.add(entries.size());
        pass.pacer().pace(Math.max(1, entries.size()));
        int removed = 0;
        for (IndexEntry e : entries) {
            if (gone.containsKey(e.rid())) {
                if (++removed % pass.options().pageSize() == 0) {
                    pass.checkLease();
                    pass.pacer().pace(pass.options().pageSize());
                }
                if (tree.delete(e.key(), e.rid())) {
                    pass.counters().indexEntries.increment();
                }
            }
        }
        tree.flush();
    }
}
