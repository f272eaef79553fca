package io.tell.index.internal;

import io.tell.store.RecordStore;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Node changes of any trees kept in one store, published in one batch: each a replacement of
 * one node, possibly split into parts ({@link BTreeNode#splitInto}) whose new right parts it
 * links to. The new records (physical records and right parts) come first, then every mapping
 * write chained to them ({@link WriteOp#asChained}), so a node is swung only when all the
 * records it points to exist, and a right part becomes reachable only through that swing. Each
 * change wins or loses on its own, as a {@link NodeStore#replace} would.
 */
final class NodeBatch {
    /** One node's new state, and the new right parts its swing makes reachable (in order). */
    record Change(NodeStore nodes, NodeStore.Replacement replacement, List<NodeStore.Creation> rights) {
    }

    /** A change's outcome: the node's new reference and its right parts, or a null {@code left} when the swing lost. */
    record Outcome(NodeRef left, List<NodeRef> rights) {
        boolean won() {
            return left != null;
        }
    }

    private NodeBatch() {
    }

    /**
     * Prepares {@code next} as the new state of {@code current}, split into parts when it holds
     * more than {@code capacity} entries.
     */
    static Change prepare(NodeStore nodes, NodeRef current, BTreeNode next, int capacity, boolean appended) {
        List<NodeStore.Creation> rights = new ArrayList<>();
        if (next.size() > capacity) {
            List<BTreeNode> parts = next.splitInto(capacity, appended, nodes::newId);
            for (BTreeNode part : parts.subList(1, parts.size())) {
                rights.add(nodes.prepareCreate(part));
            }
            next = parts.get(0);
        }
        return new Change(nodes, nodes.prepareReplace(current, next), rights);
    }

    /** Writes every change in one batch (one round trip, two on a store that cannot check a chain in one step). */
    static List<Outcome> write(RecordStore store, List<Change> changes) {
        return outcomes(changes, store.writeAll(ops(changes)));
    }

    /**
     * The batch that publishes {@code changes}: the new records (and queued garbage deletes),
     * then every mapping write chained to them. A caller that sends it inside a batch of its
     * own puts it after its own writes (the mappings are then also chained to those) and hands
     * the answers to these writes to {@link #outcomes}.
     */
    static List<WriteOp> ops(List<Change> changes) {
        List<WriteOp> batch = new ArrayList<>();
        for (Change c : changes) {
            if (c.replacement().physical() != null) {
                batch.add(c.replacement().physical());
            }
            c.rights().forEach(r -> batch.addAll(r.ops()));
        }
        Set<NodeStore> stores = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Change c : changes) {
            if (stores.add(c.nodes())) {
                c.nodes().drainGarbage(batch);
            }
        }
        for (Change c : changes) {
            batch.add(c.replacement().mapping().asChained());
        }
        return batch;
    }

    /** Each change's outcome, from the answers to {@link #ops}, in order. */
    static List<Outcome> outcomes(List<Change> changes, List<WriteResult> answers) {
        int first = answers.size() - changes.size();
        List<Outcome> out = new ArrayList<>(changes.size());
        int at = 0;
        for (int i = 0; i < changes.size(); i++) {
            Change c = changes.get(i);
            if (c.replacement().physical() != null) {
                at++;
            }
            List<NodeRef> rights = new ArrayList<>(c.rights().size());
            for (NodeStore.Creation r : c.rights()) {
                rights.add(c.nodes().finishCreate(r, answers.subList(at, at + r.ops().size())));
                at += r.ops().size();
            }
            NodeRef left = c.nodes().finishReplace(c.replacement(), answers.get(first + i));
            if (left == null) {
                rights.forEach(c.nodes()::discard); // never reachable: the swing lost
                rights = List.of();
            }
            out.add(new Outcome(left, rights));
        }
        return out;
    }
}
