package io.tell.txn;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/** Wraps a commit manager and counts its calls: one round trip each when it is remote. */
public final class CountingCommitManager implements CommitManager {
    private final CommitManager delegate;
    private final LongAdder calls = new LongAdder();

    public CountingCommitManager(CommitManager delegate) {
        this.delegate = delegate;
    }

    public long calls() {
        return calls.sum();
    }

    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly) {
        calls.increment();
        return delegate.startAsync(readOnly);
    }

    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
        calls.increment();
        return delegate.startAsync(readOnly, owner);
    }

    @Override
    public CompletableFuture<Void> committedAsync(long tid, long logVersion) {
        calls.increment();
        return delegate.committedAsync(tid, logVersion);
    }

    @Override
    public CompletableFuture<Void> abortedAsync(long tid) {
        calls.increment();
        return delegate.abortedAsync(tid);
    }

    /** Not counted: no round trip (a remote manager ignores it). */
    @Override
    public void validating(long tid) {
        delegate.validating(tid);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
