package io.tell.index.internal;

import io.tell.index.BTreeConfig;
import io.tell.store.Expect;
import io.tell.store.KeyRange;
import io.tell.store.RecordStore;
import io.tell.store.StoredRecord;
import io.tell.store.WriteOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds the records of one tree that no walk from its root reaches and whose ids the tree's
 * counter had handed out by a given moment: what a tree client left when it died between
 * writing new records and swinging them in, or with superseded records still queued for delete.
 *
 * <p>Safe only for a {@code ceiling} read from the counter ({@link #idCeiling}) long enough ago
 * that every range holding such ids is no longer used ({@link NodeStore#ID_RANGE_LIFE_MILLIS})
 * and every write that used one has landed: then a record with such an id that is unreachable
 * stays unreachable (physical records are written once, a swing only ever publishes a fresh id,
 * and a leaf removed from the tree is never linked again), so the walk and the scans may run in
 * either order while clients work. Removed leaves are kept: a client's cached parent may still
 * route to one, and the search that gets there needs its fences ({@link LeafRemover}).
 * Deletes are conditional on the version scanned.
 */
public final class UnreachableRecords {
    private UnreachableRecords() {
    }

    /** The highest id tree {@code name}'s counter has handed out so far (0 for none). One round trip. */
    public static long idCeiling(RecordStore store, String name) {
        return store.increment(BTreeConfig.domainsOf(name).get(2), NodeStore.IDS_KEY, 0);
    }

    /**
     * Conditional deletes of the unreachable mapping and physical records of tree {@code name}
     * with ids at most {@code ceiling}. Reads the tree in batches of {@code batch} nodes and
     * scans its mapping and node domains in pages of {@code batch} records.
     */
    public static List<WriteOp> find(RecordStore store, String name, long ceiling, int batch) {
        NodeStore nodes = new NodeStore(store, name, false, 1, 0);
        RootRecord root = nodes.readRoot();
        if (root == null) {
            return List.of();
        }
        Set<Long> logical = new HashSet<>();
        Set<Long> physical = new HashSet<>();
        walk(nodes, root.rootId(), batch, logical, physical);
        List<WriteOp> deletes = new ArrayList<>();
        unreached(store, nodes.mapDomain(), logical, ceiling, batch, deletes);
        unreached(store, nodes.nodeDomain(), physical, ceiling, batch, deletes);
        return deletes;
    }

    /** Every node reachable from the root along children and right links, level by level in batches. */
    private static void walk(NodeStore nodes, long rootId, int batch, Set<Long> logical, Set<Long> physical) {
        List<Long> frontier = new ArrayList<>(List.of(rootId));
        logical.add(rootId);
        while (!frontier.isEmpty()) {
            List<Long> ids = frontier.subList(0, Math.min(batch, frontier.size()));
            List<NodeRef> refs = nodes.readAll(ids);
            List<Long> next = new ArrayList<>(frontier.subList(ids.size(), frontier.size()));
            for (int i = 0; i < refs.size(); i++) {
                NodeRef ref = refs.get(i) != null ? refs.get(i) : nodes.read(ids.get(i));
                if (ref == null) {
                    continue; // no mapping: a link to a node that was never created
                }
                physical.add(ref.physicalId());
                BTreeNode n = ref.node();
                if (n.rightSibling() != 0 && logical.add(n.rightSibling())) {
                    next.add(n.rightSibling());
                }
                for (int c = 0; !n.isLeaf() && c < n.size(); c++) {
                    if (logical.add(n.child(c))) {
                        next.add(n.child(c));
                    }
                }
            }
            frontier = next;
        }
    }

    /** Adds deletes of the records of {@code domain} keyed by an id at most {@code ceiling} that is not in {@code reached}. */
    private static void unreached(RecordStore store, String domain, Set<Long> reached, long ceiling, int batch,
            List<WriteOp> deletes) {
        byte[] from = null;
        while (true) {
            List<StoredRecord> page = store.scan(domain, new KeyRange(from, null), batch);
            for (StoredRecord r : page) {
                long id = Bytes.getLong(r.key(), 0);
                if (id <= ceiling && !reached.contains(id) && !NodeStore.holdsRemovedLeaf(r.value())) {
                    deletes.add(WriteOp.delete(domain, r.key(), Expect.version(r.version())));
                }
            }
            if (page.size() < batch) {
                return;
            }
            byte[] last = page.get(page.size() - 1).key();
            from = Arrays.copyOf(last, last.length + 1);
        }
    }
}
