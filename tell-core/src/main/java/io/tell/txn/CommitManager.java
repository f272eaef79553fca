package io.tell.txn;

import io.tell.error.TellException;
import java.util.concurrent.CompletableFuture;

/**
 * Hands out tids and snapshots and learns which transactions completed.
 *
 * <p>Invariant the callers keep: a tid is reported completed only when no version written by
 * it can be seen wrongly — an aborting transaction reverts every record it wrote first, then
 * reports {@link #abortedAsync}. Once {@link #committedAsync} completes, the commit is durable
 * at the commit manager: every later snapshot (from any commit manager client) sees it.
 * Reports are idempotent, so a client may resend one after a lost connection. Failures to
 * reach the commit manager complete futures with a retriable {@link TellException}
 * ({@code CM_UNAVAILABLE}).
 */
public interface CommitManager extends AutoCloseable {
    /** What a report says of a transaction's end: committed (to decide), decided by its node, or aborted. */
    enum Outcome {
        COMMITTED, DECIDED, ABORTED;

        /** Reports {@code tid} so to {@code cm}; {@code version}: its log entry's (0 for none; unused for ABORTED). */
        public CompletableFuture<Void> sendTo(CommitManager cm, long tid, long version) {
            return switch (this) {
                case COMMITTED -> cm.committedAsync(tid, version);
                case DECIDED -> cm.decidedAsync(tid, version);
                case ABORTED -> cm.abortedAsync(tid);
            };
        }

        /**
         * How to end {@code tid}, started but never used (its starter never learnt it): a reader
         * (negative id) as readers end, a writer, which wrote nothing, aborted.
         */
        public static Outcome unused(long tid) {
            return tid < 0 ? COMMITTED : ABORTED;
        }
    }


    /** Starts a transaction; read-only ones get a negative id and still hold {@code lav} back. */
    CompletableFuture<TxStart> startAsync(boolean readOnly);

    /**
     * Starts a transaction of the processing node holding lease {@code owner} ({@link NodeLease#id()};
     * null for none). A commit manager that keeps the owner settles the transaction itself once
     * that lease is gone (its node died or lost it) — also one that never wrote a log entry,
     * which the lease's recovery cannot find — so that no dead node's tid stays open for good.
     */
    default CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
        return startAsync(readOnly);
    }

    /**
     * Reports a commit (or the end of a transaction that wrote nothing). {@code logVersion} is
     * the version of the tid's transaction-log entry ({@link TxLog}), or 0 when it has none.
     * With an entry, the commit is decided by moving the entry from {@code WRITING} to
     * {@code COMMITTED} on that version; when recovery has fenced it first, the report fails
     * with {@link io.tell.error.ErrorCode#TX_FENCED} and the tid counts as aborted. The commit
     * manager removes the entry once the commit is journaled.
     */
    CompletableFuture<Void> committedAsync(long tid, long logVersion);

    /**
     * Reports a commit its node decided itself: in the batch that ended its writes, chained to
     * them, it moved its log entry from {@code WRITING} to {@code COMMITTED}, which now has
     * version {@code entryVersion}. Nothing is left to decide, so the manager makes it visible
     * without a store call, and removes the entry once its completion is durable elsewhere.
     */
    CompletableFuture<Void> decidedAsync(long tid, long entryVersion);

    /** Reports a commit of a transaction that has no log entry (it wrote nothing). */
    default CompletableFuture<Void> committedAsync(long tid) {
        return committedAsync(tid, 0);
    }

    /** Reports an abort, after every version the transaction wrote has been reverted. */
    CompletableFuture<Void> abortedAsync(long tid);

    /**
     * Tells the commit manager that SERIALIZABLE read-write transaction {@code tid}, which it
     * started, has its versions in the store and is about to validate its reads: snapshots it hands
     * out once some transaction has completed since count {@code tid} among
     * {@link TxStart.Writers#validating} (a snapshot taken before any did sees no writer that
     * {@code tid} could precede).
     * Called only for tids the start said the manager {@link TxStart.Writers#hears hears}; the
     * transaction's validation reads wait for the answer. Fails (and the transaction must abort)
     * when the manager no longer runs {@code tid}: its readers could not be told. One that wraps
     * another must forward it (hence no default).
     */
    CompletableFuture<Void> validatingAsync(long tid);

    @Override
    void close();

    default TxStart start(boolean readOnly) {
        return start(readOnly, null);
    }

    /**
     * {@link #startAsync(boolean, String)}, waiting for the answer: a remote manager may then call on
     * the caller's thread. When waiting fails the start may still succeed later, handing out an id
     * nobody holds: it is then ended at once, so it cannot hold the base back.
     */
    default TxStart start(boolean readOnly, String owner) {
        CompletableFuture<TxStart> started = startAsync(readOnly, owner);
        try {
            return TellException.join(started);
        } catch (RuntimeException e) {
            started.thenAccept(orphan -> Outcome.unused(orphan.tid()).sendTo(this, orphan.tid(), 0));
            throw e;
        }
    }

    /** {@link #validatingAsync}, waiting for the answer. */
    default void validating(long tid) {
        TellException.join(validatingAsync(tid));
    }

    /**
     * Reports {@code tid} as {@code outcome} ({@link Outcome#sendTo}) for a caller that waits for
     * the acknowledgement at once: a remote manager may make the call on the calling thread and
     * return a completed future. One attempt (the caller resends); the future may complete on an
     * I/O thread, so what depends on it must not block.
     */
    default CompletableFuture<Void> reportAwaited(Outcome outcome, long tid, long version) {
        return outcome.sendTo(this, tid, version);
    }

    default void committed(long tid) {
        TellException.join(committedAsync(tid, 0));
    }

    default void aborted(long tid) {
        TellException.join(abortedAsync(tid));
    }
}
