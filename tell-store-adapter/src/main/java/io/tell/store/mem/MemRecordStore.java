package io.tell.store.mem;

import io.tell.store.Domains;
import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.StoredRecord;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-process record store. Each domain is a {@link ConcurrentSkipListMap} of immutable
 * cells; conditional writes are compare-and-swap loops on the map ({@code replace},
 * {@code putIfAbsent}, {@code remove} with the expected cell), so no thread ever holds a lock
 * and a stalled writer cannot block others. Versions come from one store-wide counter, which
 * makes them strictly increasing per key across deletes and re-inserts. Byte arrays are
 * copied on the way in and out, as a remote store would, so callers cannot alias stored data.
 */
public final class MemRecordStore implements RecordStore {
    private final String name;
    private final ConcurrentHashMap<String, ConcurrentSkipListMap<byte[], Cell>> domains = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<RecordKey, AtomicLong> counters = new ConcurrentHashMap<>();
    private final AtomicLong lastVersion = new AtomicLong();

    private record Cell(byte[] value, long version) {
    }

    public MemRecordStore(String name) {
        this.name = name;
    }

    @Override
    public CompletableFuture<Versioned> getAsync(RecordKey key) {
        return CompletableFuture.completedFuture(readNow(key));
    }

    @Override
    public CompletableFuture<List<Versioned>> getAllAsync(List<RecordKey> keys) {
        List<Versioned> out = new ArrayList<>(keys.size());
        for (RecordKey key : keys) {
            out.add(readNow(key));
        }
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public CompletableFuture<WriteResult> writeAsync(WriteOp op) {
        return CompletableFuture.completedFuture(writeNow(op));
    }

    @Override
    public CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops) {
        List<WriteResult> out = new ArrayList<>(ops.size());
        boolean intact = true;
        for (WriteOp op : ops) {
            WriteResult r = op.chained() && !intact ? conflictAsIs(op.key()) : writeNow(op);
            intact &= op.chained() || r.written();
            out.add(r);
        }
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public CompletableFuture<Long> incrementAsync(RecordKey counter, long delta, long floor) {
        AtomicLong c = counters.computeIfAbsent(counter, k -> new AtomicLong());
        return CompletableFuture.completedFuture(c.updateAndGet(v -> Math.max(v, floor) + delta));
    }

    @Override
    public CompletableFuture<List<StoredRecord>> scanAsync(String domain, KeyRange range, int limit) {
        NavigableMap<byte[], Cell> map = domain(domain);
        if (range.from() != null && range.to() != null && Arrays.compareUnsigned(range.from(), range.to()) >= 0) {
            return CompletableFuture.completedFuture(List.of());
        }
        NavigableMap<byte[], Cell> view = map;
        if (range.from() != null) {
            view = view.tailMap(range.from(), true);
        }
        if (range.to() != null) {
            view = view.headMap(range.to(), false);
        }
        List<StoredRecord> out = new ArrayList<>();
        for (Map.Entry<byte[], Cell> e : view.entrySet()) {
            if (out.size() >= limit) {
                break;
            }
            Cell c = e.getValue();
            out.add(new StoredRecord(e.getKey().clone(), c.value.clone(), c.version));
        }
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public CompletableFuture<Long> purgeAsync(Set<String> purged) {
        long deleted = 0;
        for (String domain : purged) {
            Domains.check(domain);
            ConcurrentSkipListMap<byte[], Cell> map = domains.remove(domain);
            deleted += map == null ? 0 : map.size();
        }
        counters.keySet().removeIf(k -> purged.contains(k.domain()));
        return CompletableFuture.completedFuture(deleted);
    }

    /** Batches run on the calling thread, element after element. */
    @Override
    public boolean ordersBatches() {
        return true;
    }

    @Override
    public String describe() {
        return name.isEmpty() ? "mem:" : "mem:" + name;
    }

    @Override
    public void close() {
        // Nothing to release; a named store keeps its data for the life of the JVM.
    }

    private Versioned readNow(RecordKey key) {
        Cell c = domain(key.domain()).get(key.key());
        return c == null ? null : new Versioned(c.value.clone(), c.version);
    }

    /** A chained write whose chain broke: nothing written, the record's version as it is. */
    private WriteResult conflictAsIs(RecordKey key) {
        Versioned current = readNow(key);
        return new WriteResult.Conflict(current == null ? 0 : current.version());
    }

    private WriteResult writeNow(WriteOp op) {
        ConcurrentSkipListMap<byte[], Cell> map = domain(op.key().domain());
        byte[] key = op.key().key();
        if (op.isCheck()) {
            Cell current = map.get(key);
            long currentVersion = current == null ? 0 : current.version;
            return op.expect().admits(currentVersion) ? new WriteResult.Written(currentVersion) : new WriteResult.Conflict(currentVersion);
        }
        byte[] value = op.isDelete() ? null : op.value().clone();
        while (true) {
            Cell current = map.get(key);
            long currentVersion = current == null ? 0 : current.version;
            if (!op.expect().admits(currentVersion)) {
                return new WriteResult.Conflict(currentVersion);
            }
            long version = lastVersion.incrementAndGet();
            boolean swapped;
            if (value == null) {
                swapped = current == null || map.remove(key, current);
            } else if (current == null) {
                swapped = map.putIfAbsent(key.clone(), new Cell(value, version)) == null;
            } else {
                swapped = map.replace(key, current, new Cell(value, version));
            }
            if (swapped) {
                return new WriteResult.Written(version);
            }
            // Another writer got in between our read and our swap: decide again on its result.
        }
    }

    private ConcurrentSkipListMap<byte[], Cell> domain(String domain) {
        ConcurrentSkipListMap<byte[], Cell> map = domains.get(domain);
        if (map != null) {
            return map;
        }
        Domains.check(domain);
        return domains.computeIfAbsent(domain, d -> new ConcurrentSkipListMap<>(Arrays::compareUnsigned));
    }
}
