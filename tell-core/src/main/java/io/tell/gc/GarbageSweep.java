package io.tell.gc;

import io.tell.error.TellException;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.txn.GarbageLog;
import io.tell.txn.MvccRecord;
import io.tell.txn.RowVersion;
import io.tell.txn.TableIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reclaims what committed transactions left behind, from the lists they wrote at commit
 * ({@link GarbageLog}): reads the lists of tids from the cursor up to the settled lav (the lav of
 * a grace period ago, so that no list can land behind the cursor) in batches of keys (no scan),
 * and for every row listed whose newest version is a delete at or below lav — gone for
 * everyone — deletes its listed index entries, their unique claims, and then its record.
 *
 * <p>Order matters: <b>entries first, records after</b>. Readers never remove an entry whose row
 * is absent, because {@code IndexWriter} adds entries before the records are written, so an
 * absent row may be an insert in flight; an entry whose record the sweeper deleted first would
 * therefore stay forever. Removing the entries of a gone row is safe: rids are never reused,
 * so no writer can give that row a key again, and any transaction that could still have added
 * an entry for it (one that read the row before the delete) had a base below the delete's tid
 * and has ended, since lav is past that tid. The record goes last, with a delete conditional on
 * the version read: if anything changed it meanwhile, the delete is refused and the row waits
 * for a later list. A writer that read the row's tombstone and commits after the delete finds
 * the record absent and conflicts ({@code Committer.reload}: a different newest version).
 *
 * <p>The old key of a row that is still live stays (a writer may set the key back and rely on
 * the entry being there): such items are carried forward into a list under this pass's own
 * tid, read again by a later pass, until the row is gone. Items of rows whose delete was
 * reverted, and of records that hold no version at all (revert fences, which {@link LogSweep}
 * reclaims), are dropped.
 */
final class GarbageSweep {
    /** Chunks walked between two saves of the cursor (walking a chunk again is harmless). */
    private static final int CHUNKS_PER_SAVE = 64;

    private final SweepPass pass;
    private final SweepCursor cursor;
    private final Map<String, BTreeConfig> trees = new HashMap<>();
    private final Set<String> dead;
    private final List<GarbageLog.Item> carried = new ArrayList<>();

    GarbageSweep(SweepPass pass, SweepCursor cursor, List<SweepScope.Table> tables, Set<String> deadDomains) {
        this.pass = pass;
        this.cursor = cursor;
        this.dead = deadDomains;
        for (SweepScope.Table t : tables) {
            t.indexes().forEach(c -> trees.put(c.name(), c));
        }
    }

    void run() {
        long next = cursor.garbageNext();
        int chunks = 0;
        while (next <= pass.settledLav()) {
            long to = Math.min(pass.settledLav(), next + pass.options().pageSize() - 1);
            List<RecordKey> keys = SweepPass.tidKeys(GarbageLog::recordKey, next, to);
            List<Versioned> lists = pass.readBatch(keys);
            List<GarbageLog.Item> items = new ArrayList<>();
            List<WriteOp> done = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                Versioned list = lists.get(i);
                if (list != null) {
                    items.addAll(GarbageLog.decode(list.value()));
                    done.add(new WriteOp(keys.get(i), null, Expect.version(list.version())));
                }
            }
            if (!done.isEmpty()) {
                reclaim(items);
                // What is carried forward is saved before the lists it came from go.
                if (!carried.isEmpty()) {
                    pass.store().write(new WriteOp(GarbageLog.recordKey(pass.tid()), GarbageLog.encode(carried), Expect.ANY));
                }
                TellException.join(pass.store().writeAllAsync(done));
            }
            next = to + 1;
            if (++chunks % CHUNKS_PER_SAVE == 0) {
                cursor.moveGarbage(next);
            }
        }
        if (next != cursor.garbageNext()) {
            cursor.moveGarbage(next);
        }
    }

    private void reclaim(List<GarbageLog.Item> items) {
        Map<RecordKey, List<GarbageLog.Item>> byRow = new LinkedHashMap<>();
        for (GarbageLog.Item item : items) {
            if (!dead.contains(item.table())) {
                byRow.computeIfAbsent(item.rowRecord(), k -> new ArrayList<>()).add(item);
            }
        }
        pass.counters().scanned.add(items.size());
        pass.pacer().pace(Math.max(1, items.size()));
        List<RecordKey> rowKeys = new ArrayList<>(byRow.keySet());
        List<Versioned> rows = TellException.join(pass.store().getAllAsync(rowKeys));
        List<WriteOp> rowDeletes = new ArrayList<>();
        List<GarbageLog.Item> claimsToCheck = new ArrayList<>();
        Set<BTree> touched = new HashSet<>();
        for (int i = 0; i < rowKeys.size(); i++) {
            Versioned row = rows.get(i);
            List<GarbageLog.Item> group = byRow.get(rowKeys.get(i));
            RowVersion newest = row == null ? null : MvccRecord.decode(row.value()).newest();
            if (row != null && newest == null) {
                continue; // a revert fence, not a row: left alone
            }
            boolean gone = row == null || newest.deleted() && newest.tid() <= pass.lav();
            if (!gone) {
                group.stream().filter(item -> !item.isRow() && !deadTree(item.tree())).forEach(carried::add);
                continue;
            }
            if (group.stream().anyMatch(item -> !item.isRow() && !trees.containsKey(item.tree()) && !deadTree(item.tree()))) {
                carried.addAll(group); // an index this pass's catalog does not know yet: later
                continue;
            }
            for (GarbageLog.Item item : group) {
                if (item.isRow() || deadTree(item.tree())) {
                    continue;
                }
                BTree tree = pass.tree(trees.get(item.tree()));
                touched.add(tree);
                if (tree.delete(item.indexKey(), TableIndex.ridOf(item.rowKey()))) {
                    pass.counters().indexEntries.increment();
                }
                if (item.unique()) {
                    claimsToCheck.add(item);
                }
            }
            if (row != null && group.stream().anyMatch(GarbageLog.Item::isRow)) {
                rowDeletes.add(new WriteOp(rowKeys.get(i), null, Expect.version(row.version())));
            }
        }
        touched.forEach(BTree::flush);
        removeClaims(claimsToCheck);
        // Only now that no index names them: the records themselves.
        pass.counters().rows.add(pass.writeAll(rowDeletes));
    }

    /** Deletes the unique claims that still name the gone row (conditional on the version read). */
    private void removeClaims(List<GarbageLog.Item> items) {
        if (items.isEmpty()) {
            return;
        }
        List<RecordKey> keys = new ArrayList<>(items.size());
        for (GarbageLog.Item item : items) {
            keys.add(new RecordKey(TableIndex.claimDomainOf(item.tree()), item.indexKey()));
        }
        List<Versioned> claims = TellException.join(pass.store().getAllAsync(keys));
        List<WriteOp> deletes = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Versioned claim = claims.get(i);
            if (claim != null && Arrays.equals(claim.value(), items.get(i).rowKey())) {
                deletes.add(new WriteOp(keys.get(i), null, Expect.version(claim.version())));
            }
        }
        pass.counters().claims.add(pass.writeAll(deletes));
    }

    private boolean deadTree(String tree) {
        return dead.contains(BTreeConfig.domainsOf(tree).get(0));
    }
}
