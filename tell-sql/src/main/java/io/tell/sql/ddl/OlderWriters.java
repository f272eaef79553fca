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
 * after the change; every writer that began before the change holds a smaller tid or one of a
 * range some commit manager had published by then (tids grow in order within one manager, not
 * across a cluster of them), so once a snapshot's base reaches the higher of the marker and the
 * highest published range end, all of them are decided. Managers that hand out no tids give
 * their unissued ones up within a few milliseconds, and busy ones use theirs up.
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
        marker = Math.max(marker, ClusterStatus.highestReservedTid(tm.store()));
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
