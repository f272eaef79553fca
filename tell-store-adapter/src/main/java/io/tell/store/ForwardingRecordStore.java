package io.tell.store;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A store that passes every call to another one; decorators (counting, fault injection)
 * extend it and override only the calls they change.
 */
public abstract class ForwardingRecordStore implements RecordStore {
    protected final RecordStore delegate;

    protected ForwardingRecordStore(RecordStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public CompletableFuture<Versioned> getAsync(RecordKey key) {
        return delegate.getAsync(key);
    }

    @Override
    public CompletableFuture<List<Versioned>> getAllAsync(List<RecordKey> keys) {
        return delegate.getAllAsync(keys);
    }

    @Override
    public CompletableFuture<WriteResult> writeAsync(WriteOp op) {
        return delegate.writeAsync(op);
    }

    @Override
    public CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops) {
        return delegate.writeAllAsync(ops);
    }

    @Override
    public CompletableFuture<Long> incrementAsync(RecordKey counter, long delta, long floor) {
        return delegate.incrementAsync(counter, delta, floor);
    }

    @Override
    public CompletableFuture<Long> purgeAsync(Set<String> domains) {
        return delegate.purgeAsync(domains);
    }

    @Override
    public CompletableFuture<List<StoredRecord>> scanAsync(String domain, KeyRange range, int limit) {
        return delegate.scanAsync(domain, range, limit);
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    @Override
    public boolean ordersBatches() {
        return delegate.ordersBatches();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
