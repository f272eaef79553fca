package io.tell.cm;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import io.tell.txn.CommitManager;
import io.tell.txn.SnapshotDescriptor;
import io.tell.txn.TxLog;
import io.tell.txn.TxStart;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A commit manager in this JVM. Tids come from a store counter in ranges, so they keep
 * increasing across restarts. State changes are serialised by this object's monitor (one
 * commit manager is one sequencer; the critical sections are a few field updates, and no
 * store call is waited for inside them), so the async methods never block: a network server
 * may call them on its event loop.
 *
 * <p>Each incarnation draws a number from a store counter at {@link #open}; read-only
 * transactions get the id {@code -(incarnation << 40 | sequence)}, so reader ids never repeat
 * across restarts and a late report from a reader of an earlier incarnation cannot end a
 * reader of this one.
 *
 * <p>When {@linkplain Options#durable() durable}, completions are journaled in the store with
 * group commit before they are acknowledged (one conditional write covers every report that
 * arrived meanwhile; the condition fences a second commit manager writing the same journal:
 * the newest incarnation claims the journal when it opens, and an older one that finds it
 * claimed stops). A completion becomes visible to new snapshots only once the journal holds
 * it, at the same moment it is acknowledged: a snapshot never contains a commit that a crash
 * of this commit manager could lose (its lav hold ends at once, which is always safe).
 * A restarted durable commit manager reloads the journal; tids handed
 * out (or merely reserved) by its previous incarnation that were not reported stay
 * invisible ("in doubt") until their owner reports them, and after
 * {@link Options#inDoubtGrace()} any of them that has no transaction-log entry is fenced by
 * inserting one, so its owner can no longer write and it counts as aborted.
 * Without durability (the embedded store, which dies with this JVM) nothing is journaled.
 *
 * <p>Journal value: incarnation (8 bytes, big-endian), then {@link CommitState#toBytes()}.
 *
 * <p>Futures of this class complete on the caller's thread or on the single
 * {@code tell-cm-journal} thread; the blocking helpers refuse to run on that thread, where
 * waiting would deadlock.
 */
public final class LocalCommitManager implements CommitManager {
    public static final String SYSTEM_DOMAIN = "tell.sys";
    static final byte[] TID_COUNTER = "cm.tid".getBytes(StandardCharsets.UTF_8);
    static final byte[] INCARNATION_COUNTER = "cm.incarnation".getBytes(StandardCharsets.UTF_8);
    static final byte[] JOURNAL_KEY = "cm.state".getBytes(StandardCharsets.UTF_8);
    static final int READER_SEQUENCE_BITS = 40;
    private static final int FENCE_BATCH = 512;
    private static final Logger LOG = LoggerFactory.getLogger(LocalCommitManager.class);

    /** Configuration: tids reserved per counter increment, durability, and the in-doubt grace. */
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
            return new Options(100, true, Duration.ofSeconds(10));
        }
    }

    private final RecordStore store;
    private final Options options;
    private final CommitState state;
    private final long incarnation;
    private final ScheduledThreadPoolExecutor background;
    private volatile Thread backgroundThread;
    private final TidRanges tids;
    private long nextReaderSequence = 1;
    private long journalVersion;
    private List<CompletableFuture<Void>> pendingAcks = new ArrayList<>();
    private List<Long> pendingTids = new ArrayList<>();
    private boolean flushing;
    private volatile boolean closed;

    private LocalCommitManager(RecordStore store, Options options, CommitState state, long incarnation, long journalVersion) {
        this.store = store;
        this.options = options;
        this.state = state;
        this.incarnation = incarnation;
        this.journalVersion = journalVersion;
        this.background = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "tell-cm-journal");
            t.setDaemon(true);
            backgroundThread = t;
            return t;
        });
        // A closed manager must not fence anything later.
        background.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        this.tids = new TidRanges(this, store, new RecordKey(SYSTEM_DOMAIN, TID_COUNTER), options.tidRange(),
                state.highestIssued(), task -> {
                    try {
                        background.execute(task);
                    } catch (RejectedExecutionException closing) {
                        // Closed meanwhile: close() has already failed the starts waiting for tids.
                    }
                });
    }

    /**
     * Opens a commit manager over {@code store}, reloading and claiming its journal when
     * durable. Blocks on a few store calls; not for an event-loop thread.
     */
    public static LocalCommitManager open(RecordStore store, Options options) {
        long incarnation = store.increment(SYSTEM_DOMAIN, INCARNATION_COUNTER, 1);
        if (incarnation >= 1L << (63 - READER_SEQUENCE_BITS)) {
            throw TellException.of(ErrorCode.INTERNAL, "commit manager incarnations exhausted: " + incarnation);
        }
        for (int attempt = 0; attempt < 10; attempt++) {
            long issuedBefore = store.increment(SYSTEM_DOMAIN, TID_COUNTER, 0);
            if (!options.durable()) {
                CommitState state = new CommitState(issuedBefore, new BitSet(), issuedBefore);
                return started(new LocalCommitManager(store, options, state, incarnation, 0));
            }
            Versioned journal = store.get(SYSTEM_DOMAIN, JOURNAL_KEY);
            CommitState state;
            if (journal != null) {
                CommitState saved = CommitState.read(ByteBuffer.wrap(journal.value()).position(8));
                // The journal is the tid counter's floor: a counter that went back in a store
                // fail-over must not make tids the journal counts as issued look unused.
                state = new CommitState(saved.base(), saved.doneAboveBase(), Math.max(issuedBefore, saved.highestIssued()));
                state.holdLav(saved.lav());
            } else {
                // A durable manager claims the journal before it hands out a tid, so tids
                // without a journal came from a non-durable one: nothing says they completed.
                if (issuedBefore > 0) {
                    LOG.warn("store has {} tids but no commit manager journal: treating them as in doubt", issuedBefore);
                }
                state = new CommitState(0, new BitSet(), issuedBefore);
            }
            WriteResult claim = store.write(WriteOp.put(SYSTEM_DOMAIN, JOURNAL_KEY, journalBytes(incarnation, state),
                    journal == null ? Expect.ABSENT : Expect.version(journal.version())));
            if (claim instanceof WriteResult.Written w) {
                return started(new LocalCommitManager(store, options, state, incarnation, w.version()));
            }
            // Another commit manager wrote the journal between our read and our claim: reload.
        }
        throw TellException.of(ErrorCode.CM_UNAVAILABLE, "could not claim the commit manager journal: contended");
    }

    private static LocalCommitManager started(LocalCommitManager cm) {
        List<Long> inDoubt;
        synchronized (cm) {
            inDoubt = cm.state.inDoubt();
        }
        if (!inDoubt.isEmpty()) {
            LOG.warn("{} tids of an earlier commit manager are in doubt ({}..{}); fencing unreported ones in {}",
                    inDoubt.size(), inDoubt.get(0), inDoubt.get(inDoubt.size() - 1), cm.options.inDoubtGrace());
            cm.background.schedule(() -> cm.fence(inDoubt), cm.options.inDoubtGrace().toMillis(), TimeUnit.MILLISECONDS);
        }
        cm.scheduleLavFloorRelease();
        return cm;
    }

    private static byte[] journalBytes(long incarnation, CommitState state) {
        return journalBytes(incarnation, state, List.of());
    }

    /**
     * Lets lav advance past the floor inherited from the journal once every tid of the earlier
     * incarnation is settled and the grace period has passed (by then its readers, which this
     * manager cannot see, are taken to have ended).
     */
    private void scheduleLavFloorRelease() {
        synchronized (this) {
            if (!state.holdsLavFloor() || closed) {
                return;
            }
        }
        Runnable check = () -> {
            synchronized (this) {
                if (state.inDoubt().isEmpty()) {
                    state.releaseLavFloor();
                    LOG.info("all tids of the earlier commit manager are settled: lav is free to advance");
                    return;
                }
            }
            scheduleLavFloorRelease();
        };
        try {
            background.schedule(check, Math.max(10, options.inDoubtGrace().toMillis()), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // Closed meanwhile: nothing left to release.
        }
    }

    private static byte[] journalBytes(long incarnation, CommitState state, List<Long> alsoDone) {
        byte[] s = state.toBytesWith(alsoDone);
        return ByteBuffer.allocate(8 + s.length).putLong(incarnation).put(s).array();
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

    /** Registers {@code id} as running with the current snapshot; called under this monitor. */
    TxStart begin(long id) {
        SnapshotDescriptor snapshot = state.snapshot();
        state.begin(id, snapshot.base());
        return new TxStart(id, snapshot, state.lav());
    }

    /**
     * Durable: journals {@code end} as issued before any tid of the range ending there is handed
     * out, so a restarted manager over a tid counter that went back still knows every tid that
     * may be in use (it keeps them in doubt) and reserves past them. Runs on the journal thread,
     * like every journal write, outside this monitor.
     */
    void journalReserved(long end) {
        if (!options.durable()) {
            return;
        }
        byte[] bytes;
        long expected;
        synchronized (this) {
            state.reserved(end);
            bytes = journalBytes(incarnation, state);
            expected = journalVersion;
        }
        Throwable failure = writeJournal(bytes, expected);
        if (failure != null) {
            throw TellException.unwrap(failure);
        }
    }

    /** Tids {@code from..to} will never be handed out; called under this monitor. */
    void skip(long from, long to) {
        LOG.warn("tids {}..{} were reserved but their reservation was lost: skipping them", from, to);
        state.skip(from, to);
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public CompletableFuture<Void> committedAsync(long tid) {
        return complete(tid);
    }

    @Override
    public CompletableFuture<Void> abortedAsync(long tid) {
        return complete(tid);
    }

    private synchronized CompletableFuture<Void> complete(long tid) {
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
        if (!state.release(tid)) {
            return CompletableFuture.failedFuture(TellException.of(ErrorCode.TX_STATE, "tid " + tid + " was never issued"));
        }
        if (!options.durable()) {
            state.markDone(tid);
            return CompletableFuture.completedFuture(null);
        }
        if (state.isCompleted(tid)) {
            return CompletableFuture.completedFuture(null); // journaled already: a resent report
        }
        CompletableFuture<Void> ack = new CompletableFuture<>();
        pendingAcks.add(ack);
        pendingTids.add(tid);
        if (!flushing) {
            flushing = true;
            background.execute(this::flush);
        }
        return ack;
    }

    /**
     * Group commit: one journal write acknowledges every report that arrived before it. Runs
     * on the journal thread until no report is pending, so it never needs resubmitting (which
     * would fail once {@link #close()} shut the executor down).
     */
    private void flush() {
        while (true) {
            List<CompletableFuture<Void>> acks;
            List<Long> tidsDone;
            byte[] bytes;
            long expected;
            synchronized (this) {
                if (pendingAcks.isEmpty()) {
                    flushing = false;
                    return;
                }
                acks = pendingAcks;
                tidsDone = pendingTids;
                pendingAcks = new ArrayList<>();
                pendingTids = new ArrayList<>();
                bytes = journalBytes(incarnation, state, tidsDone);
                expected = journalVersion;
            }
            Throwable failure = null;
            try {
                failure = writeJournal(bytes, expected);
            } catch (TellException e) {
                failure = TellException.of(ErrorCode.CM_UNAVAILABLE, "journal write failed: " + e.getMessage(), e);
                LOG.warn("journal write failed, reports will be resent: {}", e.toString());
            }
            if (failure == null) {
                synchronized (this) {
                    tidsDone.forEach(state::markDone);
                }
            }
            for (CompletableFuture<Void> ack : acks) {
                if (failure == null) {
                    ack.complete(null);
                } else {
                    ack.completeExceptionally(failure);
                }
            }
        }
    }

    /** Writes the journal conditionally; null on success, the failure to report otherwise. */
    private Throwable writeJournal(byte[] bytes, long expected) {
        while (true) {
            WriteResult r = store.write(WriteOp.put(SYSTEM_DOMAIN, JOURNAL_KEY, bytes, Expect.version(expected)));
            if (r instanceof WriteResult.Written w) {
                synchronized (this) {
                    journalVersion = w.version();
                }
                return null;
            }
            // Our own earlier write may have landed although its call failed (a timeout):
            // then the journal still carries our incarnation and we simply carry on from it.
            Versioned current = store.get(SYSTEM_DOMAIN, JOURNAL_KEY);
            if (current != null && ByteBuffer.wrap(current.value()).getLong() == incarnation) {
                expected = current.version();
                continue;
            }
            LOG.error("journal claimed by another commit manager: this one stops");
            List<CompletableFuture<?>> orphans = closeState();
            TellException e = TellException.of(ErrorCode.CM_UNAVAILABLE, "another commit manager took over the journal");
            orphans.forEach(f -> f.completeExceptionally(e));
            return e;
        }
    }

    private void fence(List<Long> inDoubt) {
        List<Long> open = new ArrayList<>();
        synchronized (this) {
            for (long tid : inDoubt) {
                if (!state.isCompleted(tid)) {
                    open.add(tid);
                }
            }
        }
        int fenced = 0;
        byte[] entry = TxLog.encode(new TxLog.Entry(TxLog.State.FENCED, "commit-manager", System.currentTimeMillis(), List.of()));
        for (int from = 0; from < open.size() && !closed; from += FENCE_BATCH) {
            List<Long> batch = open.subList(from, Math.min(open.size(), from + FENCE_BATCH));
            List<WriteOp> ops = new ArrayList<>(batch.size());
            for (long tid : batch) {
                ops.add(new WriteOp(TxLog.recordKey(tid), entry, Expect.ABSENT));
            }
            try {
                List<WriteResult> results = store.writeAll(ops);
                for (int i = 0; i < batch.size(); i++) {
                    if (results.get(i).written()) {
                        complete(batch.get(i));
                        fenced++;
                    } else {
                        LOG.warn("tid {} is in doubt with a log entry: waiting for its node or for recovery", batch.get(i));
                    }
                }
            } catch (TellException e) {
                LOG.warn("fencing {} in-doubt tids failed: {}", batch.size(), e.toString());
            }
        }
        LOG.info("fenced {} of {} in-doubt tids", fenced, open.size());
    }

    /** For tests and monitoring: the current base, lav and number of running transactions. */
    public synchronized String describe() {
        return "base=" + state.base() + " lav=" + state.lav() + " running=" + state.runningCount();
    }

    @Override
    public TxStart start(boolean readOnly) {
        checkNotJournalThread();
        return CommitManager.super.start(readOnly);
    }

    @Override
    public void committed(long tid) {
        checkNotJournalThread();
        CommitManager.super.committed(tid);
    }

    @Override
    public void aborted(long tid) {
        checkNotJournalThread();
        CommitManager.super.aborted(tid);
    }

    /** Waiting on the journal thread for something only that thread can finish would hang. */
    private void checkNotJournalThread() {
        if (Thread.currentThread() == backgroundThread) {
            throw new IllegalStateException("blocking commit manager call on its journal thread would deadlock;"
                    + " use the async methods in callbacks");
        }
    }

    /** Stops accepting calls; reports already accepted are still journaled before this returns. */
    @Override
    public void close() {
        List<CompletableFuture<?>> orphans = closeState();
        TellException e = TellException.of(ErrorCode.CM_UNAVAILABLE, "commit manager closed");
        orphans.forEach(f -> f.completeExceptionally(e));
        background.shutdown();
        try {
            if (!background.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("journal thread did not finish within 10 s");
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            // Only left when the flush never ran (e.g. it was still queued at shutdown).
            pendingAcks.forEach(f -> f.completeExceptionally(e));
            pendingAcks.clear();
            pendingTids.clear();
        }
    }

    /** Marks this manager closed and returns the starts still waiting for tids. */
    private synchronized List<CompletableFuture<?>> closeState() {
        closed = true;
        return new ArrayList<>(tids.drainWaiting());
    }

    private static <T> CompletableFuture<T> unavailable(String message) {
        return CompletableFuture.failedFuture(TellException.of(ErrorCode.CM_UNAVAILABLE, message));
    }
}
