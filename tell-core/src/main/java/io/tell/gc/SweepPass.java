package io.tell.gc;

import io.tell.error.TellException;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * One pass of the sweeper: the horizon it works against and the means it works with. {@code lav}
 * and {@code tid} come from one transaction start at the beginning of the pass; lav only grows,
 * so it stays a safe bound for the whole pass.
 *
 * @param tid  a read-write tid drawn at the start (and completed at once): a transaction still
 *             running when it was drawn has a base below it, so once lav reaches it they all ended
 * @param base the snapshot base at the start: every tid at or below it has completed
 * @param lav  the lowest base of any running transaction at the start
 * @param settled the base and lav a pass saw at least the grace period ago, how far the walks
 *             over tids go ({@link SettledHorizon})
 */
record SweepPass(RecordStore store, long tid, long base, long lav, SettledHorizon.Sample settled, long startMillis,
                 SweepOptions options,
                 SweepLease lease, SweepPacer pacer, SweepCounters counters, Map<String, BTree> trees) {

    /** Thrown to end a pass when the lease is lost; the work done so far stays done. */
    static final class LeaseLost extends RuntimeException {
        LeaseLost() {
            super("sweeper lease lost", null, false, false);
        }
    }

    /** The walk over log entries goes up to here. */
    long settledBase() {
        return settled.base();
    }

    /** The walk over garbage lists goes up to here. */
    long settledLav() {
        return settled.lav();
    }

    /** Renews the lease when due; ends the pass when it is no longer held. */
    void checkLease() {
        if (lease.dueForRenewal()) {
            lease.acquire();
        }
        if (!lease.held()) {
            throw new LeaseLost();
        }
    }

    /** Purges whole domains (one store call, paced as one record); returns the records deleted. */
    long purge(Set<String> domains) {
        checkLease();
        long deleted = store.purge(domains);
        counters.deadRecords.add(deleted);
        pacer.pace(1);
        return deleted;
    }

    /** The keys {@code keyOf(tid)} of tids {@code from..to}, in order (a walk over tids, one batch). */
    static List<RecordKey> tidKeys(LongFunction<RecordKey> keyOf, long from, long to) {
        List<RecordKey> keys = new ArrayList<>((int) (to - from + 1));
        for (long tid = from; tid <= to; tid++) {
            keys.add(keyOf.apply(tid));
        }
        return keys;
    }

    /** Reads {@code keys} in one batch, after checking the lease; paced as one record. */
    List<Versioned> readBatch(List<RecordKey> keys) {
        checkLease();
        List<Versioned> read = TellException.join(store.getAllAsync(keys));
        pacer.pace(1);
        return read;
    }

    /** Conditional writes (mostly deletes), one batch; returns how many took effect (the rest met a changed record). */
    int writeAll(List<WriteOp> deletes) {
        if (deletes.isEmpty()) {
            return 0;
        }
        checkLease();
        List<WriteResult> results = TellException.join(store.writeAllAsync(deletes));
        int written = 0;
        for (WriteResult r : results) {
            if (r.written()) {
                written++;
            }
        }
        counters.conflicts.add(results.size() - written);
        return written;
    }

    /** The sweeper's own client of a tree (its own cache; its round trips count as the sweeper's). */
    BTree tree(BTreeConfig config) {
        return trees.computeIfAbsent(config.name(), n -> BTree.open(store, config));
    }
}
