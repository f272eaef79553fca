package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
 */
public final class TransactionManager implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionManager.class);

    private final RecordStore store;
    private final CommitManager commitManager;
    private final String nodeId;
    private final Duration commitReportWait;
    private final ScheduledExecutorService background;
    private final java.util.concurrent.ConcurrentHashMap<String, List<TableIndex>> indexes = new java.util.concurrent.ConcurrentHashMap<>();
    private final LongAdder commits = new LongAdder();
    private final LongAdder aborts = new LongAdder();

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
    }

    public Transaction begin() {
        return begin(Isolation.SNAPSHOT);
    }

    public Transaction begin(Isolation isolation) {
        return new Transaction(this, start(false), isolation);
    }

    public Transaction beginReadOnly() {
        return beginReadOnly(Isolation.SNAPSHOT);
    }

    public Transaction beginReadOnly(Isolation isolation) {
        return new Transaction(this, start(true), isolation);
    }

    /**
     * Starts at the commit manager. If waiting fails (interrupted) the start may still succeed
     * later, handing out an id nobody holds: it is then ended at once, so it cannot pin lav.
     */
    private TxStart start(boolean readOnly) {
        CompletableFuture<TxStart> started = commitManager.startAsync(readOnly);
        try {
            return TellException.join(started);
        } catch (RuntimeException e) {
            started.thenAccept(orphan -> report(orphan.tid(), orphan.readOnly()));
            throw e;
        }
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
            } catch (TellException e) {
                if (tx != null) {
                    tx.rollback();
                }
                if (!e.retriable() || attempt >= maxAttempts) {
                    throw e;
                }
                backoff(attempt);
            } catch (RuntimeException | Error e) {
                if (tx != null) {
                    tx.rollback();
                }
                throw e;
            }
        }
    }

    public RecordStore store() {
        return store;
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

    /**
     * Reports a commit and waits for the acknowledgement; past the wait the report goes on in
     * the background ({@link ErrorCode#TX_COMMIT_PENDING}). A report the commit manager refused
     * for good (a non-retriable answer such as {@code TX_STATE}) did not commit: that failure is
     * thrown as it is, for the caller to revert and report the abort. A report given up without
     * an answer (this manager closing, or an internal failure) may still have reached the
     * commit manager, so it is only ever {@code TX_COMMIT_PENDING}, never reverted.
     */
    void awaitCommitReport(long tid) {
        CompletableFuture<Void> ack = report(tid, true);
        try {
            ack.get(commitReportWait.toMillis(), TimeUnit.MILLISECONDS);
            if (tid > 0) {
                commits.increment();
            }
        } catch (TimeoutException e) {
            throw TellException.of(ErrorCode.TX_COMMIT_PENDING, "commit of tid " + tid
                    + " is applied but the commit manager has not acknowledged it; it becomes visible once it does", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TellException.of(ErrorCode.TX_COMMIT_PENDING, "interrupted while reporting commit of tid " + tid, e);
        } catch (java.util.concurrent.ExecutionException e) {
            TellException failure = TellException.unwrap(e.getCause());
            if (failure.retriable() || failure.code() == ErrorCode.INTERNAL) {
                throw TellException.of(ErrorCode.TX_COMMIT_PENDING, "commit of tid " + tid
                        + " is applied but its report was given up without an answer: " + failure.getMessage(), failure);
            }
            throw failure;
        }
    }

    /** Reports the end of a transaction that wrote nothing, without waiting. */
    void reportFinished(long tid) {
        report(tid, true);
    }

    /** Reports an abort (no versions of {@code tid} exist) without waiting. */
    void reportAborted(long tid) {
        if (tid > 0) {
            aborts.increment();
        }
        report(tid, false);
    }

    /**
     * Removes every version {@code tid} wrote to {@code keys}, then reports the abort. When
     * {@code outcomeUnknown} (the apply batch failed without answers), a write of ours may still
     * be on its way; every record where no version of ours is found is then rewritten as it is
     * (an absent one as an empty record) so that such a late conditional write can only fail.
     */
    void revertAndReportAborted(long tid, List<RecordKey> keys, boolean outcomeUnknown) {
        try {
            revert(tid, keys, outcomeUnknown);
            reportAborted(tid);
        } catch (RuntimeException e) {
            LOG.warn("revert of tid {} failed ({}); retrying in the background", tid, e.toString());
            background.schedule(() -> revertAndReportAborted(tid, keys, outcomeUnknown), 200, TimeUnit.MILLISECONDS);
        }
    }

    /** Drops the transaction-log entry of a finished transaction; not waited for. */
    void forgetLog(long tid) {
        store.writeAsync(WriteOp.delete(TxLog.DOMAIN, TxLog.key(tid), Expect.ANY))
                .exceptionally(e -> {
                    LOG.debug("log cleanup of tid {} failed: {}", tid, e.toString());
                    return null;
                });
    }

    private void revert(long tid, List<RecordKey> keys, boolean outcomeUnknown) {
        for (int attempt = 0; attempt < 10; attempt++) {
            List<Versioned> current = TellException.join(store.getAllAsync(keys));
            List<WriteOp> ops = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                WriteOp op = revertOp(tid, keys.get(i), current.get(i), outcomeUnknown);
                if (op != null) {
                    ops.add(op);
                }
            }
            if (ops.isEmpty() || TellException.join(store.writeAllAsync(ops)).stream().allMatch(r -> r.written())) {
                forgetLog(tid);
                return;
            }
        }
        throw TellException.of(ErrorCode.STORE_TIMEOUT, "could not revert tid " + tid + " after 10 attempts");
    }

    private static WriteOp revertOp(long tid, RecordKey key, Versioned v, boolean outcomeUnknown) {
        if (v == null) {
            return outcomeUnknown ? new WriteOp(key, new MvccRecord(List.of()).encode(), Expect.ABSENT) : null;
        }
        MvccRecord record = MvccRecord.decode(v.value());
        Expect expect = Expect.version(v.version());
        if (!record.hasVersionOf(tid)) {
            return outcomeUnknown ? new WriteOp(key, v.value(), expect) : null;
        }
        MvccRecord rest = record.without(tid);
        return new WriteOp(key, rest.isEmpty() ? null : rest.encode(), expect);
    }

    /** Sends a report, resending retriable failures in the background until acknowledged. */
    private CompletableFuture<Void> report(long tid, boolean committed) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        send(tid, committed, done, 1);
        return done;
    }

    private void send(long tid, boolean committed, CompletableFuture<Void> done, int attempt) {
        CompletableFuture<Void> call;
        try {
            call = committed ? commitManager.committedAsync(tid) : commitManager.abortedAsync(tid);
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
                LOG.error("report of tid {} ({}) failed for good: {}", tid, committed ? "committed" : "aborted", e.toString());
                done.completeExceptionally(e);
                return;
            }
            long delay = Math.min(1000, 20L << Math.min(attempt, 6));
            background.schedule(() -> send(tid, committed, done, attempt + 1), delay, TimeUnit.MILLISECONDS);
        });
    }

    private static void backoff(int attempt) {
        long max = Math.min(200, 2L << Math.min(attempt, 7));
        try {
            Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(max + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TellException.of(ErrorCode.INTERNAL, "interrupted", e);
        }
    }

    @Override
    public void close() {
        background.shutdown();
        try {
            background.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
