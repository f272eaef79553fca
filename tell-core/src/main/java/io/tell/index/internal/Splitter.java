package io.tell.index.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The B-link split protocol. Every step is one conditional write, and the tree is valid after
 * each of them, so a client that stops between two steps leaves nothing others cannot use:
 * <ol>
 *   <li>write the new right sibling (insert-if-absent; unreachable until step 2);</li>
 *   <li>swing the splitting node's mapping record to its left part (high fence = separator,
 *       right link = new sibling), conditional on the version the split started from; from now
 *       on the sibling is reachable along the right link;</li>
 *   <li>insert the separator into the parent (conditional write on the parent), which may split
 *       the parent the same way; when the splitting node was on the top level, instead write a
 *       new root over the top level's nodes and swing the root pointer to it (two more
 *       conditional writes).</li>
 * </ol>
 * A missing step 3 is repaired by any writer whose search has to move right from a freshly read
 * parent ({@link #help}); until then searches move right along the link.
 */
final class Splitter {
    private static final int MAX_ATTEMPTS = 10_000;

    private final Navigator nav;
    private final NodeStore store;
    private final int capacity;
    private final SplitHook hook;

    Splitter(Navigator nav, int capacity, SplitHook hook) {
        this.nav = nav;
        this.store = nav.store();
        this.capacity = capacity;
        this.hook = hook;
    }

    /**
     * Replaces {@code ref} by the over-full {@code next} through a split. Returns false, having
     * changed nothing reachable, when {@code ref} is no longer the node's current state.
     */
    boolean split(NodeRef ref, BTreeNode next, boolean appended, ArrayDeque<Path.Frame> ancestors) {
        int level = next.level();
        long rightId = store.newId();
        BTreeNode.Split s = next.split(rightId, appended);
        NodeRef right = store.create(s.right());
        hook.after(SplitStep.RIGHT_WRITTEN, level);
        NodeRef left = store.replace(ref, s.left());
        if (left == null) {
            nav.stats().conflicts.increment();
            store.discard(right);
            return false;
        }
        nav.stats().splits.increment();
        nav.cache().put(left);
        nav.cache().put(right);
        hook.after(SplitStep.LEFT_SWUNG, level);
        post(ancestors, level + 1, s.separator(), rightId);
        return true;
    }

    /** Posts the separators a search found missing; idempotent, so racing helpers do no harm. */
    void help(List<Path.Missing> missing) {
        nav.stats().separatorsHelped.add(missing.size());
        postAll(missing);
    }

    /**
     * Posts separators (step 3) of nodes this client split itself, or found missing, level by
     * level from the lowest: the separators whose parents this client has cached go in one
     * batch ({@link NodeBatch}), each parent changed once with all of its new children and
     * split in the same batch when they overflow it (whose own separators are then posted at the
     * next level); the rest, and those whose parent changed since it was cached, one by one.
     */
    void postAll(List<Path.Missing> missing) {
        List<Path.Missing> pending = new ArrayList<>(missing);
        while (!pending.isEmpty()) {
            pending.sort(Comparator.comparingInt(Path.Missing::level).thenComparing(Path.Missing::low));
            int level = pending.get(0).level();
            int end = 0;
            while (end < pending.size() && pending.get(end).level() == level) {
                end++;
            }
            List<Path.Missing> up = postLevel(level, pending.subList(0, end));
            pending = new ArrayList<>(pending.subList(end, pending.size()));
            pending.addAll(up);
        }
    }

    /** Separators of one level that go into one cached parent. */
    private record ParentGroup(NodeRef parent, List<Path.Missing> separators) {
    }

    /** The separators of one level, in key order: as {@link #postAll} says; returns those of parents split on the way. */
    private List<Path.Missing> postLevel(int level, List<Path.Missing> missing) {
        Map<Long, ParentGroup> byParent = new LinkedHashMap<>();
        List<Path.Missing> alone = new ArrayList<>();
        for (Path.Missing m : missing) {
            NodeRef parent = nav.cachedAt(m.low(), level);
            if (parent == null) {
                alone.add(m);
            } else {
                byParent.computeIfAbsent(parent.id(), id -> new ParentGroup(parent, new ArrayList<>())).separators().add(m);
            }
        }
        List<ParentGroup> changed = new ArrayList<>();
        List<NodeBatch.Change> changes = new ArrayList<>();
        for (ParentGroup g : byParent.values()) {
            BTreeNode next = g.parent().node();
            boolean appended = true;
            for (Path.Missing m : g.separators()) {
                if (next.childIndexOf(m.child()) < 0) {
                    next = next.withChild(m.low(), m.child());
                    appended &= next.childIndexOf(m.child()) == next.size() - 1;
                }
            }
            if (next != g.parent().node()) {
                changed.add(g);
                changes.add(NodeBatch.prepare(store, g.parent(), next, capacity, appended));
            }
        }
        List<Path.Missing> up = new ArrayList<>();
        List<NodeBatch.Outcome> outcomes = changes.isEmpty() ? List.of() : NodeBatch.write(store.store(), changes);
        for (int i = 0; i < outcomes.size(); i++) {
            NodeBatch.Outcome o = outcomes.get(i);
            List<Path.Missing> separators = changed.get(i).separators();
            if (!o.won()) {
                nav.stats().conflicts.increment();
                alone.addAll(separators);
                continue;
            }
            nav.cache().put(o.left());
            for (NodeRef right : o.rights()) {
                nav.stats().splits.increment();
                nav.cache().put(right);
                up.add(new Path.Missing(level + 1, right.node().low(), right.id(), null));
            }
            if (!o.rights().isEmpty()) {
                hook.after(SplitStep.LEFT_SWUNG, level);
            }
            for (int j = 0; j < separators.size(); j++) {
                hook.after(SplitStep.SEPARATOR_POSTED, level);
            }
        }
        alone.forEach(this::post);
        return up;
    }

    private void post(Path.Missing m) {
        ArrayDeque<Path.Frame> ancestors = new ArrayDeque<>();
        if (m.parent() != null) {
            ancestors.push(m.parent());
        }
        post(ancestors, m.level(), m.low(), m.child());
    }

    /**
     * Makes node {@code childId}, whose low fence is {@code separator}, a child of the node at
     * {@code level} that covers it; done when it already is one. {@code ancestors} are nodes
     * from the search that led here (innermost first), used as optimistic guesses: a change is
     * conditional on the version they were read at, so a stale guess costs a retry, no error.
     */
    private void post(ArrayDeque<Path.Frame> ancestors, int level, IndexEntry separator, long childId) {
        while (!ancestors.isEmpty() && ancestors.peek().ref().node().level() < level) {
            ancestors.pop();
        }
        NodeRef parent = null;
        boolean fresh = false;
        if (!ancestors.isEmpty() && ancestors.peek().ref().node().level() == level) {
            Path.Frame f = ancestors.pop();
            parent = f.ref();
            fresh = f.fresh();
        }
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            if (parent == null) {
                Path p = nav.descend(separator, false, level);
                if (p == null) {
                    completeRoot(level - 1);
                    continue;
                }
                parent = p.node();
                fresh = p.fresh();
                ancestors = p.ancestors();
            }
            BTreeNode n = parent.node();
            if (n.childIndexOf(childId) >= 0) {
                return;
            }
            if (!n.covers(separator, false)) {
                if (!fresh) {
                    parent = nav.refresh(parent);
                    fresh = true;
                } else if (n.beyondHigh(separator, false) && n.rightSibling() != 0) {
                    parent = nav.fetch(n.rightSibling());
                } else {
                    parent = null;
                }
                continue;
            }
            BTreeNode next = n.withChild(separator, childId);
            if (next.size() <= capacity) {
                NodeRef done = store.replace(parent, next);
                if (done != null) {
                    nav.cache().put(done);
                    hook.after(SplitStep.SEPARATOR_POSTED, level);
                    return;
                }
                nav.stats().conflicts.increment();
            } else if (split(parent, next, next.childIndexOf(childId) == next.size() - 1, ancestors)) {
                return;
            }
            parent = nav.refresh(parent);
            fresh = true;
        }
        throw TellException.of(ErrorCode.TX_CONFLICT, "could not post a b-tree separator after " + MAX_ATTEMPTS + " attempts");
    }

    /**
     * Puts a new root above the top level when that level has more than one node: writes the
     * root over (up to capacity of) the top level's nodes, then swings the root pointer to it.
     * Does nothing when someone else did it first.
     */
    private void completeRoot(int topLevel) {
        RootRecord root = nav.readRoot();
        NodeRef top = nav.fetch(root.rootId());
        if (top.node().level() != topLevel) {
            return;
        }
        List<NodeRef> chain = new ArrayList<>();
        chain.add(top);
        while (chain.size() < capacity && chain.get(chain.size() - 1).node().rightSibling() != 0) {
            chain.add(nav.fetch(chain.get(chain.size() - 1).node().rightSibling()));
        }
        if (chain.size() < 2) {
            return;
        }
        IndexEntry[] separators = new IndexEntry[chain.size() - 1];
        long[] children = new long[chain.size()];
        for (int i = 0; i < chain.size(); i++) {
            children[i] = chain.get(i).id();
            if (i > 0) {
                separators[i - 1] = chain.get(i).node().low();
            }
        }
        BTreeNode newRoot = BTreeNode.inner(store.newId(), topLevel + 1, null, null, 0, separators, children);
        NodeRef created = store.create(newRoot);
        hook.after(SplitStep.ROOT_WRITTEN, topLevel + 1);
        if (store.swingRoot(root, newRoot.id())) {
            nav.stats().rootsWritten.increment();
            nav.setRoot(newRoot.id());
            nav.cache().put(created);
            hook.after(SplitStep.ROOT_SWUNG, topLevel + 1);
        } else {
            store.discard(created);
        }
    }
}
