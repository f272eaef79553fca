package io.tell.cm;

import io.tell.store.Expect;
import io.tell.store.RecordStore;
import io.tell.store.WriteOp;
import io.tell.txn.TxLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deletes the log entry of a tid whose outcome is journaled; not waited for (the sweeper removes what is left). */
final class TxLogCleanup {
    private static final Logger LOG = LoggerFactory.getLogger(TxLogCleanup.class);

    private TxLogCleanup() {
    }

    static void deleteQuietly(RecordStore store, long tid, long version) {
        Expect expect = version > 0 ? Expect.version(version) : Expect.ANY;
        store.writeAsync(WriteOp.delete(TxLog.DOMAIN, TxLog.key(tid), expect)).exceptionally(e -> {
            LOG.debug("log cleanup of tid {} failed: {}", tid, e.toString());
            return null;
        });
    }
}
