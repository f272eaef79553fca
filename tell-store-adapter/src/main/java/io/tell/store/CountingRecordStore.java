package io.tell.store;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * Wraps a store and counts its round trips: every SPI call is one (a batch is one, however
 * many keys it carries). Round trips are the main cost in this architecture, so benchmarks
 * and tests report them per operation.
 */
public final class CountingRecordStore extends ForwardingRecordStore {
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder increments = new LongAdder();
    private final LongAdder scans = new LongAdder();

    public CountingRecordStore(RecordStore delegate) {
        super(delegate);
    }

    /** A snapshot of the counts. */
    public record Counts(long reads, long writes, long increments, long scans) {
        public long total() {
            return reads + writes + increments + scans;
        }

        public Counts minus(Counts earlier) {
            return new Counts(reads - earlier.reads, writes - earlier.writes,
                    increments - earlier.increments, scans - earlier.scans);
        }
    }

    public Counts counts() {
        return new Counts(reads.sum(), writes.sum(), increments.sum(), scans.sum());
    }

    @Override
    public CompletableFuture<Versioned> getAsync(RecordKey key) {
        reads.increment();
        return delegate.getAsync(key);
    }

    @Override
    public CompletableFuture<List<Versioned>> getAllAsync(List<RecordKey> keys) {
        reads.increment();
        return delegate.getAllAsync(keys);
    }

    @Override
    public CompletableFuture<WriteResult> writeAsync(WriteOp op) {
        writes.increment();
        return delegate.writeAsync(op);
    }

    @Override
    public CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops) {
        writes.increment();
        return delegate.writeAllAsync(ops);
    }

    @Override
    public CompletableFuture<Long> incrementAsync(RecordKey counter, long delta, long floor) {
        increments.increment();
        return delegate.incrementAsync(counter, delta, floor);
    }

    @Override
    public CompletableFuture<List<StoredRecord>> scanAsync(String domain, KeyRange range, int limit) {
        scans.increment();
        return delegate.scanAsync(domain, range, limit);
    }


}
