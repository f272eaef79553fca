package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Read validation: SERIALIZABLE's commit-time check (the argument is in docs/transactions.md,
 * "Why this is serializable"), also made below SERIALIZABLE by a commit whose merge re-applied
 * a change onto another writer's value (before its records are written; "Column merges").
 * Committed SERIALIZABLE writers serialize in the order in which they start validating,
 * which they do only once their own versions are in the store.
 *
 * <p>A transaction that wrote something validates against the store: a read is still valid
 * iff the record's newest version other than ours is the very version the snapshot saw (none,
 * if it saw none): nothing newer was committed or is in flight — or, when every read of the
 * record used only part of the row ({@link RowProjection}), iff every newer version agrees with
 * the one seen on those parts (and on whether the row exists). A scanned index range is still
 * valid iff a re-scan finds no entry that was not there, except entries of rows this
 * transaction wrote. Entries are added before their rows, so an insert that could come before
 * this transaction in a serial order is seen. The re-scans of one index go in one batch.
 *
 * <p>A transaction that wrote nothing needs no store call at commit unless it may fail: it
 * fails only if a record, <em>as it got it</em> (from the store, or a copy from the node's
 * shared buffer), held a version newer than the one it saw whose writer may precede the
 * snapshot ({@link TxStart#mayPrecedeSnapshot}: it had begun validating, and some transaction
 * the snapshot sees completed after that) and has not aborted since (the one store call, made
 * only then): such a writer may precede writers the snapshot sees (the read-only anomaly of
 * Fekete, O'Neil and O'Neil). A writer whose version the record did not hold, or whose index
 * entry a scan did not find, began validating after the read, so after the snapshot — or it
 * began before the snapshot, and then every transaction the snapshot sees completed before it
 * began validating: a record read from the store after the snapshot, and every copy the buffer
 * serves a snapshot that saw such a later completion, holds its versions.
 */
final class ReadValidator {
    /** An index range the transaction scanned, with the entries it found. */
    record ScannedRange(TableIndex index, ScanRange range, List<IndexEntry> entries) {
    }

    private ReadValidator() {
    }

    static void validate(TransactionManager manager, Transaction tx) {
        TxStart start = tx.start();
        List<Transaction.Entry> reads = new ArrayList<>();
        Set<RecordKey> written = new HashSet<>();
        for (Transaction.Entry e : tx.entries()) {
            if (e.written) {
                written.add(e.key);
            } else {
                reads.add(e);
            }
        }
        if (written.isEmpty()) {
            validateReader(manager, tx, reads);
            return;
        }
        if (!reads.isEmpty()) {
            List<RecordKey> keys = new ArrayList<>(reads.size());
            reads.forEach(e -> keys.add(e.key));
            List<Versioned> now = TellException.join(manager.store().getAllAsync(keys));
            for (int i = 0; i < reads.size(); i++) {
                Transaction.Entry e = reads.get(i);
                RowVersion seen = e.record.visibleTo(start.snapshot(), start.tid());
                if (e.usedWhole()) {
                    if (tid(seen) != tid(newestOfOthers(now.get(i), start.tid()))) {
                        throw failed(start, "record " + e.key + " changed since it was read");
                    }
                    continue;
                }
                if (now.get(i) == null) {
                    if (!agrees(e, seen, null)) {
                        throw failed(start, "record " + e.key + " changed since it was read");
                    }
                    continue;
                }
                for (RowVersion v : MvccRecord.decode(now.get(i).value()).versions()) {
                    if (v.tid() == tid(seen)) {
                        break;
                    }
                    if (v.tid() != start.tid() && !agrees(e, seen, v)) {
                        throw failed(start, "what was read of record " + e.key + " changed since");
                    }
                }
            }
        }
        Map<TableIndex, List<ScannedRange>> byIndex = new IdentityHashMap<>();
        for (ScannedRange s : tx.scans()) {
            byIndex.computeIfAbsent(s.index(), i -> new ArrayList<>()).add(s);
        }
        for (Map.Entry<TableIndex, List<ScannedRange>> ix : byIndex.entrySet()) {
            List<ScannedRange> ranges = ix.getValue();
            List<ScanRange> bounds = new ArrayList<>(ranges.size());
            ranges.forEach(s -> bounds.add(s.range()));
            List<List<IndexEntry>> now = ix.getKey().tree().scanBatch(bounds);
            for (int i = 0; i < ranges.size(); i++) {
                Set<IndexEntry> before = new HashSet<>(ranges.get(i).entries());
                for (IndexEntry e : now.get(i)) {
                    if (!before.contains(e)
                            && !written.contains(new RecordKey(ix.getKey().table(), TableIndex.ridKey(e.rid())))) {
                        throw failed(start, "a row entered the scanned range of index " + ix.getKey().name());
                    }
                }
            }
        }
    }

    /**
     * A transaction that wrote nothing: every version of a record newer than the one it saw,
     * in the record as it got it (from the store, or a copy from the node's shared buffer),
     * must be of a writer that may not have preceded the snapshot — or one that has aborted
     * since: the records holding versions of writers that may have are read again (one batch,
     * only then), and a writer whose version is gone was reverted, so it is no writer at all.
     * (Its version cannot have gone otherwise: it is newer than this snapshot's base, which
     * holds {@code lav} back, as long as the node's lease holds.)
     */
    private static void validateReader(TransactionManager manager, Transaction tx, List<Transaction.Entry> reads) {
        TxStart start = tx.start();
        List<RecordKey> keys = new ArrayList<>(); // the records to read again
        List<List<Long>> writers = new ArrayList<>(); // of each, the suspects
        for (Transaction.Entry e : reads) {
            List<Long> suspects = suspects(start, e);
            if (!suspects.isEmpty()) {
                keys.add(e.key);
                writers.add(suspects);
            }
        }
        if (keys.isEmpty()) {
            return;
        }
        List<Versioned> now = TellException.join(manager.store().getAllAsync(keys));
        // A node that lost its lease no longer holds lav back: a suspect's version may have been
        // collected before this read, and its absence would pass for an abort.
        tx.checkLease();
        for (int i = 0; i < keys.size(); i++) {
            if (now.get(i) == null) {
                continue;
            }
            for (RowVersion v : MvccRecord.decode(now.get(i).value()).versions()) {
                if (writers.get(i).contains(v.tid())) {
                    throw failed(start, "record " + keys.get(i) + " held version " + v.tid()
                            + " of a transaction that may precede the snapshot");
                }
            }
        }
    }

    /**
     * The tids of the versions of {@code e}'s record newer than the one the snapshot saw whose
     * writers may precede the snapshot ({@link TxStart#mayPrecedeSnapshot}) and that differ from
     * it on what {@code e}'s reads used.
     */
    private static List<Long> suspects(TxStart start, Transaction.Entry e) {
        RowVersion seen = e.record.visibleTo(start.snapshot(), start.tid());
        List<Long> suspects = List.of();
        for (RowVersion v : e.record.versions()) {
            if (v.tid() == tid(seen)) {
                break;
            }
            if (start.mayPrecedeSnapshot(v.tid()) && (e.usedWhole() || !agrees(e, seen, v))) {
                if (suspects.isEmpty()) {
                    suspects = new ArrayList<>(1);
                }
                suspects.add(v.tid());
            }
        }
        return suspects;
    }

    /**
     * Whether {@code other} (null: none) agrees with {@code seen} on everything the reads of
     * {@code e} used: both absent or deleted, or both live and alike under every projection.
     */
    static boolean agrees(Transaction.Entry e, RowVersion seen, RowVersion other) {
        boolean seenLive = seen != null && !seen.deleted();
        boolean otherLive = other != null && !other.deleted();
        if (!seenLive || !otherLive) {
            return seenLive == otherLive;
        }
        for (RowProjection p : e.readParts) {
            if (!p.same(seen.row(), other.row())) {
                return false;
            }
        }
        return true;
    }

    private static RowVersion newestOfOthers(Versioned stored, long self) {
        if (stored == null) {
            return null;
        }
        for (RowVersion v : MvccRecord.decode(stored.value()).versions()) {
            if (v.tid() != self) {
                return v;
            }
        }
        return null;
    }

    private static long tid(RowVersion v) {
        return v == null ? 0 : v.tid();
    }

    private static TellException failed(TxStart start, String why) {
        return TellException.of(ErrorCode.TX_CONFLICT, "serialization failure of transaction " + start.tid() + ": " + why);
    }
}
