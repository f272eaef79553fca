package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.txn.CommitManager.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transaction side of one processing node: begins transactions against a commit manager
 * over a record store, and finishes what must not be lost when the store or the commit
 * manager is briefly unreachable — reports to the commit manager and reverts of aborted
 * writes are retried in the background until they succeed (a tid is never reported aborted
 * before every version it wrote is gone).
 *
 * <p>What it attaches to the commit manager's futures never blocks: it completes a future a
 * caller waits on, logs, or schedules a resend on its background thread. A commit manager
 * client may therefore complete them on its I/O thread, saving a thread hop on every start
 * and commit report ({@code ProcessingNode} sets it up so).
 */
public final class TransactionManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionManager.class);

    private final RecordStore store;
    private final CommitManager commitManager;
    private final String nodeId;
    private final Duration commitReportWait;
    private final ScheduledExecutorService background;
    private final StaleEntries staleEntries;
    private final ConcurrentHashMap<String, List<TableIndex>> indexes = new ConcurrentHashMap<>();
    private final LongAdder commits = new LongAdder();
    private final LongAdder aborts = new LongAdder();
    private final LongAdder merges = new LongAdder();
    /** The snapshot of a transaction of this node that started lately (not always the very latest); null before the first. */
    private volatile SnapshotDescriptor latest;
    private final HotRecords hotRecords = new HotRecords();
    /** How long a loser of a write-write conflict waits for this node's winner to finish ({@link #awaitEnded}). */
    static final long WINNER_WAIT_MILLIS = 50;
    private static final long WINNER_POLL_NANOS = 100_000;
    /** Snapshot bases of this node's running transactions by tid, for the lease's lav hold. */
    private final ConcurrentHashMap<Long, Long> running = new ConcurrentHashMap<>();
    private volatile NodeLease lease;
    /** Reports sent and not yet acknowledged, which {@link #close} waits for. */
    private final Set<CompletableFuture<Void>> unacknowledged = ConcurrentHashMap.newKeySet();
    /** The commits reported lately, for column merges onto their versions. */
    private final RecentCommits recentCommits = new RecentCommits();
    private volatile CommitObserver observer;
    /** The node's shared record buffer; null for {@link Buffering#TRANSACTION}. */
    private volatile SharedRecordBuffer shared;
    /** The store's version sets (null when it keeps none), looked up before the first commit needs them. */
    private volatile VersionSets versionSets;
    private volatile boolean versionSetsKnown;

    public TransactionManager(RecordStore store, CommitManager commitManager, String nodeId) {
        this(store, commitManager, nodeId, Duration.ofSeconds(10));
    }

    public TransactionManager(RecordStore store, CommitManager commitManager, String nodeId, Duration commitReportWait) {
        this.store = store;
        this.commitManager = commitManager;
        this.nodeId = nodeId;
        this.commitReportWait = commitReportWait;
        this.background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tell-txn-" + nodeId);
            t.setDaemon(true);
            return t;
        });
        this.staleEntries = new StaleEntries(nodeId);
    }

    /** Where readers hand the index entries of rows gone for everyone, to be removed off their path. */
    StaleEntries staleEntries() {
        return staleEntries;
    }

    public Transaction begin() {
        return begin(Isolation.SNAPSHOT);
    }

    public Transaction begin(Isolation isolation) {
        NodeLease.Registration r = registration();
        return started(start(false, r), isolation, r);
    }

    public Transaction beginReadOnly() {
        return beginReadOnly(Isolation.SNAPSHOT);
    }

    public Transaction beginReadOnly(Isolation isolation) {
        NodeLease.Registration r = registration();
        return started(start(true, r), isolation, r);
    }

    /** The lease registration transactions begun now belong to; null without a lease. */
    private NodeLease.Registration registration() {
        NodeLease l = lease;
        return l == null ? null : l.registration();
    }

    private Transaction started(TxStart start, Isolation isolation, NodeLease.Registration r) {
        running.put(start.tid(), start.snapshot().base());
        latest = start.snapshot();
        SharedRecordBuffer s = shared;
        if (s != null) {
            s.started(start.snapshot());
        }
        return new Transaction(this, start, isolation, r == null ? null : r.id(), r == null ? 0 : r.epoch());
    }

    /**
     * From now on this node holds a lease ({@link NodeLease}) renewed in the background, and
     * its transactions log under the lease's id: when the node dies, a commit manager's
     * recovery finds and reverts what it left. Without a lease (an embedded database, whose
     * commit manager dies with it) nothing is recovered. Call before the first transaction.
     */
    public void startLease(Duration leaseTime) {
        startLease(leaseTime, store);
    }

    /**
     * {@link #startLease(Duration)}, renewed through {@code leaseStore}: the same store, perhaps
     * without the wrapper that counts this node's transactions' round trips (a renewal every
     * {@value NodeLease#RENEW_MILLIS} ms is no transaction's).
     */
    public void startLease(Duration leaseTime, RecordStore leaseStore) {
        if (lease != null) {
            throw new IllegalStateException("lease already started");
        }
        lease = NodeLease.acquire(leaseStore, nodeId, leaseTime, this::lowestRunningBase, background);
    }

    /** The node's lease, or null when it holds none. */
    public NodeLease lease() {
        return lease;
    }

    /** Stops renewing the lease and leaves it in the store, as a crash would (tests of recovery). */
    public void abandonLease() {
        if (lease != null) {
            lease.abandon();
        }
    }

    /** The lowest snapshot base of this node's running transactions, {@link Long#MAX_VALUE} when none. */
    long lowestRunningBase() {
        long min = Long.MAX_VALUE;
        for (long base : running.values()) {
            min = Math.min(min, base);
        }
        return min;
    }

    /**
     * After a write-write conflict with {@code winner}'s newer version: waits while {@code winner}
     * is a transaction of this node still running — in its commit, since its versions are in the
     * store — at most {@value #WINNER_WAIT_MILLIS} ms. The loser's retry then begins with a
     * snapshot that holds the winner's outcome instead of meeting its version in flight again
     * (an abort and a commit-manager round trip each time). Another node's writer is not waited for.
     */
    void awaitEnded(long winner) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WINNER_WAIT_MILLIS);
        while (running.containsKey(winner) && System.nanoTime() - deadline < 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(WINNER_POLL_NANOS);
        }
    }

    /** A transaction of this node ended (committed, aborted or failed). */
    void ended(long tid) {
        running.remove(tid);
    }

    /** Throws {@link ErrorCode#TX_FENCED} when the lease a transaction began under is no longer held. */
    void checkLease(long epoch) {
        NodeLease l = lease;
        if (l != null) {
            l.check(epoch);
        }
    }

    /** Sets the observer that sees commits pass their steps (fault-injection tests); null for none. */
    public void observeCommits(CommitObserver observer) {
        this.observer = observer;
    }

    CommitObserver observer() {
        return observer;
    }

    /**
     * Starts at the commit manager, waiting ({@link CommitManager#start(boolean, String)}: a start
     * answered after waiting failed is ended there, so it cannot pin lav).
     */
    private TxStart start(boolean readOnly, NodeLease.Registration owner) {
        return commitManager.start(readOnly, owner == null ? null : owner.id());
    }

    /**
     * Runs {@code work} in a transaction and commits, retrying the whole transaction on
     * retriable failures (conflicts, a briefly unreachable store or commit manager) up to
     * {@code maxAttempts} times with a short randomized back-off. Any other throwable, from
     * the work or from Tell, rolls the transaction back (its tid is reported) and propagates.
     */
    public <T> T run(int maxAttempts, Function<Transaction, T> work) {
        return run(maxAttempts, Isolation.SNAPSHOT, work);
    }

    /** {@link #run(int, Function)} at the given isolation level. */
    public <T> T run(int maxAttempts, Isolation isolation, Function<Transaction, T> work) {
        for (int attempt = 1; ; attempt++) {
            Transaction tx = null;
            try {
                tx = begin(isolation);
                T result = work.apply(tx);
                tx.commit();
                return result;
            } catch (RuntimeException | Error e) {
                if (tx != null) {
                    tx.rollback();
                }
                if (!(e instanceof TellException te) || !te.retriable() || attempt >= maxAttempts) {
                    throw e;
                }
                backoff(attempt);
            }
        }
    }

    public RecordStore store() {
        return store;
    }

    /**
     * Sets how this node buffers records ({@link Buffering}); call before the first transaction.
     * {@code unitSize} is the records per cache unit of version sets, used only when this node
     * is the first to decide for the store ({@link VersionSets}); {@code capacity} bounds the
     * shared buffer's entries. {@link io.tell.error.ErrorCode#BAD_CONFIGURATION} for
     * {@link Buffering#SYNCED} on a store that keeps no version sets.
     */
    public synchronized void useBuffering(Buffering buffering, int unitSize, int capacity) {
        use(buffering, VersionSets.open(store, buffering == Buffering.SYNCED, unitSize), capacity);
    }

    /**
     * {@link Buffering#SYNCED} where it pays and the store allows it, else
     * {@link Buffering#TRANSACTION}; returns the one chosen. Synced needs a store that runs a
     * batch in order (a commit's bumps then ride in its apply batch at no call of their own) and
     * that keeps version sets, as a new store does when this node is its first. Call before the
     * first transaction, from a thread that may call the store directly (a Redis store orders
     * batches only on such threads, not on an event loop's); {@code unitSize} and
     * {@code capacity} as for {@link #useBuffering}. The store's first node fixes its setting
     * for good: a first node that chose the transaction buffer, or a tool that commits without
     * choosing, leaves every later node the transaction buffer.
     */
    public synchronized Buffering useBestBuffering(int unitSize, int capacity) {
        VersionSets sets = VersionSets.decide(store, store.ordersBatches(), unitSize);
        Buffering chosen = sets != null && store.ordersBatches() ? Buffering.SYNCED : Buffering.TRANSACTION;
        use(chosen, sets, capacity);
        return chosen;
    }

    private void use(Buffering buffering, VersionSets sets, int capacity) {
        versionSets = sets;
        versionSetsKnown = true;
        shared = buffering == Buffering.TRANSACTION ? null
                : new SharedRecordBuffer(store, buffering == Buffering.SYNCED ? sets : null, capacity);
    }

    /** Reads served by the shared buffer (by snapshot, by unchanged version set) and fetched by it; zeros without one. */
    public long[] sharedBufferCounts() {
        SharedRecordBuffer s = shared;
        return s == null ? new long[3] : s.counts();
    }

    SharedRecordBuffer sharedBuffer() {
        return shared;
    }

    /** The store's version sets, null when it keeps none (decided by the first node, see {@link VersionSets}). */
    VersionSets versionSets() {
        if (!versionSetsKnown) {
            synchronized (this) {
                if (!versionSetsKnown) {
                    versionSets = VersionSets.open(store, false, 1);
                    versionSetsKnown = true;
                }
            }
        }
        return versionSets;
    }

    /** A transaction of this node wrote (or tried to write) {@code entries}: the shared buffer drops them. */
    void wrote(List<Transaction.Entry> entries) {
        SharedRecordBuffer s = shared;
        if (s != null && !entries.isEmpty()) {
            List<RecordKey> keys = new ArrayList<>(entries.size());
            for (Transaction.Entry e : entries) {
                keys.add(e.key);
            }
            s.forget(keys);
        }
    }

    /** From now on, transactions of this node keep {@code index} up to date for its table. */
    public void addIndex(TableIndex index) {
        indexes.compute(index.table(), (t, list) -> {
            List<TableIndex> next = list == null ? new ArrayList<>() : new ArrayList<>(list);
            next.add(index);
            return List.copyOf(next);
        });
    }

    /**
     * From now on, transactions of this node no longer keep {@code index} (it was dropped).
     * A commit already past looking up its table's indexes may still add entries to it.
     */
    public void removeIndex(TableIndex index) {
        indexes.computeIfPresent(index.table(), (t, list) -> {
            List<TableIndex> next = new ArrayList<>(list);
            next.remove(index);
            return next.isEmpty() ? null : List.copyOf(next);
        });
    }

    public List<TableIndex> indexesOf(String table) {
        return indexes.getOrDefault(table, List.of());
    }

    public String nodeId() {
        return nodeId;
    }

    /** Committed and aborted read-write transactions of this node so far. */
    public long commits() {
        return commits.sum();
    }

    public long aborts() {
        return aborts.sum();
    }

    /** Transactions that gave up before their commit on a version another writer left on a record they wrote ({@link HotRecords}). */
    public long earlyConflicts() {
        return hotRecords.earlyConflicts();
    }

    HotRecords hotRecords() {
        return hotRecords;
    }

    /** Records written merged onto a newer committed version of another writer instead of failing on it ({@link RowMerge}). */
    public long mergedWrites() {
        return merges.sum();
    }

    /** A commit applied {@code n} writes merged onto newer versions. */
    void merged(int n) {
        if (n > 0) {
            merges.add(n);
        }
    }

    /** A snapshot a transaction of this node started with lately, or null: a tid visible there has completed. */
    SnapshotDescriptor latestSnapshot() {
        return latest;
    }

    /**
     * Whether {@code tid} is a commit of this node that its commit manager acknowledged
     * ({@link RecentCommits#committed}): null when this node did not report it lately.
     */
    Boolean committedHere(long tid) {
        return recentCommits.committed(tid);
    }

    /**
     * A snapshot as this node's commit manager hands them out now: a read-only start (one round
     * trip) whose end is reported without waiting.
     */
    SnapshotDescriptor currentSnapshot() {
        Transaction probe = beginReadOnly(); // which makes it the latest snapshot, for other commits to use
        try {
            return probe.snapshot();
        } finally {
            probe.commit();
        }
    }

    /**
     * Reports a commit whose log entry has version {@code logVersion} and waits for the
     * acknowledgement; past the wait the report goes on in the background
     * ({@link ErrorCode#TX_COMMIT_PENDING}). A report the commit manager refused for good (a
     * non-retriable answer such as {@code TX_STATE}, or {@code TX_FENCED} when recovery took the
     * tid over) did not commit: that failure is thrown as it is. A report given up without an
     * answer (this manager closing, or an internal failure) may still have reached the commit
     * manager, so it is only ever {@code TX_COMMIT_PENDING}, never reverted.
     */
    void awaitCommitReport(long tid, long logVersion) {
        awaitReport(tid, Outcome.COMMITTED, logVersion);
    }

    /** {@link #awaitCommitReport} for a commit the node decided itself, whose {@code COMMITTED} entry has {@code entryVersion}. */
    void awaitDecidedReport(long tid, long entryVersion) {
        awaitReport(tid, Outcome.DECIDED, entryVersion);
    }

    private void awaitReport(long tid, Outcome outcome, long version) {
        long deadline = System.nanoTime() + commitReportWait.toNanos();
        CompletableFuture<Void> ack = report(tid, outcome, version, true);
        try {
            ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (tid > 0) {
                commits.increment();
            }
        } catch (TimeoutException e) {
            throw TellException.of(ErrorCode.TX_COMMIT_PENDING, "commit of tid " + tid
                    + " is applied but the commit manager has not acknowledged it; it becomes visible once it does", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TellException.of(ErrorCode.TX_COMMIT_PENDING, "interrupted while reporting commit of tid " + tid, e);
        } catch (ExecutionException e) {
            TellException failure = TellException.unwrap(e.getCause());
            // A commit its node decided is durable: whatever the report meets, it is not undone.
            // Refused for good, it stays unacknowledged, so that closing leaves the lease to
            // expire and recovery completes the tid from its COMMITTED entry.
            if (outcome == Outcome.DECIDED && !failure.retriable() && failure.code() != ErrorCode.INTERNAL) {
                unacknowledged.add(CompletableFuture.failedFuture(failure));
            }
            if (outcome == Outcome.DECIDED
                    || failure.code() != ErrorCode.TX_FENCED && (failure.retriable() || failure.code() == ErrorCode.INTERNAL)) {
                throw TellException.of(ErrorCode.TX_COMMIT_PENDING, "commit of tid " + tid
                        + " is applied but its report was not acknowledged: " + failure.getMessage(), failure);
            }
            throw failure;
        }
    }

    /**
     * Tells the commit manager that started {@code start}, a SERIALIZABLE writer, that its
     * versions are in the store and it now validates; returns once the manager has noted it.
     */
    void validating(TxStart start) {
        if (start.writers().hears(start.tid())) {
            commitManager.validating(start.tid());
        }
    }

    /** Reports the end of a transaction that wrote nothing, without waiting. */
    void reportFinished(long tid) {
        report(tid, Outcome.COMMITTED, 0, false);
    }

    /** Reports an abort (no versions of {@code tid} exist) without waiting. */
    void reportAborted(long tid) {
        if (tid > 0) {
            aborts.increment();
        }
        report(tid, Outcome.ABORTED, 0, false);
    }

    /**
     * Removes every version {@code tid} wrote to {@code keys}, then reports the abort. When
     * {@code outcomeUnknown} (the apply batch failed without answers), a write of ours may still
     * be on its way; every record where no version of ours is found is then rewritten as it is
     * (an absent one as a fence) so that such a late conditional write can only fail. The log
     * entry then stays for the sweeper, which deletes it with the fences once they are old enough.
     */
    void revertAndReportAborted(long tid, List<RecordKey> keys, boolean outcomeUnknown) {
        try {
            if (!Reverter.revert(store, tid, keys, outcomeUnknown)) {
                forgetLog(tid);
            }
            reportAborted(tid);
        } catch (RuntimeException e) {
            LOG.warn("revert of tid {} failed ({}); retrying in the background", tid, e.toString());
            background.schedule(() -> revertAndReportAborted(tid, keys, outcomeUnknown), 200, TimeUnit.MILLISECONDS);
        }
    }

    /** How long a commit waits for its outcome to be known before it gives up to the background. */
    Duration commitReportWait() {
        return commitReportWait;
    }

    /** Reports a commit this node decided itself ({@link CommitManager#decidedAsync}), without waiting. */
    void reportDecided(long tid, long entryVersion) {
        report(tid, Outcome.DECIDED, entryVersion, false);
    }

    /**
     * Runs {@code attempt}, which settles {@code tid} and reports it, on the background thread
     * until it gets through: again after a pause while the store does not answer; not at all
     * once recovery took the tid over (TX_FENCED: it reports).
     */
    void settleLater(long tid, Runnable attempt) {
        background.schedule(() -> {
            try {
                attempt.run();
            } catch (RuntimeException e) {
                if (e instanceof TellException te && te.code() == ErrorCode.TX_FENCED) {
                    return;
                }
                LOG.warn("settling tid {} failed ({}); retrying in the background", tid, e.toString());
                settleLater(tid, attempt);
            }
        }, 200, TimeUnit.MILLISECONDS);
    }

    /** Drops the transaction-log entry of a finished transaction; not waited for. */
    void forgetLog(long tid) {
        store.writeAsync(WriteOp.delete(TxLog.DOMAIN, TxLog.key(tid), Expect.ANY))
                .exceptionally(e -> {
                    LOG.debug("log cleanup of tid {} failed: {}", tid, e.toString());
                    return null;
                });
    }

    /**
     * Sends a report, resending retriable failures in the background until acknowledged. When the
     * caller {@code waits} for it at once, the first attempt goes through
     * {@link CommitManager#reportAwaited}, which a remote manager may make on the caller's thread.
     */
    private CompletableFuture<Void> report(long tid, Outcome outcome, long version, boolean waits) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        unacknowledged.add(done);
        done.whenComplete((ok, failure) -> unacknowledged.remove(done));
        if (tid > 0 && (outcome == Outcome.DECIDED || outcome == Outcome.COMMITTED && version > 0)) {
            recentCommits.reported(tid, done); // a commit with versions, which a merge may build on
        }
        send(tid, outcome, version, done, 1, waits);
        return done;
    }

    /**
     * Waits until every report sent so far is acknowledged (resends go on meanwhile); false
     * when one failed for good or {@code wait} passed first.
     */
    private boolean awaitReports(Duration wait) {
        CompletableFuture<?>[] pending = unacknowledged.toArray(CompletableFuture[]::new);
        return completesWithin(CompletableFuture.allOf(pending), wait.toMillis());
    }

    /** True when {@code future} completes normally within {@code millis}; false when it fails, times out or the wait is interrupted. */
    static boolean completesWithin(CompletableFuture<?> future, long millis) {
        try {
            future.get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private void send(long tid, Outcome outcome, long version, CompletableFuture<Void> done, int attempt, boolean awaited) {
        CompletableFuture<Void> call;
        try {
            call = awaited ? commitManager.reportAwaited(outcome, tid, version) : outcome.sendTo(commitManager, tid, version);
        } catch (RuntimeException e) {
            call = CompletableFuture.failedFuture(e);
        }
        call.whenComplete((ok, failure) -> {
            if (failure == null) {
                done.complete(null);
                return;
            }
            TellException e = TellException.unwrap(failure);
            if (!e.retriable() || background.isShutdown()) {
                LOG.error("report of tid {} ({}) failed for good: {}", tid, outcome, e.toString());
                done.completeExceptionally(e);
                return;
            }
            long delay = Math.min(1000, 20L << Math.min(attempt, 6));
            background.schedule(() -> send(tid, outcome, version, done, attempt + 1, false), delay, TimeUnit.MILLISECONDS);
        });
    }

    private static void backoff(int attempt) {
        long max = Math.min(200, 2L << Math.min(attempt, 7));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(max + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TellException.of(ErrorCode.INTERNAL, "interrupted", e);
        }
    }

    @Override
    public void close() {
        // A report still on its way would be lost with the commit manager's connection, its tid
        // left running there; until acknowledged, only the lease's recovery can end it.
        boolean reported = awaitReports(commitReportWait);
        if (lease != null) {
            if (reported) {
                lease.close();
            } else {
                LOG.warn("closing with transaction reports unacknowledged: lease {} left to expire, for recovery to end them",
                        lease.id());
                lease.abandon();
            }
        }
        staleEntries.close();
        background.shutdown();
        try {
            background.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
