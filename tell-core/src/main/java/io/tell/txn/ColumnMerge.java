package io.tell.txn;

import java.util.Set;

/**
 * Whether an update given a {@link RowMerge} can be written on top of the versions a record
 * gained after the one its snapshot saw, and the row it then writes. Each newer version must be
 * live, agree with the version seen on every part of the row the transaction read
 * ({@link RowProjection}; a read of the whole row, or none noted, forbids merging), and join the
 * update as its {@link RowMerge} says; the row written is the newest version with the update's
 * changes. Whether those versions are committed is the caller's to check: a merge may only build
 * on committed versions (docs/transactions.md, "Column merges").
 */
final class ColumnMerge {
    /** The row a merge writes, and whether it computed a column again from a newer version's value ({@link RowMerge#reapplies}). */
    record Onto(byte[] row, boolean reapplied) {
    }

    private ColumnMerge() {
    }

    /**
     * The row {@code e}'s update writes on top of {@code now} (its own new row when nothing newer
     * than the version seen is there), or null when it cannot: then the newer versions are a
     * write-write conflict. The tids of the newer versions are added to {@code newer} (null: not wanted).
     */
    static Onto onto(Transaction.Entry e, TxStart start, MvccRecord now, Set<Long> newer) {
        if (e.merge == null || e.newRow == null || e.usedWhole()) {
            return null;
        }
        RowVersion seen = e.record.visibleTo(start.snapshot(), start.tid());
        if (seen == null || seen.deleted()) {
            return null;
        }
        byte[] onNewest = null; // versions come newest first: the first merge is the row written
        boolean reapplied = false;
        for (RowVersion v : now.versions()) {
            if (v.tid() == seen.tid()) {
                return new Onto(onNewest == null ? e.newRow : onNewest, reapplied);
            }
            if (start.sees(v.tid()) || v.deleted() || !ReadValidator.agrees(e, seen, v)) {
                return null;
            }
            byte[] merged = e.merge.merge(seen.row(), e.newRow, v.row());
            if (merged == null) {
                return null;
            }
            if (onNewest == null) {
                onNewest = merged;
            }
            reapplied = reapplied || e.merge.reapplies(seen.row(), v.row());
            if (newer != null) {
                newer.add(v.tid());
            }
        }
        return null; // the version seen is gone: the record was deleted and written again since
    }
}
