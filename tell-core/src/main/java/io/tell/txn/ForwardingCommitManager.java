package io.tell.txn;

import java.util.concurrent.CompletableFuture;

/**
 * A commit manager that forwards every call to {@link #delegate()}; subclasses override what
 * they change (fail-over to another manager, fault injection in tests). Every start goes
 * through {@link #startAsync(boolean, String)}, so overriding that one covers both forms; the
 * waiting forms ({@link #start(boolean, String)}, {@link #validating}, {@link #reportAwaited}) are the
 * interface's, through the async ones, so an override of those covers them too.
 */
public abstract class ForwardingCommitManager implements CommitManager {
    /** The manager calls go to now (it may change between calls). */
    protected abstract CommitManager delegate();

    @Override
    public final CompletableFuture<TxStart> startAsync(boolean readOnly) {
        return startAsync(readOnly, null);
    }

    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
        return delegate().startAsync(readOnly, owner);
    }

    @Override
    public CompletableFuture<Void> committedAsync(long tid, long logVersion) {
        return delegate().committedAsync(tid, logVersion);
    }

    @Override
    public CompletableFuture<Void> decidedAsync(long tid, long entryVersion) {
        return delegate().decidedAsync(tid, entryVersion);
    }

    @Override
    public CompletableFuture<Void> abortedAsync(long tid) {
        return delegate().abortedAsync(tid);
    }

    @Override
    public CompletableFuture<Void> validatingAsync(long tid) {
        return delegate().validatingAsync(tid);
    }

    @Override
    public void close() {
        delegate().close();
    }
}
