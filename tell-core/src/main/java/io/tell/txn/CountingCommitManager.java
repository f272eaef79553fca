package io.tell.txn;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/** Wraps a commit manager and counts its calls by kind: one round trip each when it is remote. */
public final class CountingCommitManager implements CommitManager {
    private final CommitManager delegate;
    private final LongAdder readWriteStarts = new LongAdder();
    private final LongAdder readOnlyStarts = new LongAdder();
    private final LongAdder commits = new LongAdder();
    private final LongAdder aborts = new LongAdder();

    /** Calls so far: starts of read-write and of read-only transactions, commit reports, abort reports. */
    public record Counts(long readWriteStarts, long readOnlyStarts, long commits, long aborts) {
        public long total() {
            return readWriteStarts + readOnlyStarts + commits + aborts;
        }
    }

    public CountingCommitManager(CommitManager delegate) {
        this.delegate = delegate;
    }

    public long calls() {
        return counts().total();
    }

    public Counts counts() {
        return new Counts(readWriteStarts.sum(), readOnlyStarts.sum(), commits.sum(), aborts.sum());
    }

    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly) {
        (readOnly ? readOnlyStarts : readWriteStarts).increment();
        return delegate.startAsync(readOnly);
    }

    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
        (readOnly ? readOnlyStarts : readWriteStarts).increment();
        return delegate.startAsync(readOnly, owner);
    }

    @Override
    public CompletableFuture<Void> committedAsync(long tid, long logVersion) {
        commits.increment();
        return delegate.committedAsync(tid, logVersion);
    }

    @Override
    public CompletableFuture<Void> decidedAsync(long tid, long entryVersion) {
        commits.increment();
        return delegate.decidedAsync(tid, entryVersion);
    }

    @Override
    public CompletableFuture<Void> abortedAsync(long tid) {
        aborts.increment();
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
