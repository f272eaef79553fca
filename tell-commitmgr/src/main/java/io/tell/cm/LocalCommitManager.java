package io.tell.cm;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.txn.CommitManager;
import io.tell.txn.SnapshotDescriptor;
import io.tell.txn.TxStart;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A commit manager in this JVM; when durable, one member of a cluster of any number of them
 * over one store (architecture §6; {@link ClusterMember} does the cluster's part). State
 * changes are serialised by this object's monitor (the critical sections are a few field
 * updates, and no store call is waited for inside them), so the async methods never block: a
 * network server may call them on its event loop.
 *
 * <p>Each incarnation draws a number from a store counter at {@link #open}; read-only
 * transactions get the id {@code -(incarnation << 40 | sequence)}, so reader ids never repeat
 * across managers and restarts, and a report of another manager's reader is a no-op here.
 *
 * <p>Without durability (the embedded store, which dies with this JVM) the manager is alone,
 * nothing is published, and completions are visible at once.
 */
public final class LocalCommitManager implements CommitManager {
    public static final String SYSTEM_DOMAIN = "tell.sys";
    static final byte[] TID_COUNTER = "cm.tid".getBytes(StandardCharsets.UTF_8);
    static final byte[] INCARNATION_COUNTER = "cm.incarnation".getBytes(StandardCharsets.UTF_8);
    static final int READER_SEQUENCE_BITS = 40;

    /**
     * Configuration: tids reserved per counter increment, durability (cluster membership), and
     * how long a member or a reserved tid range may stay silent before the others settle what
     * it left ({@code inDoubtGrace}).
     */
    public record Options(int tidRange, boolean durable, Duration inDoubtGrace) {
        public Options {
            if (tidRange < 1) {
                throw new IllegalArgumentException("tidRange must be positive");
            }
            if (inDoubtGrace == null || inDoubtGrace.isNegative()) {
                throw new IllegalArgumentException("inDoubtGrace must be zero or positive");
            }
        }

        public static Options embedded() {
            return new Options(1000, false, Duration.ZERO);
        }

        public static Options durableService() {
            return new Options(100, true, Duration.ofSeconds(3));
        }
    }

    private final RecordStore store;
    private final Options options;
    private final CommitState state;
    private final long incarnation;
    final ScheduledThreadPoolExecutor background;
    private volatile Thread backgroundThread;
    private final TidRanges tids;
    /**
     * Tids that reported {@link #validatingAsync} and are not yet completed (visible, or aborted
     * and reverted), each with the snapshot current when it did; under this monitor.
     */
    private final Map<Long, SnapshotDescriptor> validating = new HashMap<>();
    private final ClusterMember member;
    private long nextReaderSequence = 1;
    private volatile boolean closed;
    private volatile boolean fenced;

    private LocalCommitManager(RecordStore store, Options options, long incarnation, long issuedBefore) {
        this.store = store;
        this.options = options;
        this.incarnation = incarnation;
        this.state = new CommitState(options.durable() ? 0 : issuedBefore, new BitSet(), issuedBefore);
        this.background = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "tell-cm-" + incarnation);
            t.setDaemon(true);
            backgroundThread = t;
            return t;
        });
        background.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.member = options.durable() ? new ClusterMember(this, store, options, incarnation) : null;
        this.tids = new TidRanges(this, store, new RecordKey(SYSTEM_DOMAIN, TID_COUNTER), options.tidRange(),
                issuedBefore, member, this::runInBackground);
    }

    /**
     * Opens a commit manager over {@code store}; when durable it joins the cluster of managers
     * on the store (reading what the others published first). Blocks on a few store calls;
     * not for an event-loop thread.
     */
    public static LocalCommitManager open(RecordStore store, Options options) {
        long incarnation = store.increment(SYSTEM_DOMAIN, INCARNATION_COUNTER, 1);
        if (incarnation >= 1L << (63 - READER_SEQUENCE_BITS)) {
            throw TellException.of(ErrorCode.INTERNAL, "commit manager incarnations exhausted: " + incarnation);
        }
        long issuedBefore = store.increment(SYSTEM_DOMAIN, TID_COUNTER, 0);
        LocalCommitManager cm = new LocalCommitManager(store, options, incarnation, issuedBefore);
        if (cm.member != null) {
            try {
                cm.member.join();
            } catch (RuntimeException e) {
                cm.close();
                throw e;
            }
        }
        return cm;
    }

    void runInBackground(Runnable task) {
        try {
            background.execute(task);
        } catch (RejectedExecutionException closing) {
            // Closed meanwhile: close() has already failed whatever was waiting.
        }
    }

    long incarnation() {
        return incarnation;
    }

    CommitState state() {
        return state;
    }

    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly) {
        synchronized (this) {
            if (closed) {
                return unavailable("commit manager closed");
            }
            if (readOnly) {
                long id = -((incarnation << READER_SEQUENCE_BITS) | nextReaderSequence++);
                return CompletableFuture.completedFuture(begin(id));
            }
            return tids.start();
        }
    }

    /**
     * A start on behalf of the processing node holding lease {@code owner}: when that lease is
     * gone while the transaction still runs here, this manager settles it ({@link ClusterMember}).
     * The owner is noted before the answer leaves, so before any report of the transaction.
     */
    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
        CompletableFuture<TxStart> started = startAsync(readOnly);
        if (owner == null || member == null) {
            return started;
        }
        return started.thenApply(s -> {
            member.owned(s.tid(), owner);
            return s;
        });
    }

    /** Registers {@code id} as running with the current snapshot; called under this monitor. */
    TxStart begin(long id) {
        SnapshotDescriptor snapshot = state.snapshot();
        state.begin(id, snapshot.base());
        long lav = state.lav();
        if (member != null) {
            if (id > 0) {
                member.writerStarted();
            }
            lav = Math.min(lav, member.clusterLav());
        }
        // Kept past the report until the outcome is in the snapshots: a member acknowledges a
        // commit only once decided, and releases the tid before that.
        validating.keySet().removeIf(state::isCompleted);
        return new TxStart(id, snapshot, lav, tids.writers(precedingWriters(snapshot)));
    }

    /**
     * The validating tids a reader of {@code snapshot} must count as possibly serialized before
     * it: those that began validating before some transaction {@code snapshot} sees had
     * completed. A writer that began validating at the very snapshot a reader gets (nothing
     * completed since) precedes none of the writers the reader sees, so no path of
     * dependencies leads back from it to the reader (docs/transactions.md, "Why this is
     * serializable"). Sorted.
     */
    private long[] precedingWriters(SnapshotDescriptor snapshot) {
        long[] out = new long[validating.size()];
        int n = 0;
        for (Map.Entry<Long, SnapshotDescriptor> v : validating.entrySet()) {
            if (v.getValue() != snapshot) { // a descriptor is built anew on every change
                out[n++] = v.getKey();
            }
        }
        out = java.util.Arrays.copyOf(out, n);
        java.util.Arrays.sort(out);
        return out;
    }

    boolean isClosed() {
        return closed;
    }

    /** The reserved tids not handed out, given up for good; under this monitor. */
    List<long[]> tidsToAbandon() {
        return tids.abandonUnissued();
    }

    @Override
    public CompletableFuture<Void> committedAsync(long tid, long logVersion) {
        return complete(tid, logVersion);
    }

    /** A commit its node decided: visible at once, the entry deleted once the completion is published. */
    @Override
    public CompletableFuture<Void> decidedAsync(long tid, long entryVersion) {
        if (tid <= 0 || entryVersion <= 0) {
            return CompletableFuture.failedFuture(TellException.of(ErrorCode.TX_STATE,
                    "a decided commit needs a read-write tid and its entry's version: " + tid + ", " + entryVersion));
        }
        return complete(tid, -entryVersion);
    }

    @Override
    public CompletableFuture<Void> abortedAsync(long tid) {
        return complete(tid, 0);
    }

    /**
     * Notes {@code tid} as validating until its outcome is in the snapshots ({@link TxStart.Writers#validating}).
     * A tid not running here (settled meanwhile, or started by another manager or incarnation,
     * whose snapshots this report cannot reach) fails: the writer must not commit.
     */
    @Override
    public synchronized CompletableFuture<Void> validatingAsync(long tid) {
        if (tid <= 0 || !state.isRunning(tid)) {
            return CompletableFuture.failedFuture(TellException.of(ErrorCode.TX_CONFLICT, "serialization failure: transaction "
                    + tid + " is not running at commit manager " + incarnation + ", so its readers cannot learn that it validates"));
        }
        validating.putIfAbsent(tid, state.snapshot());
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Completes {@code tid}. {@code logVersion}: its log entry's version when the entry is still
     * to be decided, its negation when the node decided it already, 0 for none.
     */
    private CompletableFuture<Void> complete(long tid, long logVersion) {
        if (member != null) {
            member.forget(tid);
        }
        synchronized (this) {
            if (closed) {
                return unavailable("commit manager closed");
            }
            if (tid < 0) {
                long reader = -tid;
                long sequence = reader & ((1L << READER_SEQUENCE_BITS) - 1);
                if (reader <= 0 || (reader >>> READER_SEQUENCE_BITS == incarnation && sequence >= nextReaderSequence)) {
                    return CompletableFuture.failedFuture(TellException.of(ErrorCode.TX_STATE, "reader id " + tid + " was never issued"));
                }
                // A reader of another incarnation holds nothing here: ending it is a no-op.
                state.complete(tid);
                return CompletableFuture.completedFuture(null);
            }
            if (member == null) {
                if (!state.complete(tid)) {
                    return neverIssued(tid);
                }
                if (logVersion != 0) {
                    TxLogCleanup.deleteQuietly(store, tid, Math.abs(logVersion));
                }
                return CompletableFuture.completedFuture(null);
            }
            if (state.release(tid)) {
                return member.complete(tid, logVersion);
            }
        }
        // Perhaps issued by another member since this one last read the tid counter.
        return store.incrementAsync(new RecordKey(SYSTEM_DOMAIN, TID_COUNTER), 0).thenCompose(issued -> {
            synchronized (this) {
                state.issuedUpTo(issued);
                if (closed) {
                    return unavailable("commit manager closed");
                }
                return state.release(tid) ? member.complete(tid, logVersion) : neverIssued(tid);
            }
        });
    }

    private static CompletableFuture<Void> neverIssued(long tid) {
        return CompletableFuture.failedFuture(TellException.of(ErrorCode.TX_STATE, "tid " + tid + " was never issued"));
    }

    /** For tests and monitoring: the current base, lav and number of running transactions. */
    public synchronized String describe() {
        return "base=" + state.base() + " lav=" + state.lav() + " running=" + state.runningCount()
                + (member == null ? "" : " " + member.describe());
    }

    /** For tests: processing nodes this manager has recovered. */
    public long recoveredNodes() {
        return member == null ? 0 : member.recoveredNodes();
    }

    @Override
    public TxStart start(boolean readOnly, String owner) {
        checkNotBackgroundThread();
        return CommitManager.super.start(readOnly, owner);
    }

    @Override
    public void validating(long tid) {
        checkNotBackgroundThread();
        CommitManager.super.validating(tid);
    }

    @Override
    public void committed(long tid) {
        checkNotBackgroundThread();
        CommitManager.super.committed(tid);
    }

    @Override
    public void aborted(long tid) {
        checkNotBackgroundThread();
        CommitManager.super.aborted(tid);
    }

    /** Waiting on the background thread for something only that thread can finish would hang. */
    private void checkNotBackgroundThread() {
        if (Thread.currentThread() == backgroundThread) {
            throw new IllegalStateException("blocking commit manager call on its background thread would deadlock;"
                    + " use the async methods in callbacks");
        }
    }

    /** Stops accepting calls; completions already accepted are still published before this returns. */
    @Override
    public void close() {
        List<CompletableFuture<TxStart>> orphans;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            orphans = tids.drainWaiting();
        }
        TellException e = TellException.of(ErrorCode.CM_UNAVAILABLE, "commit manager closed");
        orphans.forEach(f -> f.completeExceptionally(e));
        if (member != null) {
            runInBackground(member::leave);
        }
        background.shutdown();
        try {
            if (!background.awaitTermination(10, TimeUnit.SECONDS)) {
                background.shutdownNow();
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
        if (member != null) {
            member.failPending(e);
        }
    }

    /** Stops as a crash would: nothing more is published, the member record stays (tests of takeover). */
    public void crash() {
        synchronized (this) {
            closed = true;
        }
        background.shutdownNow();
        if (member != null) {
            member.failPending(TellException.of(ErrorCode.CM_UNAVAILABLE, "commit manager crashed"));
        }
    }

    /** Whether the cluster took this member's record over (it stopped serving; see {@link RejoiningCommitManager}). */
    boolean isFenced() {
        return fenced;
    }

    /** Called when another member took this one's record over: it must stop serving. */
    void fenced() {
        List<CompletableFuture<TxStart>> orphans;
        synchronized (this) {
            closed = true;
            fenced = true;
            orphans = tids.drainWaiting();
        }
        TellException e = TellException.of(ErrorCode.CM_UNAVAILABLE, "this commit manager was taken over by another");
        orphans.forEach(f -> f.completeExceptionally(e));
    }

    static <T> CompletableFuture<T> unavailable(String message) {
        return CompletableFuture.failedFuture(TellException.of(ErrorCode.CM_UNAVAILABLE, message));
    }
}
