package io.tell.index.internal;

import io.tell.index.BTree;
import io.tell.index.IndexEntry;
import io.tell.index.InsertResult;
import io.tell.store.RecordStore;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Many inserts into the trees of one store at once. The cached inner nodes route each entry
 * to its leaf without a read; then every leaf involved is read in one batch, changed with all
 * its new entries, and published as {@link BLinkTree#insert} would publish it: new physical
 * records, then the conditional mapping writes chained to them ({@link WriteOp#asChained}), in
 * one batch. A leaf that would overflow splits in the same batch: its new right parts are
 * written with the physical records, and the mapping swing of the leaf to its first part makes
 * them reachable along the right links ({@link Splitter}'s protocol, with several parts at
 * once); their separators are posted to the parents after. With warm caches that is two round
 * trips in all (three when some leaf was changed by another client, or the store cannot check
 * a chain in one step), plus one per split to post its separators, however many
 * entries and trees. An entry the batch cannot place (an uncached route, a leaf that moved, or
 * lost its conditional write) is left for another round or inserted on its own, so each entry
 * gets the result a single insert would give, and each is atomic on its own.
 *
 * <p>A leaf this client's batches wrote last ({@link WrittenLeaves}) is not read: the batch plans
 * on the state it wrote and writes conditionally on that version, so appends to the same leaves
 * cost one round trip. When that leaf changed elsewhere meanwhile (the write loses), or the
 * remembered state would decide an entry without a write (present already, a duplicate, or not
 * covered), the leaf's entries go into another round that reads it. {@link #prepare} plans the
 * first round (reading the leaves it does not remember) and gives its writes to the caller to
 * send after writes of its own (a commit's log write), chained to them.
 */
final class BatchInsert {
    /** One entry for one tree, and where its result goes. */
    private record Request(int index, BLinkTree tree, IndexEntry entry) {
    }

    /** The requests routed to one node of one tree. */
    private static final class Group {
        final BLinkTree tree;
        final long nodeId;
        final List<Request> requests = new ArrayList<>();
        NodeRef ref;
        /** True when {@link #ref} is the state this client wrote last, not read now. */
        boolean remembered;
        /** The leaf's new state, split into parts when it overflows. */
        NodeBatch.Change change;
        /** Requests decided by this batch's read of the node: added to it, or found present. */
        final List<Request> planned = new ArrayList<>();
        int added;

        Group(BLinkTree tree, long nodeId) {
            this.tree = tree;
            this.nodeId = nodeId;
        }
    }

    private record GroupKey(BLinkTree tree, long nodeId) {
    }

    private BatchInsert() {
    }

    static List<InsertResult> run(List<BLinkTree> trees, List<IndexEntry> entries) {
        InsertResult[] results = new InsertResult[entries.size()];
        for (Map.Entry<RecordStore, List<Request>> e : requests(trees, entries).entrySet()) {
            rounds(e.getKey(), e.getValue(), results, 0);
        }
        return List.of(results);
    }

    /**
     * The first round planned — leaves this client wrote last as it wrote them, the others read
     * now — for the caller to send its writes in a batch of its own; the rest follows in
     * {@link Prepared#finish}. Null when the trees live in more than one store.
     */
    static Prepared prepare(List<BLinkTree> trees, List<IndexEntry> entries) {
        Map<RecordStore, List<Request>> byStore = requests(trees, entries);
        if (byStore.size() != 1) {
            return null;
        }
        Map.Entry<RecordStore, List<Request>> only = byStore.entrySet().iterator().next();
        InsertResult[] results = new InsertResult[entries.size()];
        List<Request> alone = new ArrayList<>();
        Round round = plan(only.getKey(), only.getValue(), results, alone, true);
        return new Prepared(only.getKey(), only.getValue(), results, round, alone);
    }

    /** The requests of every store the trees live in, each entry's key checked and copied. */
    private static Map<RecordStore, List<Request>> requests(List<BLinkTree> trees, List<IndexEntry> entries) {
        if (trees.size() != entries.size()) {
            throw new IllegalArgumentException(trees.size() + " trees for " + entries.size() + " entries");
        }
        Map<RecordStore, List<Request>> byStore = new IdentityHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            BLinkTree tree = Objects.requireNonNull(trees.get(i));
            IndexEntry entry = new IndexEntry(BLinkTree.checkKey(entries.get(i).key()).clone(), entries.get(i).rid());
            byStore.computeIfAbsent(tree.nodeStore().store(), s -> new ArrayList<>()).add(new Request(i, tree, entry));
        }
        return byStore;
    }

    /** A {@link #prepare}d insert: its first round's writes go out with the caller's, the rest follows. */
    static final class Prepared implements BTree.PreparedInsert {
        private final RecordStore store;
        private final List<Request> requests;
        private final InsertResult[] results;
        /** The first round's leaf changes; null when it has nothing to write. */
        private final Round round;
        private final List<Request> alone;
        private final List<Request> again = new ArrayList<>();
        private boolean settled;

        private Prepared(RecordStore store, List<Request> requests, InsertResult[] results, Round round, List<Request> alone) {
            this.store = store;
            this.requests = requests;
            this.results = results;
            this.round = round;
            this.alone = alone;
            this.settled = round == null; // no writes, no answers to wait for
        }

        @Override
        public List<WriteOp> writes() {
            return round == null ? List.of() : NodeBatch.ops(round.changes);
        }

        @Override
        public List<InsertResult> settle(List<WriteResult> answers) {
            if (settled) {
                throw new IllegalStateException("the first writes' answers were settled already");
            }
            settled = true;
            round.finish(answers, results, alone, again);
            return Arrays.asList(results.clone());
        }

        @Override
        public List<InsertResult> finish() {
            if (!settled) { // its entries would be taken for lost: the index would miss them
                throw new IllegalStateException("finish before the first writes' answers were settled");
            }
            rounds(store, next(requests, alone, again, results), results, 1);
            return List.of(results);
        }
    }

    /**
     * Batches until every request is decided. After a round that placed some entries but left
     * others (routed to a leaf that has moved right, or whose write lost to another client),
     * one of those is inserted on its own and the rest go into another round. A round that
     * placed nothing ends the batching.
     */
    private static void rounds(RecordStore store, List<Request> requests, InsertResult[] results, int round) {
        List<Request> pending = requests;
        for (; !pending.isEmpty(); round++) {
            List<Request> alone = new ArrayList<>();
            List<Request> again = new ArrayList<>();
            Round planned = plan(store, pending, results, alone, round < REMEMBERING_ROUNDS);
            if (planned != null) {
                planned.finish(store.writeAll(NodeBatch.ops(planned.changes)), results, alone, again);
            }
            pending = next(pending, alone, again, results);
        }
    }

    /**
     * The requests of the next round after one that left {@code alone} and {@code again}:
     * those of {@code again} go into it with the rest (their leaves read unless remembered and
     * unchanged); otherwise the first request left is
     * inserted on its own, and all of them when the round placed nothing.
     */
    private static List<Request> next(List<Request> pending, List<Request> alone, List<Request> again, InsertResult[] results) {
        if (!again.isEmpty()) {
            List<Request> next = new ArrayList<>(again);
            next.addAll(alone);
            return next;
        }
        List<Request> left = new ArrayList<>(alone);
        left.sort(Comparator.comparingInt(Request::index)); // decide in the callers' order
        if (left.size() == pending.size()) { // nothing placed: no more rounds
            for (Request r : left) {
                results[r.index()] = r.tree().insert(r.entry().key(), r.entry().rid());
            }
            return List.of();
        }
        if (!left.isEmpty()) {
            Request first = left.remove(0);
            results[first.index()] = first.tree().insert(first.entry().key(), first.entry().rid());
        }
        return left;
    }

    /** Rounds that may plan on remembered leaves; later ones read every leaf. */
    private static final int REMEMBERING_ROUNDS = 2;

    /** One round's leaves to write, and their planned changes. */
    private record Round(List<Group> writing, List<NodeBatch.Change> changes) {
        /**
         * Takes the answers to the round's writes: leaves that lost send their entries to
         * {@code again} (planned on a remembered state, or not written because a write before
         * theirs in the caller's batch failed) or {@code alone}; splits post their separators.
         */
        void finish(List<WriteResult> answers, InsertResult[] results, List<Request> alone, List<Request> again) {
            List<NodeBatch.Outcome> outcomes = NodeBatch.outcomes(changes, answers);
            Map<BLinkTree, List<Path.Missing>> separators = new LinkedHashMap<>();
            for (int i = 0; i < writing.size(); i++) {
                Group g = writing.get(i);
                NodeBatch.Outcome o = outcomes.get(i);
                if (!o.won()) {
                    // A leaf still at the version planned on lost only because a write before its
                    // own in the caller's batch failed (a chain broke): no conflict, and a
                    // remembered one stays remembered.
                    WriteResult mapped = answers.get(answers.size() - changes.size() + i);
                    boolean unchanged = mapped instanceof WriteResult.Conflict c && c.currentVersion() == g.ref.version();
                    if (!(g.remembered && unchanged)) {
                        g.tree.writtenLeaves().forget(g.nodeId);
                    }
                    if (g.remembered || unchanged) {
                        undecide(g, results, again); // changed elsewhere since we wrote it, or not written: read it
                        continue;
                    }
                    g.tree.navigator().stats().conflicts.increment();
                    undecide(g, results, alone);
                    continue;
                }
                g.tree.writtenLeaves().put(o.left());
                if (!o.rights().isEmpty()) {
                    g.tree.navigator().cache().put(o.left());
                    for (NodeRef right : o.rights()) {
                        g.tree.navigator().stats().splits.increment();
                        g.tree.navigator().cache().put(right);
                        separators.computeIfAbsent(g.tree, t -> new ArrayList<>())
                                .add(new Path.Missing(1, right.node().low(), right.id(), null));
                    }
                }
            }
            // Step 3 of each split: until it is done, searches reach the new leaves along the links.
            separators.forEach((tree, missing) -> tree.splitter().postAll(missing));
        }
    }

    /**
     * Routes the requests to their leaves, reads those not remembered (all of them when
     * {@code remember} is false) and plans each leaf's change; null when there is nothing to
     * write.
     */
    private static Round plan(RecordStore store, List<Request> requests, InsertResult[] results, List<Request> alone,
                              boolean remember) {
        Map<GroupKey, Group> groups = new LinkedHashMap<>();
        for (Request r : requests) {
            long id = r.tree().navigator().route(r.tree().routing(r.entry()));
            if (id == 0) {
                alone.add(r);
            } else {
                groups.computeIfAbsent(new GroupKey(r.tree(), id), k -> new Group(k.tree(), k.nodeId())).requests.add(r);
            }
        }
        List<Group> list = new ArrayList<>();
        List<Group> unread = new ArrayList<>();
        for (Group g : groups.values()) {
            NodeRef written = remember ? g.tree.writtenLeaves().get(g.nodeId) : null;
            if (written != null && onlyAdds(g, written)) {
                g.ref = written;
                g.remembered = true;
            } else {
                unread.add(g);
            }
            list.add(g);
        }
        read(store, unread);
        List<Group> writing = new ArrayList<>();
        List<NodeBatch.Change> changes = new ArrayList<>();
        for (Group g : list) {
            if (plan(g, results, alone)) {
                writing.add(g);
                changes.add(g.change);
            }
        }
        return writing.isEmpty() ? null : new Round(writing, changes);
    }

    /**
     * True when, on the remembered state {@code leaf}, every entry of the group would be added
     * (a leaf covering its place, no entry under its key yet): only a write decides, so a state
     * that is no longer current costs a lost write and a read, never a wrong answer.
     */
    private static boolean onlyAdds(Group g, NodeRef leaf) {
        BTreeNode n = leaf.node();
        if (!n.isLeaf() || n.isRemoved()) {
            return false;
        }
        for (Request r : g.requests) {
            IndexEntry target = g.tree.routing(r.entry());
            if (!n.covers(target, false)) {
                return false;
            }
            int pos = n.lowerBound(target);
            if (pos < n.size() && n.entry(pos).sameKey(r.entry())) {
                return false;
            }
        }
        return true;
    }

    /** Reads every group's node (one round trip, two when some leaf changed elsewhere). */
    private static void read(RecordStore store, List<Group> groups) {
        if (groups.isEmpty()) {
            return;
        }
        List<NodeStore> stores = new ArrayList<>(groups.size());
        List<Long> ids = new ArrayList<>(groups.size());
        for (Group g : groups) {
            stores.add(g.tree.nodeStore());
            ids.add(g.nodeId);
        }
        List<NodeRef> refs = NodeStore.readAll(store, stores, ids);
        for (int i = 0; i < groups.size(); i++) {
            groups.get(i).ref = refs.get(i);
        }
    }

    /**
     * Adds the group's entries to its leaf, deciding duplicates on the way; true when there is
     * a leaf to write (its entries count as inserted unless the write fails). A leaf that grows
     * beyond capacity is split into parts ({@link BTreeNode#splitInto}). Entries the leaf does
     * not cover (all of them when it is not a leaf) go to {@code alone}.
     */
    private static boolean plan(Group g, InsertResult[] results, List<Request> alone) {
        if (g.ref == null || !g.ref.node().isLeaf()) {
            alone.addAll(g.requests);
            return false;
        }
        boolean unique = g.tree.config().unique();
        int capacity = g.tree.config().nodeCapacity();
        BTreeNode leaf = g.ref.node();
        // The leaf's new entries grow in one array: a batch of appends costs each entry its
        // search, not a copy of the leaf (a thousand ascending keys into one leaf were quadratic).
        IndexEntry[] entries = Arrays.copyOf(leaf.keys(), leaf.size() + g.requests.size());
        int size = leaf.size();
        boolean appendedOnly = true;
        for (Request r : g.requests) {
            IndexEntry entry = r.entry();
            IndexEntry target = g.tree.routing(entry);
            if (!leaf.covers(target, false)) {
                alone.add(r);
                continue;
            }
            int pos = BTreeNode.lowerBoundIn(entries, size, target);
            if (pos < size && entries[pos].sameKey(entry) && (unique || entries[pos].equals(entry))) {
                g.planned.add(r);
                long existing = entries[pos].rid();
                results[r.index()] = existing == entry.rid() ? InsertResult.ALREADY_PRESENT : new InsertResult.DuplicateKey(existing);
                continue;
            }
            appendedOnly &= pos == size;
            g.planned.add(r);
            System.arraycopy(entries, pos, entries, pos + 1, size - pos);
            entries[pos] = entry;
            size++;
            results[r.index()] = InsertResult.INSERTED;
            g.added++;
        }
        if (g.added == 0) {
            return false;
        }
        BTreeNode next = leaf.withEntries(size == entries.length ? entries : Arrays.copyOf(entries, size));
        g.change = NodeBatch.prepare(g.tree.nodeStore(), g.ref, next, capacity, appendedOnly);
        return true;
    }

    /**
     * The group's node will not be written after all: its planned requests are decided again
     * one by one (a duplicate found against an entry of this batch included: that entry may
     * now lose to another client).
     */
    private static void undecide(Group g, InsertResult[] results, List<Request> alone) {
        for (Request r : g.planned) {
            results[r.index()] = null;
            alone.add(r);
        }
    }
}
