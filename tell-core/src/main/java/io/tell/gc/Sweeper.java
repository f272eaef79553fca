package io.tell.gc;

import io.tell.index.BTree;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStore;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lazy garbage collector (paper §5.3, design §8): a background sweeper that any process
 * running transactions can host, active on one process cluster-wide at a time through a lease
 * ({@link SweepLease}). Each pass reclaims, in this order:
 * <ol>
 *   <li>what committed transactions listed as garbage ({@link io.tell.txn.GarbageLog}): rows whose
 *       newest version is a delete at or below lav, index entries and unique claims first
 *       ({@link GarbageSweep});</li>
 *   <li>transaction-log entries of completed tids that nobody deleted ({@link LogSweep});</li>
 *   <li>every record of dropped tables and indexes ({@link DeadDomainSweep});</li>
 *   <li>now and then, tree records no walk reaches, which only a crashed tree client leaves
 *       ({@link TreeAudit}).</li>
 * </ol>
 * The first two walk tids from a cursor ({@link SweepCursor}) reading keys in batches, so a pass
 * costs in proportion to what happened since the last one, never to the size of the store.
 * Superseded B-tree node records need no sweep while their client lives: it deletes them with its
 * next write.
 * Work is paced to {@link SweepOptions#recordsPerSecond()} so that transactions barely notice.
 *
 * <p>Safety never rests on the lease: every delete is conditional on the version read, and is
 * justified by lav, which only grows. Two sweepers at once would only duplicate work.
 */
public final class Sweeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Sweeper.class);

    private final CountingRecordStore store;
    private final TransactionManager transactions;
    private final SweepScope scope;
    private final SweepOptions options;
    private final SweepLease lease;
    private final SweepPacer pacer;
    private final SweepCounters counters = new SweepCounters();
    private final SettledHorizon horizon = new SettledHorizon();
    private final Map<String, BTree> trees = new ConcurrentHashMap<>();
    private final Object passLock = new Object();
    private volatile Thread thread;
    private volatile boolean closed;

    /** {@code holder} names this process in the lease record (e.g. the processing node's id). */
    public Sweeper(RecordStore store, TransactionManager transactions, SweepScope scope, SweepOptions options,
                   String holder) {
        this(store, transactions, scope, options, holder, System::nanoTime);
    }

    /** With the clock the lease is measured by (tests pass their own, so no test waits on time). */
    public Sweeper(RecordStore store, TransactionManager transactions, SweepScope scope, SweepOptions options,
                   String holder, LongSupplier nanoClock) {
        this.store = new CountingRecordStore(store);
        this.transactions = transactions;
        this.scope = scope;
        this.options = options;
        this.lease = new SweepLease(this.store, holder, options.leaseDuration(), nanoClock);
        this.pacer = new SweepPacer(options.recordsPerSecond());
    }

    /** Starts sweeping in the background: renew or wait for the lease, pass, pause, again. */
    public synchronized Sweeper start() {
        if (thread == null && !closed) {
            thread = Thread.ofPlatform().daemon().name("tell-sweeper").start(this::loop);
        }
        return this;
    }

    /**
     * Takes or renews the lease and, if this process holds it, runs one whole pass now. False
     * when another process holds the lease (or this one lost it during the pass).
     */
    public boolean runPass() {
        synchronized (passLock) {
            if (!lease.acquire()) {
                return false;
            }
            Transaction tx = transactions.begin();
            long now = System.currentTimeMillis();
            SettledHorizon.Sample settled = horizon.observe(new SettledHorizon.Sample(now, tx.snapshot().base(), tx.lav()),
                    options.grace().toMillis());
            SweepPass pass = new SweepPass(store, tx.tid(), tx.snapshot().base(), tx.lav(), settled, now,
                    options, lease, pacer, counters, trees);
            tx.commit(); // wrote nothing: it only drew the tid and lav, and must not hold lav back
            try {
                SweepCursor cursor = SweepCursor.read(store);
                Set<String> dead = scope.deadDomains();
                List<SweepScope.Table> tables = scope.tables();
                new GarbageSweep(pass, cursor, tables, dead).run();
                new LogSweep(pass, cursor).run();
                new DeadDomainSweep(pass).run(dead);
                new TreeAudit(pass, tables).run();
            } catch (SweepPass.LeaseLost e) {
                return false;
            }
            counters.passes.increment();
            if (LOG.isDebugEnabled()) {
                SweepStats after = stats();
                LOG.debug("sweep pass up to lav {} in {} ms: {} rows, {} index entries, {} claims, {} log entries, {} fences,"
                        + " {} dead records, {} tree records reclaimed so far", pass.lav(),
                        System.currentTimeMillis() - pass.startMillis(), after.rowsDeleted(), after.indexEntriesDeleted(),
                        after.claimsDeleted(), after.logEntriesDeleted(), after.fencesDeleted(), after.deadRecordsDeleted(),
                        after.treeRecordsDeleted());
            }
            return true;
        }
    }

    /** True while this process holds the lease. */
    public boolean holdsLease() {
        return lease.held();
    }

    /** Takes or renews the lease without sweeping (one read, at most one write); true when held. */
    public boolean renewLease() {
        return lease.acquire();
    }

    public SweepStats stats() {
        return new SweepStats(counters.passes.sum(), counters.scanned.sum(), counters.rows.sum(),
                counters.indexEntries.sum(), counters.claims.sum(), counters.logEntries.sum(), counters.fences.sum(),
                counters.deadRecords.sum(), counters.treeRecords.sum(), counters.conflicts.sum(), store.counts().total(),
                lease.acquisitions());
    }

    private void loop() {
        long pauseNanos = Math.min(options.passInterval().toNanos(), options.leaseDuration().toNanos() / 3);
        long nextPass = System.nanoTime();
        while (!closed) {
            try {
                if (System.nanoTime() - nextPass >= 0) {
                    runPass();
                    nextPass = System.nanoTime() + options.passInterval().toNanos();
                } else {
                    renewLease(); // between passes the holder keeps the lease, others keep watching it
                }
            } catch (RuntimeException e) {
                LOG.warn("sweep pass failed: {}", e.toString());
                nextPass = System.nanoTime() + options.passInterval().toNanos();
            }
            LockSupport.parkNanos(pauseNanos);
        }
    }

    /** Stops sweeping and gives the lease up, so another process can take over at once. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            closed = true;
            t = thread;
            lease.stop();
        }
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (passLock) {
            lease.release();
        }
    }

    /**
     * The sweeper's progress in {@code store}: who holds (or last held) the lease and how far its
     * walks over tids have come; null when no sweeper ever ran.
     */
    public static String progress(io.tell.store.RecordStore store) {
        String holder = SweepLease.holder(store);
        SweepCursor cursor = SweepCursor.read(store);
        if (holder == null && cursor.garbageNext() == 1 && cursor.logNext() == 1) {
            return null;
        }
        String audits = TreeAudit.progress(store);
        return (holder == null ? "no holder now" : "lease held (last) by " + holder) + "; garbage lists read below tid "
                + cursor.garbageNext() + ", log entries below tid " + cursor.logNext() + (audits == null ? "" : "; " + audits);
    }

}
