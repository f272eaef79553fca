package io.tell.index.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the node responsible for a search target: the back-down search of Yesquel (§4.1) over
 * this client's cache of inner nodes, combined with B-link moves to the right.
 *
 * <p>The search runs down the cached inner nodes while their fences cover the target and reads
 * only the node at the level asked for (always a leaf, for entry operations) from the store.
 * When a node does not cover the target, the search backs up: if the node above it came from
 * the cache, that node is re-read (and the cache refreshed) and the search goes down again
 * from there; if it was read fresh, the target lies right of the node, behind a split whose
 * separator the parent lacks, and the search follows the right-sibling link. Since low fences
 * never change and separators are only ever added, a stale route can only end left of the
 * target, never right of it, so these two moves always reach the right node. A search that
 * takes too many steps (a badly stale cache) drops the cache and starts over, as Yesquel does.
 *
 * <p>A leaf found removed ({@link LeafRemover}) with the target in its range, under a parent read
 * fresh, sends the search to its left neighbour, which holds that range once the removal is
 * finished: the search finishes it first.
 *
 * <p>Thread-safe: all search state is local; the root id is a volatile hint.
 */
final class Navigator {
    private static final int MAX_STEPS = 100;
    private static final int MAX_RESTARTS = 1000;

    private final NodeStore store;
    private final NodeCache cache;
    private final TreeStats stats;
    private volatile long rootId;
    private LeafRemover remover;

    Navigator(NodeStore store, NodeCache cache, TreeStats stats, long rootId) {
        this.store = store;
        this.cache = cache;
        this.stats = stats;
        this.rootId = rootId;
    }

    TreeStats stats() {
        return stats;
    }

    /** Who finishes removals this client's searches run into; set once, right after construction. */
    void setRemover(LeafRemover remover) {
        this.remover = remover;
    }

    NodeStore store() {
        return store;
    }

    NodeCache cache() {
        return cache;
    }

    /** Re-reads the root pointer. One round trip. */
    RootRecord readRoot() {
        RootRecord r = store.readRoot();
        if (r == null) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "b-tree meta record vanished");
        }
        rootId = r.rootId();
        return r;
    }

    /**
     * The node at {@code level} that holds {@code target} (see {@link BTreeNode} for the
     * {@code before} mode): a leaf is always read from the store during this call, an inner
     * node may come from the cache. Null when the tree has no such level (the root is lower).
     */
    Path descend(IndexEntry target, boolean before, int level) {
        ArrayDeque<Path.Frame> stack = new ArrayDeque<>();
        List<Path.Missing> missing = new ArrayList<>();
        boolean rootChecked = false;
        Path.Frame cur = start(false);
        long startId = cur.ref().id();
        int steps = 0;
        int restarts = 0;
        while (true) {
            if (++steps > MAX_STEPS) {
                if (++restarts > MAX_RESTARTS) {
                    throw TellException.of(ErrorCode.INTERNAL, "b-tree search does not converge for " + target);
                }
                stats.restarts.increment();
                cache.clear();
                stack.clear();
                missing.clear();
                steps = 0;
                cur = start(true);
                startId = cur.ref().id();
                rootChecked = true;
                continue;
            }
            BTreeNode n = cur.ref().node();
            if (n.level() < level) { // only at the top: the tree is lower than asked, or our root is old
                if (!rootChecked) {
                    rootChecked = true;
                    cur = start(true);
                    startId = cur.ref().id();
                    continue;
                }
                return null;
            }
            if (!n.covers(target, before)) {
                Path.Frame parent = stack.peek();
                if (parent != null && !parent.fresh()) { // back phase: the cached parent is stale
                    stats.backUps.increment();
                    stack.pop();
                    cur = refetch(parent.ref());
                    continue;
                }
                if (!cur.fresh()) {
                    cur = refetch(cur.ref());
                    continue;
                }
                if (parent == null && !rootChecked) { // did the tree grow a root above where we started?
                    rootChecked = true;
                    if (readRoot().rootId() != startId) {
                        stack.clear();
                        cur = start(false);
                        startId = cur.ref().id();
                        continue;
                    }
                }
                if (n.beyondHigh(target, before) && n.rightSibling() != 0) {
                    cur = rightUntilCovering(cur, target, before, missing, parent);
                    continue;
                }
                if (n.isRemoved()) {
                    remover.finish(n);
                    Path left = descend(n.low(), true, 0);
                    stack = left.ancestors();
                    cur = new Path.Frame(left.node(), true);
                    // n's range went to the leaf that absorbed it, and perhaps on to leaves split
                    // off that one since, which no parent may list yet (a client stopped before
                    // posting): along the links from it, not back up through parents that route
                    // to n again.
                    cur = rightUntilCovering(cur, target, before, missing, stack.peek());
                    continue;
                }
                throw TellException.of(ErrorCode.CORRUPT_DATA, "no b-tree node holds " + target + ": " + n);
            }
            if (n.level() == level) {
                return new Path(cur.ref(), cur.fresh(), stack, missing);
            }
            stack.push(cur);
            long childId = n.child(n.childIndex(target, before));
            NodeRef cached = n.level() > 1 ? cache.get(childId) : null;
            cur = cached != null ? new Path.Frame(cached, false) : new Path.Frame(fetch(childId), true);
            if (cur.ref().node().level() != n.level() - 1) {
                throw TellException.of(ErrorCode.CORRUPT_DATA, "child " + childId + " of " + n + " is on level "
                        + cur.ref().node().level());
            }
        }
    }

    /**
     * Where the cache alone routes {@code target}, reading nothing: the leaf when the cached
     * inner nodes cover the target all the way down, otherwise the first node on the way that is
     * not cached (the root, for a tree whose root is a leaf) or does not cover the target. A
     * caller reads that node and checks it is a leaf covering the target. 0 before this client
     * knows the root.
     */
    long route(IndexEntry target) {
        long id = rootId;
        while (id != 0) {
            NodeRef cached = cache.get(id);
            if (cached == null || cached.node().isLeaf() || !cached.node().covers(target, false)) {
                return id;
            }
            BTreeNode n = cached.node();
            id = n.child(n.childIndex(target, false));
        }
        return 0;
    }

    /**
     * The cached inner node at {@code level} that covers {@code target}, as the cache alone
     * routes it from the root, reading nothing; null when some node on the way is not cached or
     * does not cover the target. It may be stale: a write conditional on its version tells.
     */
    NodeRef cachedAt(IndexEntry target, int level) {
        NodeRef cur = rootId == 0 ? null : cache.get(rootId);
        while (cur != null && cur.node().level() >= level && cur.node().covers(target, false)) {
            BTreeNode n = cur.node();
            if (n.level() == level) {
                return cur;
            }
            cur = n.level() > 1 ? cache.get(n.child(n.childIndex(target, false))) : null;
        }
        return null;
    }

    /**
     * Up to {@code n} leaf ids in key order starting with leaf {@code id} (whose low fence is
     * {@code low}), as this client's cached parent of that leaf lists them and after it the
     * cached parents to its right, reading nothing: what a forward scan is likely to visit next.
     * Just {@code id} when the parent is not cached or does not list it.
     */
    List<Long> leavesFrom(IndexEntry low, long id, int n) {
        List<Long> out = new ArrayList<>();
        out.add(id);
        NodeRef cached = cachedAt(low, 1);
        if (cached == null) {
            return out;
        }
        BTreeNode parent = cached.node();
        int at = parent.childIndexOf(id);
        if (at < 0) {
            return out;
        }
        for (int i = at + 1; out.size() < n; i++) {
            if (i == parent.size()) {
                NodeRef next = parent.rightSibling() == 0 ? null : cache.get(parent.rightSibling());
                if (next == null || next.node().level() != 1 || !next.node().low().equals(parent.high())) {
                    break;
                }
                parent = next.node();
                i = 0;
            }
            out.add(parent.child(i));
        }
        return out;
    }

    /** Reads node {@code id} from the store and caches it if it is an inner node. */
    NodeRef fetch(long id) {
        NodeRef r = store.read(id);
        if (r == null) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "b-tree node " + id + " is referenced but absent");
        }
        cache.put(r);
        return r;
    }

    /** The current state of a node known in some older state; refreshes the cache. */
    NodeRef refresh(NodeRef known) {
        NodeRef r = store.refresh(known);
        if (r == null) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "b-tree node " + known.id() + " is referenced but absent");
        }
        cache.put(r);
        return r;
    }

    void setRoot(long id) {
        rootId = id;
    }

    /**
     * From the fresh node {@code from} right along the links while {@code target} lies beyond a
     * node's high fence; notes the nodes reached that no parent may list yet in {@code missing}
     * ({@code parent} a guess where to post them).
     */
    private Path.Frame rightUntilCovering(Path.Frame from, IndexEntry target, boolean before, List<Path.Missing> missing,
                                          Path.Frame parent) {
        Path.Frame cur = from;
        for (int hop = 0; hop < MAX_STEPS; hop++) {
            BTreeNode n = cur.ref().node();
            if (n.covers(target, before) || !n.beyondHigh(target, before) || n.rightSibling() == 0) {
                return cur;
            }
            stats.movesRight.increment();
            NodeRef right = fetch(n.rightSibling());
            if (!right.node().isRemoved()) { // a removed leaf is no separator to post
                missing.add(new Path.Missing(n.level() + 1, n.high(), n.rightSibling(), parent));
            }
            cur = new Path.Frame(right, true);
        }
        return cur;
    }

    private Path.Frame refetch(NodeRef known) {
        return new Path.Frame(refresh(known), true);
    }

    private Path.Frame start(boolean fromStore) {
        long id = fromStore || rootId == 0 ? readRoot().rootId() : rootId;
        NodeRef cached = fromStore ? null : cache.get(id);
        return cached != null ? new Path.Frame(cached, false) : new Path.Frame(fetch(id), true);
    }
}
