package io.tell.store.mem;

import io.tell.store.Domains;
import io.tell.store.HashedKey;
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
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-process record store. Each domain is a {@link ConcurrentHashMap} of immutable cells,
 * which serves every read and write, beside a {@link ConcurrentSkipListSet} of its keys in
 * unsigned order, built at the domain's first scan, which only scans use and only inserts and
 * deletes change. Conditional writes
 * are compare-and-swap loops on the map ({@code replace}, {@code putIfAbsent}, {@code remove}
 * with the expected cell), so no thread ever holds a lock and a stalled writer cannot block
 * others. Versions come from one store-wide counter, which makes them strictly increasing per
 * key across deletes and re-inserts. Byte arrays are copied on the way in and out, as a remote
 * store would, so callers cannot alias stored data.
 */
public final class MemRecordStore implements RecordStore {
    private final String name;
    private final ConcurrentHashMap<String, Domain> domains = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<RecordKey, AtomicLong> counters = new ConcurrentHashMap<>();
    private final AtomicLong lastVersion = new AtomicLong();

    private record Cell(byte[] value, long version) {
    }

    /**
     * One domain's records, and once a scan needed them their keys in order. The key set follows
     * the map: an insert adds its key to the set after the map, a delete removes it from the set
     * after the map and puts it back if meanwhile another insert made the key present again. The
     * set is published before it is filled from the map, so an insert either finds it and adds
     * itself or was already in the map the filling walks: a key the map holds once its write
     * returned is always in the set. The set may briefly hold a key the map no longer has; scans
     * skip it. Domains nobody scans (most, in a running database) pay nothing for order.
     */
    private static final class Domain {
        final ConcurrentHashMap<HashedKey, Cell> cells = new ConcurrentHashMap<>();
        private volatile ConcurrentSkipListSet<byte[]> keys;

        Cell get(byte[] key) {
            return cells.get(new HashedKey(key));
        }

        NavigableSet<byte[]> keys() {
            ConcurrentSkipListSet<byte[]> k = keys;
            if (k == null) {
                synchronized (this) {
                    k = keys;
                    if (k == null) {
                        k = new ConcurrentSkipListSet<>(Arrays::compareUnsigned);
                        keys = k;
                        for (HashedKey key : cells.keySet()) {
                            k.add(key.bytes());
                        }
                    }
                }
            }
            return k;
        }

        void inserted(HashedKey key) {
            ConcurrentSkipListSet<byte[]> k = keys;
            if (k != null) {
                k.add(key.bytes());
            }
        }

        void deleted(HashedKey key) {
            ConcurrentSkipListSet<byte[]> k = keys;
            if (k != null) {
                k.remove(key.bytes());
                if (cells.get(key) != null) {
                    k.add(key.bytes());
                }
            }
        }
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
    public CompletableFuture<List<Versioned>> getAllFollowingAsync(List<RecordKey> keys, String domain) {
        List<Versioned> out = new ArrayList<>(keys.size() + 1);
        for (RecordKey key : keys) {
            out.add(readNow(key));
        }
        Versioned pointer = out.get(0);
        out.add(pointer == null || pointer.value().length == 0 ? null : readNow(new RecordKey(domain, pointer.value())));
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public boolean followsInOneCall() {
        return true;
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
        Domain d = domain(domain);
        if (range.from() != null && range.to() != null && Arrays.compareUnsigned(range.from(), range.to()) >= 0) {
            return CompletableFuture.completedFuture(List.of());
        }
        NavigableSet<byte[]> view = d.keys();
        if (range.from() != null) {
            view = view.tailSet(range.from(), true);
        }
        if (range.to() != null) {
            view = view.headSet(range.to(), false);
        }
        List<StoredRecord> out = new ArrayList<>();
        for (byte[] key : view) {
            if (out.size() >= limit) {
                break;
            }
            Cell c = d.get(key);
            if (c != null) {
                out.add(new StoredRecord(key.clone(), c.value.clone(), c.version));
            }
        }
        return CompletableFuture.completedFuture(out);
    }

    @Override
    public CompletableFuture<Long> purgeAsync(Set<String> purged) {
        long deleted = 0;
        for (String domain : purged) {
            Domains.check(domain);
            Domain d = domains.remove(domain);
            deleted += d == null ? 0 : d.cells.size();
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
        Domain d = domain(op.key().domain());
        HashedKey key = new HashedKey(op.key().key());
        Map<HashedKey, Cell> map = d.cells;
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
                if (swapped && current != null) {
                    d.deleted(key);
                }
            } else if (current == null) {
                HashedKey copy = new HashedKey(key.bytes().clone());
                swapped = map.putIfAbsent(copy, new Cell(value, version)) == null;
                if (swapped) {
                    d.inserted(copy);
                }
            } else {
                swapped = map.replace(key, current, new Cell(value, version));
            }
            if (swapped) {
                return new WriteResult.Written(version);
            }
            // Another writer got in between our read and our swap: decide again on its result.
        }
    }

    private Domain domain(String domain) {
        Domain d = domains.get(domain);
        if (d != null) {
            return d;
        }
        Domains.check(domain);
        return domains.computeIfAbsent(domain, name -> new Domain());
    }
}
