package io.tell.gc;

import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.txn.TxLog;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes orphan transaction-log entries: the commit manager deletes a committed entry, and an
 * aborting node its own, without waiting, so a failed or lost delete leaves one behind. Walks
 * the log's keys in tid order from the cursor up to the pass's snapshot base, in batches of
 * keys (no scan: tids are dense).
 *
 * <p>An entry may go when its tid is at or below the pass's snapshot base (the tid completed:
 * its writes are applied or reverted, so recovery has nothing to do with it) and it is older than
 * the grace period; the walk stops at the first entry that is not, and the next pass goes on
 * from there. Entries of tids not yet completed belong to recovery and are not read. A
 * {@link TxLog.State#FENCED} entry that lists keys was fenced by recovery after its owner had
 * logged: the owner cannot log again, and its late commit report is refused within the client's
 * report deadline, far shorter than the grace; it goes too. A {@code FENCED} entry without keys
 * stays: a commit manager wrote it so that the insert of an owner that never logged fails, and
 * that owner may still try (a few such entries per commit-manager crash).
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
        while (next <= pass.base() && !young) {
            long to = Math.min(pass.base(), next + pass.options().pageSize() - 1);
            List<RecordKey> keys = SweepPass.tidKeys(TxLog::recordKey, next, to);
            List<Versioned> entries = pass.readBatch(keys);
            List<WriteOp> deletes = new ArrayList<>();
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
                    deletes.add(new WriteOp(keys.get(i), null, Expect.version(entry.version())));
                }
            }
            pass.counters().logEntries.add(pass.writeAll(deletes));
            next = reached;
        }
        if (next != cursor.logNext()) {
            cursor.moveLog(next);
        }
    }

    private static TxLog.Entry decode(Versioned entry) {
        try {
            return TxLog.decode(entry.value());
        } catch (TellException unreadable) {
            return null;
        }
    }
}
