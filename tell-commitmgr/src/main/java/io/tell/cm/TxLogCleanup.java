package io.tell.cm;

import io.tell.store.Expect;
import io.tell.store.RecordStore;
import io.tell.store.WriteOp;
import io.tell.txn.TxLog;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deletes the log entry of a tid whose outcome is journaled; not waited for (the sweeper removes what is left). */
final class TxLogCleanup {
    private static final Logger LOG = LoggerFactory.getLogger(TxLogCleanup.class);

    private TxLogCleanup() {
    }

    static void deleteQuietly(RecordStore store, long tid, long version) {
        deleteAllQuietly(store, List.of(new long[] {tid, version}));
    }

    /** Deletes the entries {@code {tid, version}} (version 0: any) in one batch. */
    static void deleteAllQuietly(RecordStore store, List<long[]> entries) {
        if (entries.isEmpty()) {
            return;
        }
        List<WriteOp> ops = new ArrayList<>(entries.size());
        for (long[] e : entries) {
            ops.add(WriteOp.delete(TxLog.DOMAIN, TxLog.key(e[0]), e[1] > 0 ? Expect.version(e[1]) : Expect.ANY));
        }
        store.writeAllAsync(ops).exceptionally(e -> {
            LOG.debug("log cleanup of {} entries failed: {}", entries.size(), e.toString());
            return null;
        });
    }
}
