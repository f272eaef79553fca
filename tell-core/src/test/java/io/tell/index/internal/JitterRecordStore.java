package io.tell.index.internal;

import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import io.tell.store.ForwardingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.StoredRecord;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Delays store calls a little at random, as a network would, so that concurrent clients
 * interleave between their reads and their conditional writes far more often than the
 * in-process store alone lets them.
 */
final class JitterRecordStore extends ForwardingRecordStore {

    JitterRecordStore(RecordStore delegate) {
        super(delegate);
    }

    private static void jitter() {
        int r = ThreadLocalRandom.current().nextInt(16);
        if (r < 4) {
            Thread.yield();
        } else if (r == 4) {
            LockSupport.parkNanos(20_000);
        }
    }

    @Override
    public CompletableFuture<Versioned> getAsync(RecordKey key) {
        jitter();
        return delegate.getAsync(key);
    }

    @Override
    public CompletableFuture<List<Versioned>> getAllAsync(List<RecordKey> keys) {
        jitter();
        return delegate.getAllAsync(keys);
    }

    @Override
    public CompletableFuture<WriteResult> writeAsync(WriteOp op) {
        jitter();
        return delegate.writeAsync(op);
    }

    @Override
    public CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops) {
        jitter();
        return delegate.writeAllAsync(ops);
    }

    @Override
    public CompletableFuture<Long> incrementAsync(RecordKey counter, long delta, long floor) {
        jitter();
        return delegate.incrementAsync(counter, delta, floor);
    }


    @Override
    public String describe() {
        return "jitter:" + delegate.describe();
    }

}
