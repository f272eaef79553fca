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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A commit manager in this JVM. Tids come from a store counter in ranges, so they keep
 * increasing across restarts. State changes are serialised by this object's monitor (one
 * commit manager is one sequencer; the critical sections are a few field updates).
 *
 * <p>When {@linkplain Options#durable() durable}, completions are journaled in the store with
 * group commit before they are acknowledged (one conditional write covers every report that
 * arrived meanwhile; the condition fences a second commit manager writing the same journal).
 * A restarted durable commit manager reloads the journal; tids issued by its previous
 * incarnation that were not reported stay invisible ("in doubt") until their owner reports
 * them, and after {@link Options#inDoubtGrace()} any of them that has no transaction-log entry
 * is fenced by inserting one, so its owner can no longer write and it counts as aborted.
 * Without durability (the embedded store, which dies with this JVM) nothing is journaled.
 */
public final class LocalCommitManager implements CommitManager {
    public static final String SYSTEM_DOMAIN = "tell.sys";
    static final byte[] TID_COUNTER = "cm.tid".getBytes(StandardCharsets.UTF_8);
    static final byte[] JOURNAL_KEY = "cm.state".getBytes(StandardCharsets.UTF_8);
    private static final Logger LOG = LoggerFactory.getLogger(LocalCommitManager.class);

    /** Configuration: tids reserved per counter increment, durability, and the in-doubt grace. */
    public record Options(int tidRange, boolean durable, Duration inDoubtGrace) {
        public Options {
            if (tidRange < 1) {
                throw new IllegalArgumentException("tidRange must be positive");
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
    private final ScheduledExecutorService background;
    private long nextTid;
    private long lastReserved;
    private long nextReader = -1;
    private long journalVersion;
    private List<CompletableFuture<Void>> pendingAcks = new ArrayList<>();
    private boolean flushing;
    private volatile boolean closed;

    private LocalCommitManager(RecordStore store, Options options, CommitState state, long journalVersion) {
        this.store = store;
        this.options = options;
        this.state = state;
        this.journalVersion = journalVersion;
        this.nextTid = state.highestIssued() + 1;
        this.lastReserved = state.highestIssued();
        this.background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tell-cm-journal");
            t.setDaemon(true);
            return t;
        });
    }

    /** Opens a commit manager over {@code store}, reloading its journal when durable. */
    public static LocalCommitManager open(RecordStore store, Options options) {
        long issuedBefore = store.increment(SYSTEM_DOMAIN, TID_COUNTER, 0);
        CommitState state;
        long journalVersion = 0;
        Versioned journal = options.durable() ? store.get(SYSTEM_DOMAIN, JOURNAL_KEY) : null;
        if (journal != null) {
            CommitState saved = CommitState.fromBytes(journal.value());
            state = new CommitState(saved.base(), saved.doneAboveBase(), issuedBefore);
            journalVersion = journal.version();
        } else {
            // Nothing journaled: no tid of an earlier incarnation can still be running
            // (or it is an embedded store, which lives exactly as long as this manager).
            state = new CommitState(issuedBefore, new BitSet(), issuedBefore);
        }
        LocalCommitManager cm = new LocalCommitManager(store, options, state, journalVersion);
        List<Long> inDoubt = state.inDoubt();
        if (!inDoubt.isEmpty()) {
            LOG.warn("{} tids of an earlier commit manager are in doubt ({}..{}); fencing unreported ones in {}",
                    inDoubt.size(), inDoubt.get(0), inDoubt.get(inDoubt.size() - 1), options.inDoubtGrace());
            cm.background.schedule(() -> cm.fence(inDoubt), options.inDoubtGrace().toMillis(), TimeUnit.MILLISECONDS);
        }
        return cm;
    }

    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly) {
        if (closed) {
            return CompletableFuture.failedFuture(TellException.of(ErrorCode.CM_UNAVAILABLE, "commit manager closed"));
        }
        try {
            synchronized (this) {
                SnapshotDescriptor snapshot = state.snapshot();
                long id;
                if (readOnly) {
                    id = nextReader--;
                } else {
                    if (nextTid > lastReserved) {
                        reserveTids();
                    }
                    id = nextTid++;
                }
                state.begin(id, snapshot.base());
                return CompletableFuture.completedFuture(new TxStart(id, snapshot, state.lav()));
            }
        } catch (TellException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void reserveTids() {
        long end = store.increment(SYSTEM_DOMAIN, TID_COUNTER, options.tidRange());
        nextTid = Math.max(nextTid, end - options.tidRange() + 1);
        lastReserved = end;
    }

    @Override
    public CompletableFuture<Void> committedAsync(long tid) {
        return complete(tid);
    }

    @Override
    public CompletableFuture<Void> abortedAsync(long tid) {
        return complete(tid);
    }

    private CompletableFuture<Void> complete(long tid) {
        if (closed) {
            return CompletableFuture.failedFuture(TellException.of(ErrorCode.CM_UNAVAILABLE, "commit manager closed"));
        }
        synchronized (this) {
            if (!state.complete(tid)) {
                return CompletableFuture.failedFuture(TellException.of(ErrorCode.TX_STATE, "tid " + tid + " was never issued"));
            }
            if (!options.durable() || tid < 0) {
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<Void> ack = new CompletableFuture<>();
            pendingAcks.add(ack);
            if (!flushing) {
                flushing = true;
                background.execute(this::flush);
            }
            return ack;
        }
    }

    /** Group commit: one journal write acknowledges every report that arrived before it. */
    private void flush() {
        List<CompletableFuture<Void>> acks;
        byte[] bytes;
        long expected;
        synchronized (this) {
            acks = pendingAcks;
            pendingAcks = new ArrayList<>();
            bytes = state.toBytes();
            expected = journalVersion;
        }
        Throwable failure = null;
        try {
            WriteResult r = store.write(WriteOp.put(SYSTEM_DOMAIN, JOURNAL_KEY, bytes,
                    expected == 0 ? Expect.ABSENT : Expect.version(expected)));
            if (r instanceof WriteResult.Written w) {
                synchronized (this) {
                    journalVersion = w.version();
                }
            } else {
                failure = TellException.of(ErrorCode.CM_UNAVAILABLE,
                        "another commit manager wrote the journal; this one stops");
                LOG.error("journal fenced by another commit manager: closing");
                closed = true;
            }
        } catch (TellException e) {
            failure = e;
            LOG.warn("journal write failed, reports will be resent: {}", e.toString());
        }
        for (CompletableFuture<Void> ack : acks) {
            if (failure == null) {
                ack.complete(null);
            } else {
                ack.completeExceptionally(failure);
            }
        }
        synchronized (this) {
            if (pendingAcks.isEmpty() || closed) {
                flushing = false;
            } else {
                background.execute(this::flush);
            }
        }
    }

    private void fence(List<Long> inDoubt) {
        for (long tid : inDoubt) {
            synchronized (this) {
                if (state.isCompleted(tid)) {
                    continue;
                }
            }
            try {
                byte[] entry = TxLog.encode(new TxLog.Entry(TxLog.State.FENCED, "commit-manager", System.currentTimeMillis(), List.of()));
                RecordKey key = TxLog.recordKey(tid);
                if (store.write(new WriteOp(key, entry, Expect.ABSENT)).written()) {
                    complete(tid);
                } else {
                    LOG.warn("tid {} is in doubt with a log entry: waiting for its node or for recovery", tid);
                }
            } catch (TellException e) {
                LOG.warn("fencing tid {} failed: {}", tid, e.toString());
            }
        }
    }

    /** For tests and monitoring: the current base, lav and number of running transactions. */
    public synchronized String describe() {
        return "base=" + state.base() + " lav=" + state.lav() + " running=" + state.runningCount();
    }

    @Override
    public void close() {
        closed = true;
        background.shutdown();
    }
}
