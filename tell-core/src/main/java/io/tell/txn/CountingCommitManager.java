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
    private final LongAdder validating = new LongAdder();

    /**
     * Calls so far: starts of read-write and of read-only transactions, commit reports, abort
     * reports, and SERIALIZABLE writers' validating reports.
     */
    public record Counts(long readWriteStarts, long readOnlyStarts, long commits, long aborts, long validating) {
        public long total() {
            return readWriteStarts + readOnlyStarts + commits + aborts + validating;
        }
    }

    public CountingCommitManager(CommitManager delegate) {
        this.delegate = delegate;
    }

    public long calls() {
        return counts().total();
    }

    public Counts counts() {
        return new Counts(readWriteStarts.sum(), readOnlyStarts.sum(), commits.sum(), aborts.sum(), validating.sum());
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

    @Override
    public CompletableFuture<Void> validatingAsync(long tid) {
        validating.increment();
        return delegate.validatingAsync(tid);
    }

    @Override
    public TxStart start(boolean readOnly, String owner) {
        (readOnly ? readOnlyStarts : readWriteStarts).increment();
        return delegate.start(readOnly, owner);
    }

    @Override
    public void validating(long tid) {
        validating.increment();
        delegate.validating(tid);
    }

    @Override
    public CompletableFuture<Void> reportAwaited(Outcome outcome, long tid, long version) {
        (outcome == Outcome.ABORTED ? aborts : commits).increment();
        return delegate.reportAwaited(outcome, tid, version);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
