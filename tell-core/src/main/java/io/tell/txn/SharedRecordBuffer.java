package io.tell.txn;

import io.tell.error.TellException;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The record buffer a node's transactions share ({@link Buffering#SHARED} and
 * {@link Buffering#SYNCED}; paper §5.4.2–5.4.3). Each entry keeps a record as read from the
 * store with a snapshot {@code C} it is good for: every tid {@code C} sees had completed, all its
 * writes applied, before the read was sent, so the copy holds every version those tids wrote. A
 * reader whose snapshot {@code V} is a subset of {@code C} sees through the copy exactly what it
 * would see in the store (versions of tids outside {@code V} are invisible to it either way).
 *
 * <p>With version sets, an entry that fails that test is still good for {@code V} when its unit's
 * version set has not moved since the entry was read and the copy holds no version of a tid
 * outside {@code C}: every tid {@code V} sees bumped the units it wrote before it completed, so an
 * unchanged unit means none of them wrote the record after the copy was taken. (A version of a tid
 * in flight at the read could have been reverted since without a bump: such copies are re-read.)
 *
 * <p>The buffer never needs invalidating for correctness; a node drops what its own commits wrote
 * only so that the next reader does not fetch twice. Size is bounded by dropping arbitrary
 * entries once it is exceeded.
 */
final class SharedRecordBuffer {
    /** What one read gives a transaction: the record as stored, and whether it came from the buffer. */
    record Read(Versioned stored, boolean buffered) {
    }

    private record Cached(Versioned stored, SnapshotDescriptor goodFor, long unitVersion, boolean settled) {
    }

    private final RecordStore store;
    private final VersionSets sets;
    private final int capacity;
    private final Map<RecordKey, Cached> entries = new ConcurrentHashMap<>();
    /** The newest snapshot this node has been handed: every tid it sees had completed before any read sent now. */
    private volatile SnapshotDescriptor newest = SnapshotDescriptor.ofBase(0);
    private final LongAdder hits = new LongAdder();
    private final LongAdder unitHits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    /** {@code sets} null: {@link Buffering#SHARED}; otherwise {@link Buffering#SYNCED}. */
    SharedRecordBuffer(RecordStore store, VersionSets sets, int capacity) {
        this.store = store;
        this.sets = sets;
        this.capacity = capacity;
    }

    /** A transaction of this node began with {@code snapshot}. */
    void started(SnapshotDescriptor snapshot) {
        SnapshotDescriptor n = newest;
        if (snapshot.highestVisible() > n.highestVisible() || snapshot.base() > n.base()) {
            newest = snapshot;
        }
    }

    /** The records of {@code keys} for a reader at {@code v}: from the buffer where good, else from the store (at most two round trips). */
    List<Read> read(List<RecordKey> keys, SnapshotDescriptor v) {
        Read[] out = new Read[keys.size()];
        List<Integer> stale = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            Cached c = entries.get(keys.get(i));
            if (c != null && v.isSubsetOf(c.goodFor)) {
                out[i] = new Read(c.stored, true);
                hits.increment();
            } else {
                stale.add(i);
            }
        }
        if (stale.isEmpty()) {
            return List.of(out);
        }
        Map<RecordKey, Long> units = sets == null ? Map.of() : unitVersions(keys, stale);
        List<RecordKey> fetch = new ArrayList<>();
        List<Integer> fetchAt = new ArrayList<>();
        for (int i : stale) {
            RecordKey k = keys.get(i);
            Cached c = entries.get(k);
            Long unitVersion = units.get(k);
            if (c != null && c.settled && unitVersion != null && unitVersion == c.unitVersion) {
                entries.put(k, new Cached(c.stored, v, c.unitVersion, true));
                out[i] = new Read(c.stored, true);
                unitHits.increment();
            } else {
                fetch.add(k);
                fetchAt.add(i);
            }
        }
        if (!fetch.isEmpty()) {
            SnapshotDescriptor goodFor = newest; // taken before the read is sent
            List<Versioned> got = TellException.join(store.getAllAsync(fetch));
            for (int j = 0; j < fetch.size(); j++) {
                Versioned stored = got.get(j);
                Long unitVersion = units.get(fetch.get(j));
                remember(fetch.get(j), new Cached(stored, goodFor, unitVersion == null ? -1 : unitVersion, settled(stored, goodFor)));
                out[fetchAt.get(j)] = new Read(stored, false);
                misses.increment();
            }
        }
        return List.of(out);
    }

    /** Drops the entries of {@code keys} (this node wrote them, or tried to). */
    void forget(Iterable<RecordKey> keys) {
        for (RecordKey k : keys) {
            entries.remove(k);
        }
    }

    /** Reads served from the buffer by the snapshot test, by an unchanged version set, and from the store. */
    long[] counts() {
        return new long[] {hits.sum(), unitHits.sum(), misses.sum()};
    }

    /** The current versions of the units of the keys at {@code positions} (absent: 0), by record key. */
    private Map<RecordKey, Long> unitVersions(List<RecordKey> keys, List<Integer> positions) {
        Map<RecordKey, RecordKey> unitOf = new HashMap<>();
        for (int i : positions) {
            unitOf.put(keys.get(i), sets.unitOf(keys.get(i)));
        }
        List<RecordKey> units = new ArrayList<>(new java.util.LinkedHashSet<>(unitOf.values()));
        List<Versioned> got = TellException.join(store.getAllAsync(units));
        Map<RecordKey, Long> versionOfUnit = new HashMap<>();
        for (int u = 0; u < units.size(); u++) {
            versionOfUnit.put(units.get(u), got.get(u) == null ? 0L : got.get(u).version());
        }
        Map<RecordKey, Long> out = new HashMap<>();
        unitOf.forEach((k, unit) -> out.put(k, versionOfUnit.get(unit)));
        return out;
    }

    /** True when every version of the record is by a tid {@code goodFor} sees (none was in flight at the read). */
    private static boolean settled(Versioned stored, SnapshotDescriptor goodFor) {
        if (stored == null) {
            return true;
        }
        for (RowVersion version : MvccRecord.decode(stored.value()).versions()) {
            if (!goodFor.isVisible(version.tid())) {
                return false;
            }
        }
        return true;
    }

    private void remember(RecordKey key, Cached cached) {
        if (entries.size() >= capacity) {
            // Bounded, not LRU: dropping any tenth keeps the cost per read constant.
            Iterator<RecordKey> it = entries.keySet().iterator();
            for (int n = capacity / 10 + 1; n > 0 && it.hasNext(); n--) {
                it.next();
                it.remove();
            }
        }
        entries.put(key, cached);
    }
}
