package io.tell.store;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * Wraps a store and counts its round trips: every SPI call is one (a batch is one, however
 * many keys it carries). Round trips are the main cost in this architecture, so benchmarks
 * and tests report them per operation. It also counts the bytes of keys and values sent and
 * of values received (not the backend's framing), for metrics.
 */
public final class CountingRecordStore extends ForwardingRecordStore {
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder increments = new LongAdder();
    private final LongAdder scans = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();

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

    /** Bytes of keys and values sent so far. */
    public long bytesSent() {
        return bytesSent.sum();
    }

    /** Bytes of values received so far (reads and scans). */
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    @Override
    public CompletableFuture<Versioned> getAsync(RecordKey key) {
        reads.increment();
        bytesSent.add(key.key().length);
        return delegate.getAsync(key).thenApply(v -> {
            if (v != null) {
                bytesReceived.add(v.value().length);
            }
            return v;
        });
    }

    @Override
    public CompletableFuture<List<Versioned>> getAllAsync(List<RecordKey> keys) {
        reads.increment();
        sent(keys);
        return delegate.getAllAsync(keys).thenApply(this::received);
    }

    /** One round trip where the backend follows the pointer itself, else two (one when there is nothing to follow). */
    @Override
    public CompletableFuture<List<Versioned>> getAllFollowingAsync(List<RecordKey> keys, String domain) {
        boolean oneCall = delegate.followsInOneCall();
        reads.increment();
        sent(keys);
        return delegate.getAllFollowingAsync(keys, domain).thenApply(values -> {
            Versioned pointer = values.get(0);
            if (!oneCall && pointer != null && pointer.value().length > 0) {
                reads.increment();
            }
            return received(values);
        });
    }

    private void sent(List<RecordKey> keys) {
        long sent = 0;
        for (RecordKey k : keys) {
            sent += k.key().length;
        }
        bytesSent.add(sent);
    }

    private List<Versioned> received(List<Versioned> values) {
        long received = 0;
        for (Versioned v : values) {
            received += v == null ? 0 : v.value().length;
        }
        bytesReceived.add(received);
        return values;
    }

    @Override
    public boolean followsInOneCall() {
        return delegate.followsInOneCall();
    }

    @Override
    public CompletableFuture<WriteResult> writeAsync(WriteOp op) {
        writes.increment();
        bytesSent.add(sizeOf(op));
        return delegate.writeAsync(op);
    }

    @Override
    public CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops) {
        writes.increment();
        long sent = 0;
        for (WriteOp op : ops) {
            sent += sizeOf(op);
        }
        bytesSent.add(sent);
        return delegate.writeAllAsync(ops);
    }

    private static long sizeOf(WriteOp op) {
        return op.key().key().length + (op.value() == null ? 0 : op.value().length);
    }

    @Override
    public CompletableFuture<Long> incrementAsync(RecordKey counter, long delta, long floor) {
        increments.increment();
        return delegate.incrementAsync(counter, delta, floor);
    }

    @Override
    public CompletableFuture<List<StoredRecord>> scanAsync(String domain, KeyRange range, int limit) {
        scans.increment();
        return delegate.scanAsync(domain, range, limit).thenApply(records -> {
            long received = 0;
            for (StoredRecord r : records) {
                received += r.key().length + r.value().length;
            }
            bytesReceived.add(received);
            return records;
        });
    }

    /** Counted as one scan: it walks the keyspace as a scan does. */
    @Override
    public CompletableFuture<Long> purgeAsync(Set<String> domains) {
        scans.increment();
        return delegate.purgeAsync(domains);
    }
}
