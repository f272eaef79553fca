package io.tell.cm;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import io.tell.store.ForwardingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.StoredRecord;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A store whose calls fail with STORE_UNAVAILABLE while {@link #down} is set, and whose
 * writes wait for {@link #writeGate} while it is set.
 */
final class FlakyStore extends ForwardingRecordStore {
    volatile boolean down;
    /** Counter increments take effect but their answer is a failure (a timeout after the fact). */
    volatile boolean loseIncrementAnswers;
    volatile java.util.concurrent.CountDownLatch writeGate;

    FlakyStore(RecordStore delegate) {
        super(delegate);
    }

    private <T> CompletableFuture<T> gate(java.util.function.Supplier<CompletableFuture<T>> call) {
        return down
                ? CompletableFuture.failedFuture(TellException.of(ErrorCode.STORE_UNAVAILABLE, "store down (test)"))
                : call.get();
    }

    @Override
    public CompletableFuture<Versioned> getAsync(RecordKey key) {
        return gate(() -> delegate.getAsync(key));
    }

    @Override
    public CompletableFuture<List<Versioned>> getAllAsync(List<RecordKey> keys) {
        return gate(() -> delegate.getAllAsync(keys));
    }

    @Override
    public CompletableFuture<WriteResult> writeAsync(WriteOp op) {
        awaitWriteGate();
        return gate(() -> delegate.writeAsync(op));
    }

    private void awaitWriteGate() {
        java.util.concurrent.CountDownLatch latch = writeGate;
        if (latch != null) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops) {
        awaitWriteGate();
        return gate(() -> delegate.writeAllAsync(ops));
    }

    @Override
    public CompletableFuture<Long> incrementAsync(RecordKey counter, long delta, long floor) {
        if (loseIncrementAnswers) {
            delegate.incrementAsync(counter, delta, floor).join();
            return CompletableFuture.failedFuture(TellException.of(ErrorCode.STORE_TIMEOUT, "answer lost (test)"));
        }
        return gate(() -> delegate.incrementAsync(counter, delta, floor));
    }

    @Override
    public CompletableFuture<List<StoredRecord>> scanAsync(String domain, KeyRange range, int limit) {
        return gate(() -> delegate.scanAsync(domain, range, limit));
    }

    @Override
    public CompletableFuture<Long> purgeAsync(Set<String> domains) {
        return gate(() -> delegate.purgeAsync(domains));
    }

    @Override
    public String describe() {
        return "flaky(" + delegate.describe() + ")";
    }

}
