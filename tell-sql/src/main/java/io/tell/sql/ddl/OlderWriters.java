package io.tell.sql.ddl;

import io.tell.cm.ClusterStatus;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits, after a schema change was published, until every read-write transaction that began
 * before it has ended, on any node. Such a transaction may have passed its commit's catalog
 * check before the change and be applying rows under the older catalog; once it has ended, the
 * rows it wrote are in the store for a backfill or validation to see, and every later writer
 * either runs under the new catalog or fails its commit. How: a marker transaction takes a tid
 * after the change. Tids grow in order within one commit manager, not across a cluster of them:
 * a writer that began before the change holds a smaller tid if it began on the marker's
 * manager, else one of a range another manager had published by then. Once a snapshot's base
 * reaches the higher of the marker and the highest range end the other managers publish, all
 * of them are decided. With one commit manager that is the marker itself; with several, the
 * wait also covers the others' tids handed out after the change, until they are used up or,
 * by a manager that hands out none for 20 ms, given up.
 */
final class OlderWriters {
    /** How long transactions that began before a schema change may keep it waiting. */
    static final long TIMEOUT_MILLIS = 120_000;

    private OlderWriters() {
    }

    static void await(TransactionManager tm) {
        long marker;
        try (Transaction t = tm.begin()) {
            marker = t.tid();
            t.commit(); // writes nothing: only ends the tid
        }
        marker = Math.max(marker, ClusterStatus.highestReservedElsewhere(tm.store(), marker));
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS);
        long pause = TimeUnit.MILLISECONDS.toNanos(1);
        while (true) {
            try (Transaction probe = tm.beginReadOnly()) {
                boolean done = probe.snapshot().base() >= marker;
                probe.commit();
                if (done) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw TellException.of(ErrorCode.TIMEOUT, "transactions that began before the schema change still run after "
                        + TIMEOUT_MILLIS / 1000 + " s; the change is undone");
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(50));
        }
    }
}
