package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.ArrayList;
import java.util.List;

/**
 * Try-commit of one transaction (paper §4.2): log the write set, add new index entries
 * ({@link IndexWriter}), apply every record with a conditional write on the version that was
 * read (one batch), claim unique keys, validate reads when SERIALIZABLE ({@link ReadValidator}),
 * then report to the commit manager. A read-write commit costs 3 store round trips on its critical path (the read
 * already done by the transaction, the log write, the batch) plus the log cleanup, which
 * is not waited for.
 */
final class Committer {
    /** Times a record that changed only by a revert or clean-up is rebuilt and written again. */
    private static final int REBUILD_ATTEMPTS = 3;

    private final TransactionManager manager;
    private final RecordStore store;
    private final TxStart start;
    private final List<Transaction.Entry> writes;
    private final Iterable<Transaction.Entry> validatedBuffer;
    private final List<ReadValidator.ScannedRange> validatedScans;

    /** {@code buffer} and {@code scans} are null unless the transaction is SERIALIZABLE. */
    Committer(TransactionManager manager, TxStart start, List<Transaction.Entry> writes,
              Iterable<Transaction.Entry> buffer, List<ReadValidator.ScannedRange> scans) {
        this.manager = manager;
        this.store = manager.store();
        this.start = start;
        this.writes = writes;
        this.validatedBuffer = buffer;
        this.validatedScans = scans;
    }

    void commit() {
        long tid = start.tid();
        if (writes.isEmpty()) {
            if (validatedBuffer != null) {
                try {
                    ReadValidator.validate(manager, start, validatedBuffer, validatedScans);
                } catch (TellException e) {
                    manager.reportAborted(tid);
                    throw e;
                }
            }
            // Nothing to make visible: the report only releases the tid and lav, so it is not waited for.
            manager.reportFinished(tid);
            return;
        }
        List<RecordKey> keys = new ArrayList<>(writes.size());
        for (Transaction.Entry e : writes) {
            keys.add(e.key);
        }
        logWriteSet(tid, keys);
        IndexWriter indexes = new IndexWriter(manager, start);
        try {
            indexes.addEntries(writes);
        } catch (TellException e) {
            indexes.undo();
            manager.reportAborted(tid);
            throw e;
        }
        List<RecordKey> applied = new ArrayList<>();
        try {
            apply(tid, applied);
        } catch (TellException e) {
            indexes.undo();
            if (e.code() == ErrorCode.TX_CONFLICT) {
                // Refused for good: exactly the records in `applied` carry a version of ours.
                manager.revertAndReportAborted(tid, applied, false);
            } else {
                // No answer from the store: any record may or may not carry a version of ours.
                manager.revertAndReportAborted(tid, keys, true);
            }
            throw e;
        }
        try {
            indexes.claimUniqueKeys();
            if (validatedBuffer != null) {
                ReadValidator.validate(manager, start, validatedBuffer, validatedScans);
            }
        } catch (TellException e) {
            indexes.undo();
            manager.revertAndReportAborted(tid, keys, false);
            throw e;
        }
        manager.awaitCommitReport(tid);
        manager.forgetLog(tid);
    }

    private void logWriteSet(long tid, List<RecordKey> keys) {
        byte[] entry = TxLog.encode(new TxLog.Entry(TxLog.State.WRITING, manager.nodeId(), System.currentTimeMillis(), keys));
        WriteResult r;
        try {
            r = store.write(new WriteOp(TxLog.recordKey(tid), entry, Expect.ABSENT));
        } catch (RuntimeException e) {
            manager.reportAborted(tid);
            throw e;
        }
        if (!r.written()) {
            manager.reportAborted(tid);
            throw TellException.of(ErrorCode.TX_CONFLICT, "transaction " + tid + " was fenced by a restarted commit manager");
        }
    }

    private void apply(long tid, List<RecordKey> applied) {
        List<Transaction.Entry> pending = new ArrayList<>(writes);
        List<MvccRecord> bases = new ArrayList<>();
        List<Versioned> stored = new ArrayList<>();
        for (Transaction.Entry e : pending) {
            bases.add(e.record);
            stored.add(e.stored);
        }
        for (int attempt = 0; ; attempt++) {
            List<WriteOp> ops = new ArrayList<>(pending.size());
            for (int i = 0; i < pending.size(); i++) {
                ops.add(op(pending.get(i), bases.get(i), stored.get(i), tid));
            }
            List<WriteResult> results = TellException.join(store.writeAllAsync(ops));
            List<Transaction.Entry> retry = new ArrayList<>();
            for (int i = 0; i < results.size(); i++) {
                if (results.get(i).written()) {
                    applied.add(pending.get(i).key);
                } else {
                    retry.add(pending.get(i));
                }
            }
            if (retry.isEmpty()) {
                return;
            }
            if (attempt + 1 >= REBUILD_ATTEMPTS) {
                throw conflict(tid, retry.get(0).key);
            }
            pending = retry;
            reload(tid, pending, bases, stored);
        }
    }

    /**
     * Re-reads records whose conditional write failed. A record may be written again only if
     * its newest version is still the one this transaction saw (it changed through a revert
     * or clean-up by someone else); anything newer is a real write-write conflict. A record the
     * sweeper deleted (its newest version was a delete at or below lav) comes back absent: unless
     * we had read it absent too, that is a conflict, never a blind insert, since the record may
     * have lived and died again in between (see io.tell.gc.RowSweep).
     */
    private void reload(long tid, List<Transaction.Entry> pending, List<MvccRecord> bases, List<Versioned> stored) {
        List<RecordKey> keys = new ArrayList<>(pending.size());
        for (Transaction.Entry e : pending) {
            keys.add(e.key);
        }
        List<Versioned> fresh = TellException.join(store.getAllAsync(keys));
        bases.clear();
        stored.clear();
        for (int i = 0; i < pending.size(); i++) {
            Versioned v = fresh.get(i);
            MvccRecord record = v == null ? new MvccRecord(List.of()) : MvccRecord.decode(v.value());
            if (!sameNewest(pending.get(i).record.newest(), record.newest())) {
                throw conflict(tid, pending.get(i).key);
            }
            bases.add(record);
            stored.add(v);
        }
    }

    private static boolean sameNewest(RowVersion a, RowVersion b) {
        return a == null ? b == null : b != null && a.tid() == b.tid();
    }

    private WriteOp op(Transaction.Entry e, MvccRecord base, Versioned stored, long tid) {
        MvccRecord next = base.withNewest(new RowVersion(tid, e.newRow), start.lav());
        Expect expect = stored == null ? Expect.ABSENT : Expect.version(stored.version());
        return new WriteOp(e.key, next.encode(), expect);
    }

    private static TellException conflict(long tid, RecordKey key) {
        return TellException.of(ErrorCode.TX_CONFLICT, "write-write conflict on " + key + " at commit of tid " + tid);
    }
}
