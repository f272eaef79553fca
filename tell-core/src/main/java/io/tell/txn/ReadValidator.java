package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * SERIALIZABLE's commit-time check, run once the transaction's own versions are in the store
 * (they act as locks: a concurrent validator that read those records sees them and aborts).
 * A read is still valid iff the record's newest version other than ours is the very version
 * the snapshot saw (none, if it saw none): nothing newer was committed or is in flight. A
 * scanned index range is still valid iff a re-scan finds no entry that was not there, except
 * entries of rows this transaction wrote. Entries are added before their rows, so an insert
 * that could come before this transaction in a serial order is seen.
 */
final class ReadValidator {
    /** An index range the transaction scanned, with the entries it found. */
    record ScannedRange(TableIndex index, ScanRange range, Set<IndexEntry> entries) {
    }

    private ReadValidator() {
    }

    static void validate(TransactionManager manager, TxStart start, Iterable<Transaction.Entry> buffer,
                         List<ScannedRange> scans) {
        List<Transaction.Entry> reads = new ArrayList<>();
        Set<RecordKey> written = new HashSet<>();
        for (Transaction.Entry e : buffer) {
            if (e.written) {
                written.add(e.key);
            } else {
                reads.add(e);
            }
        }
        if (!reads.isEmpty()) {
            List<RecordKey> keys = new ArrayList<>(reads.size());
            reads.forEach(e -> keys.add(e.key));
            List<Versioned> now = TellException.join(manager.store().getAllAsync(keys));
            for (int i = 0; i < reads.size(); i++) {
                Transaction.Entry e = reads.get(i);
                RowVersion seen = e.record.visibleTo(start.snapshot(), start.tid());
                RowVersion newest = newestOfOthers(now.get(i), start.tid());
                if (tid(seen) != tid(newest)) {
                    throw failed(start, "record " + e.key + " changed since it was read");
                }
            }
        }
        for (ScannedRange s : scans) {
            for (IndexEntry e : s.index().tree().scan(s.range(), false, Integer.MAX_VALUE)) {
                if (!s.entries().contains(e)
                        && !written.contains(new RecordKey(s.index().table(), TableIndex.ridKey(e.rid())))) {
                    throw failed(start, "a row entered the scanned range of index " + s.index().name());
                }
            }
        }
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
