package io.tell.gc;

import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.txn.MvccRecord;
import io.tell.txn.TxLog;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes orphan transaction-log entries: the commit manager deletes a committed entry, and an
 * aborting node its own, without waiting, so a failed or lost delete leaves one behind. Walks
 * the log's keys in tid order from the cursor up to the pass's settled base, in batches of keys
 * (no scan: tids are dense).
 *
 * <p>An entry may go when its tid is at or below the pass's settled base (the tid completed
 * more than the grace period ago: its writes are applied or reverted, so recovery has nothing to
 * do with it, and a late write of its entry has landed) and it is older than the grace period;
 * the walk stops at the first entry that is not, and the next pass goes on from there. Entries
 * of tids not yet completed belong to recovery and are not read. A {@link TxLog.State#FENCED}
 * entry that lists keys was fenced by recovery after its owner had logged: the owner cannot log
 * again, and its late commit report is refused within the client's report deadline, far
 * shorter than the grace; it goes too. A {@code FENCED} entry without keys stays: a commit
 * manager wrote it so that the insert of an owner that never logged fails, and that owner may
 * still try (a few such entries per commit-manager crash).
 *
 * <p><b>Fences.</b> An entry that did not commit may list records its revert left as fences
 * ({@link io.tell.txn.MvccRecord#fence}; the aborting node keeps its entry for exactly this
 * reason). Those go first, each once it is older than the grace period (no late write it blocks
 * can still land), with a delete conditional on the version read; an entry with a younger fence
 * counts as young. Fences are rare (store failures, dead nodes), so reading the keys of
 * uncommitted entries costs next to nothing.
 */
final class LogSweep {
    private final SweepPass pass;
    private final SweepCursor cursor;

    LogSweep(SweepPass pass, SweepCursor cursor) {
        this.pass = pass;
        this.cursor = cursor;
    }

    void run() {
        long oldest = pass.startMillis() - pass.options().grace().toMillis();
        long next = cursor.logNext();
        boolean young = false;
        while (next <= pass.settledBase() && !young) {
            long to = Math.min(pass.settledBase(), next + pass.options().pageSize() - 1);
            List<RecordKey> keys = SweepPass.tidKeys(TxLog::recordKey, next, to);
            List<Versioned> entries = pass.readBatch(keys);
            List<Integer> old = new ArrayList<>();
            List<TxLog.Entry> oldEntries = new ArrayList<>();
            long reached = to + 1;
            for (int i = 0; i < keys.size() && !young; i++) {
                Versioned entry = entries.get(i);
                if (entry == null) {
                    continue;
                }
                pass.counters().scanned.increment();
                TxLog.Entry e = decode(entry);
                if (e == null || e.state() == TxLog.State.FENCED && e.keys().isEmpty()) {
                    continue; // not ours to judge, or a fence that blocks a late insert: stays
                }
                if (e.millis() > oldest) {
                    young = true;
                    reached = next + i;
                } else {
                    old.add(i);
                    oldEntries.add(e);
                }
            }
            List<WriteOp> fences = new ArrayList<>();
            int goes = oldFences(oldEntries, oldest, fences);
            if (goes < old.size()) {
                young = true;
                reached = next + old.get(goes);
            }
            pass.counters().fences.add(pass.writeAll(fences)); // fences before the entries that name them
            List<WriteOp> deletes = new ArrayList<>();
            for (int i : old.subList(0, goes)) {
                deletes.add(new WriteOp(keys.get(i), null, Expect.version(entries.get(i).version())));
            }
            pass.counters().logEntries.add(pass.writeAll(deletes));
            next = reached;
        }
        if (next != cursor.logNext()) {
            cursor.moveLog(next);
        }
    }

    /**
     * Adds to {@code deletes} the fences listed by the {@code old} entries (in tid order), up to
     * the first entry that lists a fence younger than {@code oldest}; returns how many of the
     * entries may go (all of them unless such an entry stops the walk).
     */
    private int oldFences(List<TxLog.Entry> old, long oldest, List<WriteOp> deletes) {
        List<RecordKey> listed = new ArrayList<>();
        List<Integer> firstKey = new ArrayList<>();
        for (TxLog.Entry e : old) {
            firstKey.add(listed.size());
            if (e.state() != TxLog.State.COMMITTED) {
                listed.addAll(e.keys()); // a committed tid's writes were all applied: no fences
            }
        }
        firstKey.add(listed.size());
        if (listed.isEmpty()) {
            return old.size();
        }
        List<Versioned> records = pass.readBatch(listed);
        for (int n = 0; n < old.size(); n++) {
            List<WriteOp> mine = new ArrayList<>();
            for (int k = firstKey.get(n); k < firstKey.get(n + 1); k++) {
                Versioned r = records.get(k);
                MvccRecord record = r == null ? null : MvccRecord.decode(r.value());
                if (record == null || !record.isEmpty()) {
                    continue;
                }
                if (record.fencedAt() > oldest) {
                    return n;
                }
                mine.add(new WriteOp(listed.get(k), null, Expect.version(r.version())));
            }
            deletes.addAll(mine);
        }
        return old.size();
    }

    private static TxLog.Entry decode(Versioned entry) {
        try {
            return TxLog.decode(entry.value());
        } catch (TellException unreadable) {
            return null;
        }
    }
}
