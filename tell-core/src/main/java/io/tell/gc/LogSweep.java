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
 * Deletes orphan transaction-log entries: a processing node deletes its entry after the commit
 * manager acknowledged the outcome, without waiting, so a failed or lost delete leaves one behind.
 *
 * <p>An entry may go when its tid is at or below the pass's snapshot base (the tid completed:
 * its writes are applied or reverted, so recovery has nothing to do with it) and it is older than
 * the grace period. Entries of tids not yet completed belong to processing-node recovery and are
 * not read. {@link TxLog.State#FENCED} entries stay too: a commit manager wrote them to make the
 * insert of a tid's owner fail, and that owner may still be alive and try.
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
            return e.state() == TxLog.State.WRITING && e.millis() <= oldestMillis;
        } catch (TellException unreadable) {
            return false; // not ours to judge; left for whoever wrote it
        }
    }
}
