package io.tell.txn;

import io.tell.error.TellException;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * <p>With version sets, an entry also keeps the version of its unit's set read before the copy
 * was taken. An entry that fails the snapshot test is still good for {@code V} when the unit's
 * set, read by the transaction after it got {@code V}, still has that version and the copy holds
 * no version of a tid outside {@code C}: every tid {@code V} sees bumped the units it wrote after
 * writing and before it completed, so an unchanged set means none of them wrote the record after
 * the copy was taken. (A version of a tid in flight at the read could have been reverted since
 * without a bump: such copies are re-read.) A transaction reads each unit's set at most once
 * ({@link TxUnits}): one read serves every later read of the unit in the transaction. Sets ride
 * in the batches that fetch records, with, on a transaction's first fetch, the sets of the units
 * whose copies recently proved good ({@link #stableUnits}); a set is read on its own before the
 * records only when every record asked for has a copy in a unit whose copies have not lately
 * proved stale.
 *
 * <p>The buffer never needs invalidating for correctness; a node drops what its own commits wrote
 * only so that the next reader does not fetch twice. Size is bounded by dropping arbitrary
 * entries once it is exceeded.
 */
final class SharedRecordBuffer {
    /** What one read gives a transaction: the record as stored, and whether it came from the buffer. */
    record Read(Versioned stored, boolean buffered) {
    }

    /** A copy, the snapshot it is good for, its unit's set version read before it (-1: unknown), and whether it is settled. */
    private record Cached(Versioned stored, SnapshotDescriptor goodFor, long unitVersion, boolean settled) {
    }

    /** The version sets one transaction has read since it got its snapshot, by unit. */
    static final class TxUnits {
        private final Map<RecordKey, Long> versions = new HashMap<>();
        private boolean prefetched;
    }

    /** Stable units read along with a transaction's first fetch, at most. */
    static final int PREFETCHED_UNITS = 32;
    /** Units whose record of copies proving good or stale is kept, at most. */
    private static final int TRACKED_UNITS = 4096;

    private final RecordStore store;
    private final VersionSets sets;
    private final int capacity;
    private final Map<RecordKey, Cached> entries = new ConcurrentHashMap<>();
    /**
     * Per unit, how its copies fared when its set was read: up by one for each copy found good,
     * down by four for each found stale. A unit above zero is stable: worth reading ahead.
     */
    private final Map<RecordKey, Integer> unitScores = new ConcurrentHashMap<>();
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

    /**
     * The records of {@code keys} for a reader at {@code v} whose version sets so far are
     * {@code units}: from the buffer where good, else from the store (one round trip; two when a
     * set is worth reading first).
     */
    List<Read> read(List<RecordKey> keys, SnapshotDescriptor v, TxUnits units) {
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
        if (sets != null) {
            stale = serveByUnits(keys, stale, v, units, out);
            if (!stale.isEmpty() && worthReadingUnitsFirst(keys, stale, units)) {
                readUnits(unknownUnits(keys, stale, units), units);
                stale = serveByUnits(keys, stale, v, units, out);
            }
        }
        if (!stale.isEmpty()) {
            fetch(keys, stale, units, out);
        }
        return List.of(out);
    }

    /** Serves the keys at {@code positions} whose copies the transaction's sets vouch for; returns the others. */
    private List<Integer> serveByUnits(List<RecordKey> keys, List<Integer> positions, SnapshotDescriptor v, TxUnits units,
                                       Read[] out) {
        List<Integer> left = new ArrayList<>();
        for (int i : positions) {
            RecordKey k = keys.get(i);
            Cached c = entries.get(k);
            RecordKey unit = sets.unitOf(k);
            Long version = units.versions.get(unit);
            if (c == null || !c.settled || c.unitVersion < 0 || version == null) {
                left.add(i);
            } else if (version == c.unitVersion) {
                entries.put(k, new Cached(c.stored, v, c.unitVersion, true));
                out[i] = new Read(c.stored, true);
                unitHits.increment();
                score(unit, true);
            } else {
                score(unit, false);
                left.add(i);
            }
        }
        return left;
    }

    /**
     * True when every key left has a settled copy in a unit the transaction has not read yet and
     * whose copies have not lately proved stale (a unit not yet judged is tried).
     */
    private boolean worthReadingUnitsFirst(List<RecordKey> keys, List<Integer> positions, TxUnits units) {
        for (int i : positions) {
            Cached c = entries.get(keys.get(i));
            RecordKey unit = sets.unitOf(keys.get(i));
            if (c == null || !c.settled || c.unitVersion < 0 || units.versions.containsKey(unit)
                    || unitScores.getOrDefault(unit, 0) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The distinct units of the keys at {@code positions} whose sets the transaction has not read. */
    private List<RecordKey> unknownUnits(List<RecordKey> keys, List<Integer> positions, TxUnits units) {
        Set<RecordKey> out = new LinkedHashSet<>();
        for (int i : positions) {
            RecordKey unit = sets.unitOf(keys.get(i));
            if (!units.versions.containsKey(unit)) {
                out.add(unit);
            }
        }
        return new ArrayList<>(out);
    }

    private void readUnits(List<RecordKey> unitKeys, TxUnits units) {
        List<Versioned> got = TellException.join(store.getAllAsync(unitKeys));
        for (int u = 0; u < unitKeys.size(); u++) {
            units.versions.put(unitKeys.get(u), got.get(u) == null ? 0L : got.get(u).version());
        }
    }

    /**
     * Fetches the records at {@code positions} in one batch, with the sets the transaction has
     * not read of their units (and, on its first fetch, of the node's stable units). A copy's
     * unit version is one read before it: by an earlier batch of the transaction, or earlier in
     * this batch when the store runs a batch in order (sets are put first).
     */
    private void fetch(List<RecordKey> keys, List<Integer> positions, TxUnits units, Read[] out) {
        List<RecordKey> records = new ArrayList<>(positions.size());
        for (int i : positions) {
            records.add(keys.get(i));
        }
        List<RecordKey> unitKeys = List.of();
        if (sets != null) {
            unitKeys = unknownUnits(keys, positions, units);
            if (!units.prefetched) {
                units.prefetched = true;
                for (RecordKey unit : stableUnits()) {
                    if (!units.versions.containsKey(unit) && !unitKeys.contains(unit)) {
                        unitKeys.add(unit);
                    }
                }
            }
        }
        boolean inOrder = store.ordersBatches();
        List<RecordKey> batch = new ArrayList<>(unitKeys.size() + records.size());
        batch.addAll(unitKeys);
        batch.addAll(records);
        SnapshotDescriptor goodFor = newest; // taken before the read is sent
        List<Versioned> got = TellException.join(store.getAllAsync(batch));
        Map<RecordKey, Long> read = new HashMap<>();
        for (int u = 0; u < unitKeys.size(); u++) {
            read.put(unitKeys.get(u), got.get(u) == null ? 0L : got.get(u).version());
        }
        for (int j = 0; j < records.size(); j++) {
            RecordKey k = records.get(j);
            Versioned stored = got.get(unitKeys.size() + j);
            long unitVersion = -1;
            if (sets != null) {
                RecordKey unit = sets.unitOf(k);
                Long before = units.versions.get(unit);
                Long now = read.get(unit);
                Cached old = entries.get(k);
                if (now != null && old != null && old.settled && old.unitVersion >= 0) {
                    score(unit, now == old.unitVersion); // would the copy have been good?
                }
                unitVersion = before != null ? before : inOrder && now != null ? now : -1;
            }
            remember(k, new Cached(stored, goodFor, unitVersion, settled(stored, goodFor)));
            out[positions.get(j)] = new Read(stored, false);
            misses.increment();
        }
        units.versions.putAll(read);
    }

    /** The units worth reading ahead, best first: those whose copies have proved good lately. */
    private List<RecordKey> stableUnits() {
        List<Map.Entry<RecordKey, Integer>> good = new ArrayList<>();
        for (Map.Entry<RecordKey, Integer> e : unitScores.entrySet()) {
            if (e.getValue() > 0) {
                good.add(e);
            }
        }
        good.sort((a, b) -> Integer.compare(b.getValue(), a.getValue()));
        List<RecordKey> out = new ArrayList<>();
        for (int i = 0; i < Math.min(PREFETCHED_UNITS, good.size()); i++) {
            out.add(good.get(i).getKey());
        }
        return out;
    }

    private void score(RecordKey unit, boolean good) {
        if (unitScores.size() >= TRACKED_UNITS && !unitScores.containsKey(unit)) {
            unitScores.keySet().removeIf(u -> unitScores.getOrDefault(u, 0) <= 0);
            if (unitScores.size() >= TRACKED_UNITS) {
                return;
            }
        }
        unitScores.merge(unit, good ? 1 : -4, (a, b) -> Math.max(-16, Math.min(16, a + b)));
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
