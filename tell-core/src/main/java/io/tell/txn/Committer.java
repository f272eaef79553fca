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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Try-commit of one transaction (paper §4.2): log the write set, add new index entries
 * ({@link IndexWriter}), apply every record with a conditional write on the version that was
 * read (one batch), claim unique keys, validate reads when SERIALIZABLE ({@link ReadValidator};
 * below it, before the records are written, only when a column merge re-applied a change), then
 * report to the commit manager. The log write carries, in the same batch, what the commit
 * leaves for the sweeper ({@link GarbageLog}) and a check of every record the transaction read
 * before writing it: a record that another writer has changed since fails the commit there,
 * before any index entry or record is written (under contention most conflicts are found so,
 * not after the index work); the new index entries' leaf writes ride that batch too
 * ({@link IndexWriter#entryWrites}). A read-write commit costs 3 store round
 * trips on its critical path (the read already done by the transaction, the log write, the
 * batch) plus the log cleanup, which is not waited for.
 */
final class Committer {
    /** Times a record that changed only by a revert or clean-up is rebuilt and written again. */
    private static final int REBUILD_ATTEMPTS = 3;
    /** Snapshots asked for at most before a column merge gives up on versions not yet committed. */
    private static final int MERGE_POLLS = 3;

    private final TransactionManager manager;
    private final RecordStore store;
    private final Transaction tx;
    private final TxStart start;
    private final List<Transaction.Entry> writes;
    /** True under SERIALIZABLE: every commit validates what the transaction read. */
    private final boolean serializable;
    /**
     * Set below SERIALIZABLE when a merge computed a column again from another writer's value
     * ({@link RowMerge#reapplies}) and the transaction's reads have not been validated since:
     * no decision is made before they are ({@link #validateReapplied}).
     */
    private boolean unvalidated;
    /** True while an apply batch is out without answers: then any record may carry a version of ours. */
    private boolean applyInDoubt;
    /** Records the log batch's checks found changed, as read again: the bases their writes build on. */
    private final Map<RecordKey, Base> reread = new HashMap<>();
    /** The log entry as written ({@code WRITING}), and its version. */
    private TxLog.Entry entry;
    private long logVersion;
    /** True while a batch carrying this commit's decision is out without answers. */
    private boolean decisionInDoubt;
    /** The version of the {@code COMMITTED} entry once this node decided the commit itself; 0 before. */
    private long decidedVersion;
    /** The writer of the newer version this commit conflicted with, 0 if none is known. */
    private long winner;
    /** The latest snapshot asked for to learn whether the versions a column merge builds on are committed; null before. */
    private SnapshotDescriptor probe;
    /** Records whose write merges onto newer committed versions ({@link ColumnMerge}). */
    private final Set<RecordKey> merged = new HashSet<>();

    /**
     * A record as stored (null: absent) and decoded, which a write builds its new record on, and
     * the row the write puts on top: the transaction's own, or merged with newer versions.
     */
    private record Base(MvccRecord record, Versioned stored, byte[] row) {
    }

    Committer(TransactionManager manager, Transaction tx, List<Transaction.Entry> writes) {
        this.manager = manager;
        this.store = manager.store();
        this.tx = tx;
        this.start = tx.start();
        this.writes = writes;
        this.serializable = tx.isolation() == Isolation.SERIALIZABLE;
    }

    /**
     * Commits, or on any failure (every exception type) leaves nothing of this transaction
     * behind and reports its tid aborted before rethrowing: no path leaks a tid.
     */
    void commit() {
        long tid = start.tid();
        if (writes.isEmpty()) {
            try {
                if (serializable) {
                    ReadValidator.validate(manager, tx);
                }
            } catch (RuntimeException | Error e) {
                manager.reportAborted(tid);
                throw e;
            }
            // Nothing to make visible: the report only releases the tid and lav, so it is not waited for.
            manager.reportFinished(tid);
            return;
        }
        List<RecordKey> keys = new ArrayList<>(writes.size());
        for (Transaction.Entry e : writes) {
            keys.add(e.key);
        }
        IndexWriter indexes;
        try {
            // Writes that already saw newer versions merge onto them, or fail before anything is written.
            for (Transaction.Entry e : writes) {
                if (invisible(e.record.newest())) {
                    reread.put(e.key, rebase(tid, e, e.record, e.stored));
                }
            }
            indexes = new IndexWriter(manager, start, writes);
        } catch (RuntimeException | Error e) {
            manager.reportAborted(tid); // nothing written yet
            throw e;
        }
        List<Transaction.Entry> checked = new ArrayList<>();
        for (Transaction.Entry e : writes) {
            if (e.stored != null) {
                checked.add(e);
            }
        }
        List<GarbageLog.Item> garbage = indexes.garbage();
        List<WriteResult> logged = logWriteSet(tid, keys, garbage, checked, indexes);
        logVersion = logged.get(0).version();
        observe(CommitObserver.Step.LOGGED);
        List<RecordKey> applied = new ArrayList<>();
        try {
            checkPreconditions(tid, logged.subList(garbage.isEmpty() ? 1 : 2, logged.size()));
            rereadChanged(tid, checked, logged.subList(logged.size() - checked.size(), logged.size()));
            validateReapplied();
            indexes.addEntries();
            observe(CommitObserver.Step.INDEXED);
            // Bumps follow the record writes: in the apply batch itself on a store that runs a
            // batch in order, else in the claims' batch (or one of their own), which follows it.
            // The decision rides at the end of whichever batch comes last, chained to its writes.
            List<WriteOp> bumps = versionSetBumps(tid, keys);
            WriteOp decision = decision();
            boolean claimsLast = indexes.claimsKeys() || !store.ordersBatches() && !bumps.isEmpty();
            List<WriteOp> withApply = new ArrayList<>(store.ordersBatches() ? bumps : List.of());
            if (decision != null && !claimsLast) {
                withApply.add(decision);
                decisionInDoubt = true;
            }
            boolean bumped = apply(tid, applied, withApply) && store.ordersBatches();
            List<WriteOp> withClaims = new ArrayList<>(bumped ? List.of() : bumps);
            if (decision != null && claimsLast && !unvalidated) { // a retried write may have re-applied since
                withClaims.add(decision);
                decisionInDoubt = true;
            }
            indexes.claimUniqueKeys(withClaims, this::decided);
            if (serializable) {
                // Snapshots taken once something completed after this count us as possibly
                // serialized before them (TxStart.Writers).
                manager.validating(start);
                ReadValidator.validate(manager, tx);
            }
            validateReapplied();
            observe(CommitObserver.Step.APPLIED);
            manager.merged(merged.size());
        } catch (RuntimeException | Error e) {
            if (decidedVersion > 0 || decisionInDoubt && settleDecision(tid, e)) {
                // Decided (the batch landed, whatever failed after it): committed, never undone.
                manager.awaitDecidedReport(tid, decidedVersion);
                return;
            }
            undoQuietly(indexes);
            // A refused or unsent batch: exactly the records in `applied` carry a version of ours.
            manager.revertAndReportAborted(tid, applyInDoubt ? keys : applied, applyInDoubt);
            throw e;
        }
        try {
            if (decidedVersion > 0) {
                manager.awaitDecidedReport(tid, decidedVersion);
                return;
            }
            // A node that lost its lease leaves the decision to its recovery: it reports nothing.
            tx.checkLease();
            manager.awaitCommitReport(tid, logVersion);
        } catch (RuntimeException | Error e) {
            if (e instanceof TellException te && te.code() == ErrorCode.TX_COMMIT_PENDING) {
                throw e; // the commit may still be decided: nothing to undo
            }
            undoQuietly(indexes);
            if (!(e instanceof TellException te && te.code() == ErrorCode.TX_FENCED)) {
                // Refused for good: not committed. (A fenced tid is reverted by its recovery,
                // which keeps the FENCED entry so that no late report of ours can commit it.)
                manager.revertAndReportAborted(tid, keys, false);
            }
            throw e;
        }
    }

    /**
     * This commit's decision, for the node to make itself: the move of its log entry from
     * {@code WRITING} to {@code COMMITTED}, chained to the writes of the last batch, so it is
     * made exactly when they all are, and the commit manager has nothing left to decide. None
     * under SERIALIZABLE (reads are validated after the writes) or without a valid lease
     * (its recovery decides); nor, when a write merged again after a refused apply and
     * re-applied a change, with the claims ({@link #validateReapplied} must come first).
     */
    private WriteOp decision() {
        if (serializable || !tx.holdsLease()) {
            return null;
        }
        byte[] committed = TxLog.encode(entry.in(TxLog.State.COMMITTED));
        return new WriteOp(TxLog.recordKey(start.tid()), committed, Expect.version(logVersion)).asChained();
    }

    /** Notes the decision's outcome, if the batch just answered carried it (as its last write). */
    private void decided(List<WriteResult> answers) {
        if (decisionInDoubt) {
            decisionInDoubt = false;
            WriteResult last = answers.get(answers.size() - 1);
            if (last.written()) {
                decidedVersion = last.version();
            }
        }
    }

    /**
     * After a batch carrying the decision went unanswered (it may have landed, or may land
     * later): true when the entry is {@code COMMITTED}, the batch having landed whole; false
     * once this node has withdrawn its own entry, after which no late batch can decide, so the
     * commit aborts as any other. Throws TX_FENCED when recovery fenced the entry first (it
     * reverts and reports), and TX_OUTCOME_UNKNOWN when the store does not answer within the
     * commit report wait: the node then settles it in the background, reverting or reporting it
     * committed.
     */
    private boolean settleDecision(long tid, Throwable failure) {
        long deadline = System.nanoTime() + manager.commitReportWait().toNanos();
        for (int attempt = 0; ; attempt++) {
            try {
                return settle(tid);
            } catch (RuntimeException thrown) {
                TellException e = TellException.unwrap(thrown);
                if (e.code() == ErrorCode.TX_FENCED || !e.retriable() || System.nanoTime() - deadline > 0) {
                    return settleLater(tid, failure, e);
                }
            }
            try {
                Thread.sleep(Math.min(1000, 50L << Math.min(attempt, 4))); // a short store outage passes
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return settleLater(tid, failure, TellException.of(ErrorCode.INTERNAL, "interrupted", interrupted));
            }
        }
    }

    /** Leaves the settling to the background; throws what the caller learns meanwhile. */
    private boolean settleLater(long tid, Throwable failure, TellException e) {
        if (e.code() == ErrorCode.TX_FENCED) {
            throw e;
        }
        manager.settleLater(tid, () -> {
            if (settle(tid)) {
                manager.reportDecided(tid, decidedVersion);
            } else {
                manager.revertAndReportAborted(tid, entry.keys(), true);
            }
        });
        TellException unknown = TellException.of(ErrorCode.TX_OUTCOME_UNKNOWN, "the outcome of tid " + tid
                + " is unknown: its last batch and the checks after it went unanswered (" + e.getMessage()
                + "); the node settles it once the store answers", failure);
        unknown.addSuppressed(e);
        throw unknown;
    }

    private boolean settle(long tid) {
        byte[] withdrawn = TxLog.encode(entry.in(TxLog.State.WITHDRAWN));
        if (store.write(new WriteOp(TxLog.recordKey(tid), withdrawn, Expect.version(logVersion))).written()) {
            return false;
        }
        Versioned now = store.get(TxLog.DOMAIN, TxLog.key(tid));
        TxLog.State state = now == null ? null : TxLog.decode(now.value()).state();
        if (state == TxLog.State.COMMITTED) {
            decidedVersion = now.version();
            return true;
        }
        if (state == TxLog.State.WITHDRAWN) {
            return false; // by an earlier attempt of ours whose answer was lost
        }
        throw TellException.of(ErrorCode.TX_FENCED, "transaction " + tid + " was taken over by recovery before it was decided");
    }

    private static void undoQuietly(IndexWriter indexes) {
        try {
            indexes.undo();
        } catch (RuntimeException e) {
            // Entries left behind are stale: readers check rows and skip them.
        }
    }

    private void observe(CommitObserver.Step step) {
        CommitObserver o = manager.observer();
        if (o != null) {
            o.reached(step, start.tid());
        }
    }

    /**
     * Writes the log entry (after checking the lease: a fenced node writes nothing) with, in the
     * same batch, the garbage list, the transaction's preconditions ({@link
     * Transaction#requireUnchanged}) and a check of each record in {@code checked} on the version
     * read; returns the batch's results: the log write's first, then the garbage list's (if
     * any), the preconditions' and the record checks'.
     */
    private List<WriteResult> logWriteSet(long tid, List<RecordKey> keys, List<GarbageLog.Item> garbage,
                                          List<Transaction.Entry> checked, IndexWriter indexes) {
        List<WriteResult> results;
        int entryWrites;
        try {
            tx.checkLease();
            entry = new TxLog.Entry(TxLog.State.WRITING, tx.logNode(), System.currentTimeMillis(), keys);
            List<WriteOp> ops = new ArrayList<>(2 + checked.size());
            ops.add(new WriteOp(TxLog.recordKey(tid), TxLog.encode(entry), Expect.ABSENT));
            if (!garbage.isEmpty()) {
                // The sweeper's list of what this commit leaves behind.
                ops.add(new WriteOp(GarbageLog.recordKey(tid), GarbageLog.encode(garbage), Expect.ANY));
            }
            for (Map.Entry<RecordKey, Long> p : tx.preconditions().entrySet()) {
                ops.add(WriteOp.check(p.getKey(), p.getValue() == 0 ? Expect.ABSENT : Expect.version(p.getValue())));
            }
            for (Transaction.Entry e : checked) {
                ops.add(WriteOp.check(e.key, Expect.version(e.stored.version())));
            }
            List<WriteOp> entries = indexes.entryWrites(); // chained: made only if all the above are
            entryWrites = entries.size();
            ops.addAll(entries);
            results = ops.size() == 1 ? List.of(store.write(ops.get(0))) : TellException.join(store.writeAllAsync(ops));
        } catch (RuntimeException | Error e) {
            // No record written; an entry that still lands later names records we never wrote,
            // and index entries that landed with it point at rows that are never written:
            // readers skip them (docs/btree.md, "Lazy removal").
            manager.forgetLog(tid);
            manager.reportAborted(tid);
            throw e;
        }
        if (entryWrites > 0) {
            indexes.entriesAnswered(results.subList(results.size() - entryWrites, results.size()));
            results = results.subList(0, results.size() - entryWrites);
        }
        if (!results.get(0).written()) {
            try {
                undoQuietly(indexes); // nothing added after a refused log write: what the entries planned goes
            } finally {
                manager.reportAborted(tid);
            }
            throw TellException.of(ErrorCode.TX_FENCED, "transaction " + tid + " was fenced by a commit manager before it wrote");
        }
        return results;
    }

    /**
     * Below SERIALIZABLE, once a merge re-applied a change onto another writer's committed
     * version: fails the commit unless every other read of the transaction is still as it saw
     * it ({@link ReadValidator}, no store call when it read nothing else). The transaction then
     * behaves as one whose snapshot was taken now, after that writer, which is snapshot
     * isolation; a write that merges again later is validated again before the decision.
     */
    private void validateReapplied() {
        if (unvalidated) {
            ReadValidator.validate(manager, tx);
            unvalidated = false;
        }
    }

    /** TX_CONFLICT, before any record is written, when a precondition's record changed. */
    private void checkPreconditions(long tid, List<WriteResult> results) {
        int i = 0;
        for (RecordKey key : tx.preconditions().keySet()) {
            if (!results.get(i++).written()) {
                throw TellException.of(ErrorCode.TX_CONFLICT, "transaction " + tid + " ran under a version of "
                        + key + " that changed before it committed (for the catalog: DDL); retry it");
            }
        }
    }

    /**
     * Reads again the records whose check failed: a newer version is a write-write conflict,
     * found before anything but the log entry is written; a record changed only by a revert or
     * clean-up is written on its new base.
     */
    private void rereadChanged(long tid, List<Transaction.Entry> checked, List<WriteResult> checks) {
        List<Transaction.Entry> changed = new ArrayList<>();
        for (int i = 0; i < checked.size(); i++) {
            if (!checks.get(i).written()) {
                changed.add(checked.get(i));
            }
        }
        if (changed.isEmpty()) {
            return;
        }
        List<Base> bases = reload(tid, changed);
        for (int i = 0; i < changed.size(); i++) {
            reread.put(changed.get(i).key, bases.get(i));
        }
    }

    /**
     * The writes that move on the version sets of the units this commit writes, when the store
     * keeps them (none otherwise). They go after the records are written (a reader that sees the
     * old set read its copy before our write) and before we report (a snapshot that sees us
     * sees the new set).
     */
    private List<WriteOp> versionSetBumps(long tid, List<RecordKey> keys) {
        VersionSets sets = manager.versionSets();
        return sets == null ? List.of() : sets.bumps(keys, tid);
    }

    /**
     * Writes every record conditionally on the version read, rebuilding records changed only by a
     * revert or clean-up. {@code after} rides at the end of the first batch: true when that batch
     * wrote every record (false: what {@code after} needs to follow is still to be written).
     */
    private boolean apply(long tid, List<RecordKey> applied, List<WriteOp> after) {
        List<Transaction.Entry> pending = new ArrayList<>(writes);
        List<Base> bases = new ArrayList<>();
        for (Transaction.Entry e : pending) {
            bases.add(reread.getOrDefault(e.key, new Base(e.record, e.stored, e.newRow)));
        }
        for (int attempt = 0; ; attempt++) {
            List<WriteOp> ops = new ArrayList<>(pending.size() + after.size());
            for (int i = 0; i < pending.size(); i++) {
                ops.add(op(pending.get(i), bases.get(i), tid));
            }
            if (attempt == 0) {
                ops.addAll(after);
            }
            List<WriteResult> results = send(ops, pending.size(), attempt == 0);
            List<Transaction.Entry> retry = new ArrayList<>();
            for (int i = 0; i < pending.size(); i++) {
                if (results.get(i).written()) {
                    applied.add(pending.get(i).key);
                } else {
                    retry.add(pending.get(i));
                }
            }
            if (retry.isEmpty()) {
                return attempt == 0;
            }
            if (attempt + 1 >= REBUILD_ATTEMPTS) {
                throw conflict(tid, retry.get(0).key);
            }
            pending = retry;
            bases = reload(tid, pending);
        }
    }

    /**
     * Sends one apply batch, whose first {@code records} ops are the records. While a commit
     * observer watches, the first batch goes in two parts, half the records and the rest, with
     * the observer told in between, so a test can stop a node mid-batch.
     */
    private List<WriteResult> send(List<WriteOp> ops, int records, boolean first) {
        applyInDoubt = true;
        List<WriteResult> results;
        if (first && records > 1 && manager.observer() != null) {
            int half = records / 2;
            results = new ArrayList<>(TellException.join(store.writeAllAsync(ops.subList(0, half))));
            observe(CommitObserver.Step.PARTLY_APPLIED);
            List<WriteOp> rest = ops.subList(half, ops.size());
            if (!results.stream().allMatch(WriteResult::written)) {
                // The chain spans both parts: a chained write after a failed record is not made
                // (a check no version passes answers as a broken chain does).
                rest = rest.stream().map(o -> o.chained() ? WriteOp.check(o.key(), Expect.version(Long.MAX_VALUE)) : o).toList();
            }
            results.addAll(TellException.join(store.writeAllAsync(rest)));
        } else {
            results = TellException.join(store.writeAllAsync(ops));
        }
        applyInDoubt = false;
        if (first) {
            decided(results);
        }
        return results;
    }

    /** Re-reads records whose conditional write (or its check) failed, and what each write now builds on ({@link #rebase}). */
    private List<Base> reload(long tid, List<Transaction.Entry> pending) {
        List<RecordKey> keys = new ArrayList<>(pending.size());
        for (Transaction.Entry e : pending) {
            keys.add(e.key);
        }
        List<Versioned> fresh = TellException.join(store.getAllAsync(keys));
        List<Base> bases = new ArrayList<>(pending.size());
        for (int i = 0; i < pending.size(); i++) {
            Versioned v = fresh.get(i);
            bases.add(rebase(tid, pending.get(i), v == null ? new MvccRecord(List.of()) : MvccRecord.decode(v.value()), v));
        }
        return bases;
    }

    /**
     * What the write of {@code e} builds on, given the record as now stored. It may be written
     * again if its newest version is still the one this transaction saw (it changed through a
     * revert or clean-up by someone else). Newer versions are a write-write conflict unless the
     * write merges onto them ({@link ColumnMerge}) and they are committed. A record the sweeper
     * deleted (its newest version was a delete at or below lav) comes back absent: unless we had
     * read it absent too, that is a conflict, never a blind insert, since the record may have
     * lived and died again in between (see io.tell.gc.GarbageSweep).
     */
    private Base rebase(long tid, Transaction.Entry e, MvccRecord record, Versioned stored) {
        RowVersion newest = record.newest();
        if (!invisible(newest)) {
            if (!sameNewest(e.record.newest(), newest)) {
                throw conflict(tid, e.key);
            }
            merged.remove(e.key);
            return new Base(record, stored, e.newRow);
        }
        Set<Long> theirs = new HashSet<>();
        ColumnMerge.Onto onto = ColumnMerge.onto(e, start, record, theirs);
        if (onto == null || onto.reapplied() && !tx.readsValidatable() || !committed(theirs)) {
            winner = newest.tid();
            throw conflict(tid, e.key);
        }
        unvalidated |= onto.reapplied() && !serializable;
        merged.add(e.key);
        return new Base(record, stored, onto.row());
    }

    /** True for a version neither ours nor visible to our snapshot: committed after it, or in flight. */
    private boolean invisible(RowVersion v) {
        return v != null && !start.sees(v.tid());
    }

    /**
     * Whether every tid of {@code tids} is completed in a snapshot of the commit manager this
     * node reports to: the latest any transaction of this node started with; for this node's own
     * commits, the acknowledgement of their reports ({@link RecentCommits}); else a snapshot
     * asked for (at most {@value #MERGE_POLLS}, a millisecond or two apart), since a version seen
     * in the store is usually that of a commit about to be reported. A snapshot that sees us will
     * then see them too. A completed tid whose version is still in the record committed: an
     * aborted one's versions are reverted before it completes, and that revert would fail our write.
     */
    private boolean committed(Set<Long> tids) {
        SnapshotDescriptor latest = manager.latestSnapshot();
        List<Long> unknown = new ArrayList<>(tids.size());
        for (long tid : tids) {
            if (latest != null && latest.isVisible(tid)) {
                continue;
            }
            Boolean here = manager.committedHere(tid);
            if (here == null) {
                unknown.add(tid);
            } else if (!here) {
                return false;
            }
        }
        for (int poll = 0; !unknown.isEmpty(); poll++) {
            if (probe != null && unknown.stream().allMatch(probe::isVisible)) {
                return true;
            }
            if (poll == MERGE_POLLS) {
                return false;
            }
            if (poll > 0) {
                try {
                    Thread.sleep(poll);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            probe = manager.currentSnapshot();
        }
        return true;
    }

    private static boolean sameNewest(RowVersion a, RowVersion b) {
        return a == null ? b == null : b != null && a.tid() == b.tid();
    }

    private WriteOp op(Transaction.Entry e, Base base, long tid) {
        MvccRecord next = base.record().withNewest(new RowVersion(tid, base.row()), start.lav());
        Expect expect = base.stored() == null ? Expect.ABSENT : Expect.version(base.stored().version());
        return new WriteOp(e.key, next.encode(), expect);
    }

    /** After a write-write conflict: the writer whose newer version caused it (0: not known). */
    long winner() {
        return winner;
    }

    private TellException conflict(long tid, RecordKey key) {
        manager.hotRecords().conflicted(key);
        return TellException.of(ErrorCode.TX_CONFLICT, "write-write conflict on " + key + " at commit of tid " + tid);
    }
}
