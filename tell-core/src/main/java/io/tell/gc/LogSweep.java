package io.tell.gc;

import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.KeyRange;
import io.tell.store.StoredRecord;
import io.tell.store.WriteOp;
import io.tell.txn.TxLog;
import java.util.ArrayList;
import java.util.List;

/**
 * Deletes orphan transaction-log entries: the commit manager deletes a committed entry, and an
 * aborting node its own, without waiting, so a failed or lost delete leaves one behind.
 *
 * <p>An entry may go when its tid is at or below the pass's snapshot base (the tid completed:
 * its writes are applied or reverted, so recovery has nothing to do with it) and it is older than
 * the grace period. Entries of tids not yet completed belong to recovery and are not read. A
 * {@link TxLog.State#FENCED} entry that lists keys was fenced by recovery after its owner had
 * logged: the owner cannot log again, and its late commit report is refused within the client's
 * report deadline, far shorter than the grace; it goes too. A {@code FENCED} entry without keys
 * stays: a commit manager wrote it so that the insert of an owner that never logged fails, and
 * that owner may still try (a few such entries per commit-manager crash).
 */
final class LogSweep {
    private final SweepPass pass;

    LogSweep(SweepPass pass) {
        this.pass = pass;
    }

    void run() {
        if (pass.base() <= 0) {
            return;
        }
        byte[] to = TxLog.key(pass.base() + 1); // tids are positive: byte order is tid order
        byte[] from = TxLog.key(1);
        long oldest = pass.startMillis() - pass.options().grace().toMillis();
        while (true) {
            List<StoredRecord> page = pass.page(TxLog.DOMAIN, new KeyRange(from, to));
            List<WriteOp> deletes = new ArrayList<>();
            for (StoredRecord r : page) {
                if (orphan(r, oldest)) {
                    deletes.add(WriteOp.delete(TxLog.DOMAIN, r.key(), Expect.version(r.version())));
                }
            }
            pass.counters().logEntries.add(pass.writeAll(deletes));
            if (page.size() < pass.options().pageSize()) {
                return;
            }
            from = SweepPass.after(page.get(page.size() - 1).key());
        }
    }

    private static boolean orphan(StoredRecord r, long oldestMillis) {
        try {
            TxLog.Entry e = TxLog.decode(r.value());
            boolean blocksAnInsert = e.state() == TxLog.State.FENCED && e.keys().isEmpty();
            return !blocksAnInsert && e.millis() <= oldestMillis;
        } catch (TellException unreadable) {
            return false; // not ours to judge; left for whoever wrote it
        }
    }
}
