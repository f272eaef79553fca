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
 * whose sets the node lately read unchanged and whose copies served ({@link #stableUnits}); a set
 * is read on its own before the records only when every record asked for has a copy in a unit
 * not lately found changed. Copies of records in units whose sets keep changing are not kept at
 * all, and their sets are read only now and then: they would never serve, and keeping them costs
 * the node CPU and memory on every fetch, and the store a read.
 *
 * <p>What a SERIALIZABLE reader needs of a copy (docs/transactions.md, "Why this is
 * serializable"): the writer of a version the copy lacks began validating after every tid of
 * the snapshot the copy is good for had completed. True when the copy was read, as
 * {@code goodFor} is the node's newest snapshot before the read was sent and the version came
 * after the read; and true again when an unchanged set makes it good for a newer snapshot: that
 * writer bumped the set after the copy's set version was read, the serving transaction read the
 * set unchanged after it had its snapshot, so the bump, and the writer's validation after it,
 * came later still.
 *
 * <p>The buffer never needs invalidating for correctness; a node drops what its own commits wrote
 * only so that the next reader does not fetch twice. Size is bounded by dropping arbitrary
 * entries once it is exceeded.
 */
final class SharedRecordBuffer {
    /** What one read gives a transaction: the record as stored, and whether it came from the buffer. */
    record Read(Versioned stored, boolean buffered) {
    }

    /**
     * The records asked for, in order, and the riders as read by the first store call the read
     * made (null when it made none: everything came from the buffer).
     */
    record Fetched(List<Read> reads, List<Versioned> riders) {
    }

    /** A copy, the snapshot it is good for, its unit's set version read before it (-1: unknown), and whether it is settled. */
    private record Cached(Versioned stored, SnapshotDescriptor goodFor, long unitVersion, boolean settled) {
    }

    /**
     * A unit's set as this node last read it, a score, and whether a copy of the unit has served
     * a read since the set last moved. The score goes up by one each time the set was read
     * unchanged since, down by four each time it had moved, within ±16. A stable unit (above
     * zero) that served is worth reading ahead; one below zero is written too often for copies
     * of its records to be worth keeping, or its set worth reading (TPC-C's STOCK against its
     * ITEM; a table's rows loaded long ago and never read again are stable and useless).
     */
    private record UnitHistory(long version, int score, boolean served) {
        UnitHistory next(long now) {
            if (now < version) {
                return this; // an older read answered late: a store's versions only grow, it says nothing new
            }
            boolean same = now == version;
            return new UnitHistory(now, Math.max(-16, Math.min(16, score + (same ? 1 : -4))), same && served);
        }
    }

    /** One in this many reads of a unit below zero still reads its set, so that a unit written no more can recover. */
    private static final int RECHECK_EVERY = 16;

    /** The version sets one transaction has read since it got its snapshot, by unit. */
    static final class TxUnits {
        private final Map<RecordKey, Long> versions = new HashMap<>();
        private boolean prefetched;
    }

    /** Stable units read along with a transaction's first fetch, at most. */
    static final int PREFETCHED_UNITS = 32;
    /** Units whose sets' history is kept, at most. */
    private static final int TRACKED_UNITS = 4096;

    private final RecordStore store;
    private final VersionSets sets;
    private final int capacity;
    private final Map<RecordKey, Cached> entries = new ConcurrentHashMap<>();
    /** Per unit, its set as this node last read it and how its reads have fared ({@link UnitHistory}). */
    private final Map<RecordKey, UnitHistory> history = new ConcurrentHashMap<>();
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
     * set is worth reading first). {@code riders}, records the transaction wants read along
     * (never buffered), ride in the first store call, if there is one.
     */
    Fetched read(List<RecordKey> keys, SnapshotDescriptor v, TxUnits units, List<RecordKey> riders) {
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
            return new Fetched(List.of(out), null);
        }
        List<Versioned> riding = null;
        if (sets != null) {
            stale = serveByUnits(keys, stale, v, units, out);
            if (!stale.isEmpty() && worthReadingUnitsFirst(keys, stale, units)) {
                riding = readUnits(unknownUnits(keys, stale, units), units, riders);
                stale = serveByUnits(keys, stale, v, units, out);
            }
        }
        if (!stale.isEmpty()) {
            List<Versioned> got = fetch(keys, stale, units, out, riding == null ? riders : List.of());
            riding = riding == null ? got : riding;
        }
        return new Fetched(List.of(out), riding);
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
                entries.replace(k, c, new Cached(c.stored, v, c.unitVersion, true)); // unless another thread stored a newer copy
                out[i] = new Read(c.stored, true);
                unitHits.increment();
                history.computeIfPresent(unit, (u, h) -> h.served() ? h : new UnitHistory(h.version(), h.score(), true));
            } else {
                left.add(i);
            }
        }
        return left;
    }

    /**
     * True when every key left has a settled copy in a unit the transaction has not read yet and
     * that is not below zero (a unit not yet judged is tried).
     */
    private boolean worthReadingUnitsFirst(List<RecordKey> keys, List<Integer> positions, TxUnits units) {
        for (int i : positions) {
            Cached c = entries.get(keys.get(i));
            RecordKey unit = sets.unitOf(keys.get(i));
            if (c == null || !c.settled || c.unitVersion < 0 || units.versions.containsKey(unit) || score(unit) < 0) {
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

    /** Reads the sets of {@code unitKeys} with {@code riders} after them; returns the riders as read. */
    private List<Versioned> readUnits(List<RecordKey> unitKeys, TxUnits units, List<RecordKey> riders) {
        List<Versioned> got = TellException.join(store.getAllAsync(concat(unitKeys, riders)));
        for (int u = 0; u < unitKeys.size(); u++) {
            long version = got.get(u) == null ? 0L : got.get(u).version();
            units.versions.put(unitKeys.get(u), version);
            noteSet(unitKeys.get(u), version);
        }
        return got.subList(unitKeys.size(), got.size());
    }

    /** {@code a} followed by {@code b}; {@code a} itself when {@code b} is empty. */
    static List<RecordKey> concat(List<RecordKey> a, List<RecordKey> b) {
        if (b.isEmpty()) {
            return a;
        }
        List<RecordKey> out = new ArrayList<>(a.size() + b.size());
        out.addAll(a);
        out.addAll(b);
        return out;
    }

    /**
     * Fetches the records at {@code positions} in one batch, with the sets the transaction has
     * not read of their units (and, on its first fetch, of the node's stable units). A copy's
     * unit version is one read before it: by an earlier batch of the transaction, or earlier in
     * this batch when the store runs a batch in order (sets are put first). {@code riders} go
     * last; returns them as read.
     */
    private List<Versioned> fetch(List<RecordKey> keys, List<Integer> positions, TxUnits units, Read[] out,
                                  List<RecordKey> riders) {
        List<RecordKey> records = new ArrayList<>(positions.size());
        for (int i : positions) {
            records.add(keys.get(i));
        }
        List<RecordKey> unitKeys = List.of();
        if (sets != null) {
            unitKeys = unknownUnits(keys, positions, units);
            unitKeys.removeIf(u -> score(u) < 0 && java.util.concurrent.ThreadLocalRandom.current().nextInt(RECHECK_EVERY) != 0);
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
        List<RecordKey> batch = new ArrayList<>(unitKeys.size() + records.size() + riders.size());
        batch.addAll(unitKeys);
        batch.addAll(records);
        batch.addAll(riders);
        SnapshotDescriptor goodFor = newest; // taken before the read is sent
        List<Versioned> got = TellException.join(store.getAllAsync(batch));
        Map<RecordKey, Long> read = new HashMap<>();
        for (int u = 0; u < unitKeys.size(); u++) {
            long version = got.get(u) == null ? 0L : got.get(u).version();
            read.put(unitKeys.get(u), version);
            noteSet(unitKeys.get(u), version);
        }
        for (int j = 0; j < records.size(); j++) {
            RecordKey k = records.get(j);
            Versioned stored = got.get(unitKeys.size() + j);
            out[positions.get(j)] = new Read(stored, false);
            misses.increment();
            if (sets == null) {
                remember(k, new Cached(stored, goodFor, -1, settled(stored, goodFor)));
                continue;
            }
            RecordKey unit = sets.unitOf(k);
            if (score(unit) < 0) {
                entries.remove(k); // written too often to be worth keeping
                continue;
            }
            Long before = units.versions.get(unit);
            Long now = read.get(unit);
            long unitVersion = before != null ? before : inOrder && now != null ? now : -1;
            remember(k, new Cached(stored, goodFor, unitVersion, settled(stored, goodFor)));
        }
        units.versions.putAll(read);
        int ridersAt = unitKeys.size() + records.size();
        return got.subList(ridersAt, got.size());
    }

    /** The units worth reading ahead, best first: those whose sets have lately been read unchanged and whose copies served. */
    private List<RecordKey> stableUnits() {
        List<Map.Entry<RecordKey, UnitHistory>> good = new ArrayList<>();
        for (Map.Entry<RecordKey, UnitHistory> e : history.entrySet()) {
            if (e.getValue().score() > 0 && e.getValue().served()) {
                good.add(e);
            }
        }
        good.sort((a, b) -> Integer.compare(b.getValue().score(), a.getValue().score()));
        List<RecordKey> out = new ArrayList<>();
        for (int i = 0; i < Math.min(PREFETCHED_UNITS, good.size()); i++) {
            out.add(good.get(i).getKey());
        }
        return out;
    }

    /** The unit's score; zero for one not judged yet. */
    private int score(RecordKey unit) {
        UnitHistory h = history.get(unit);
        return h == null ? 0 : h.score();
    }

    /** This node read {@code unit}'s set at {@code version}. */
    private void noteSet(RecordKey unit, long version) {
        if (history.size() >= TRACKED_UNITS && !history.containsKey(unit)) {
            // Units not judged either way go; those below zero stay, or their copies would be kept again.
            history.values().removeIf(h -> h.score() == 0);
            if (history.size() >= TRACKED_UNITS) {
                return;
            }
        }
        history.merge(unit, new UnitHistory(version, 0, false), (old, ignored) -> old.next(version));
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
