package io.tell.index.internal;

import io.tell.index.IndexEntry;
import io.tell.store.KeyRange;
import io.tell.store.RecordStore;
import io.tell.store.StoredRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Walks a whole tree in the store and checks its invariants; meant for a quiet tree (tests,
 * tools). It accepts every state a stopped split can leave: nodes whose separator the parent
 * lacks (reachable along right links) and a top level of several nodes (root not yet written);
 * and every state a stopped leaf removal can leave: a removed leaf still on its level's chain,
 * or off it but still a child of its parent.
 *
 * <p>Checked: the root pointer names a node with no low fence; each level is one chain along
 * right links from its leftmost node, fences continuous ({@code high} of one is {@code low} of
 * the next), from -infinity to +infinity; keys sorted and inside their node's fences; every
 * mapping record leads to a node with its own id; each child is on the level below, its low
 * fence equal to its separator, children in chain order; unique trees have one entry per key and
 * rid-free separators; and every entry is found by a search from the root.
 */
public final class TreeValidator {
    private static final int MAX_NODES = 10_000_000;

    /** What the walk found. {@code entries} are all entries in order. */
    public record Report(int height, List<Integer> nodesPerLevel, List<IndexEntry> entries, int missingSeparators,
                         int topLevelNodes, int emptyLeaves, int maxNodeSize, int unreachableMappings,
                         int unreferencedPhysical, int removedLeaves) {
    }

    private final NodeStore store;
    private final boolean unique;
    private final Map<Long, NodeRef> nodes = new HashMap<>();

    private TreeValidator(RecordStore store, String name) {
        this.store = new NodeStore(store, name, true, 1, 0);
        RootRecord root = this.store.readRoot();
        check(root != null, "no meta record for tree " + name);
        this.unique = root.unique();
    }

    /** Validates tree {@code name}; throws {@link IllegalStateException} naming the first violation. */
    public static Report validate(RecordStore store, String name) {
        return new TreeValidator(store, name).run();
    }

    private Report run() {
        RootRecord root = store.readRoot();
        BTreeNode top = read(root.rootId()).node();
        check(top.low() == null, "root " + top + " has a low fence");
        int height = top.level();
        List<List<BTreeNode>> levels = new ArrayList<>(); // levels.get(k) = level height - k
        BTreeNode leftmost = top;
        for (int level = height; level >= 0; level--) {
            List<BTreeNode> chain = chain(leftmost, level);
            levels.add(chain);
            if (level > 0) {
                leftmost = read(chain.get(0).child(0)).node();
            }
        }
        int missing = 0;
        for (int k = 0; k < height; k++) {
            missing += checkChildren(levels.get(k), levels.get(k + 1));
        }
        List<IndexEntry> entries = new ArrayList<>();
        int empty = 0;
        int maxSize = 0;
        List<Integer> perLevel = new ArrayList<>();
        for (List<BTreeNode> chain : levels) {
            perLevel.add(chain.size());
            for (BTreeNode n : chain) {
                maxSize = Math.max(maxSize, n.size());
            }
        }
        for (BTreeNode leaf : levels.get(height)) {
            empty += leaf.size() == 0 ? 1 : 0;
            for (int i = 0; i < leaf.size(); i++) {
                IndexEntry e = leaf.entry(i);
                if (unique && !entries.isEmpty()) {
                    check(!entries.get(entries.size() - 1).sameKey(e), "unique tree holds key twice: " + e);
                }
                entries.add(e);
            }
        }
        for (IndexEntry e : entries) {
            checkReachable(top, e, levels.get(height));
        }
        int[] mappings = mappings();
        return new Report(height, perLevel, entries, missing, levels.get(0).size(), empty, maxSize,
                mappings[0], unreferencedPhysical(), mappings[1]);
    }

    /** The level's nodes along right links; checks fences, order and sizes of each. */
    private List<BTreeNode> chain(BTreeNode leftmost, int level) {
        check(leftmost.low() == null, "leftmost node of level " + level + " has a low fence: " + leftmost);
        List<BTreeNode> chain = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        BTreeNode n = leftmost;
        while (true) {
            check(seen.add(n.id()) && seen.size() < MAX_NODES, "cycle on level " + level + " at " + n);
            check(n.level() == level, "node on level " + n.level() + " in chain of level " + level + ": " + n);
            checkKeys(n);
            chain.add(n);
            if (n.rightSibling() == 0) {
                check(n.high() == null, "rightmost node of level " + level + " has a high fence: " + n);
                return chain;
            }
            check(n.high() != null, "node with a right link but no high fence: " + n);
            BTreeNode next = read(n.rightSibling()).node();
            check(next.low() != null && next.low().equals(n.high()),
                    "fences do not meet between " + n + " and " + next);
            n = next;
        }
    }

    private void checkKeys(BTreeNode n) {
        IndexEntry previous = n.low();
        for (int i = 0; i < n.keys().length; i++) {
            IndexEntry k = n.keys()[i];
            boolean ordered = previous == null || (n.isLeaf() && i == 0 ? k.compareTo(previous) >= 0 : k.compareTo(previous) > 0);
            check(ordered, "key " + k + " out of order in " + n);
            check(n.high() == null || k.compareTo(n.high()) < 0, "key " + k + " not below the high fence of " + n);
            if (unique && !n.isLeaf()) {
                check(k.rid() == Long.MIN_VALUE, "separator with a rid in a unique tree: " + n);
            }
            previous = k;
        }
        if (unique && n.low() != null) {
            check(n.low().rid() == Long.MIN_VALUE, "fence with a rid in a unique tree: " + n);
        }
        check(n.isLeaf() || n.size() >= 1, "inner node without children: " + n);
    }

    /**
     * Children of the parents, in order, must be nodes of the child level in chain order, each
     * with its separator as low fence. Nodes skipped in between lack a separator (legal).
     */
    private int checkChildren(List<BTreeNode> parents, List<BTreeNode> children) {
        Map<Long, Integer> position = new HashMap<>();
        for (int i = 0; i < children.size(); i++) {
            position.put(children.get(i).id(), i);
        }
        int last = -1;
        int referenced = 0;
        for (BTreeNode p : parents) {
            for (int i = 0; i < p.size(); i++) {
                Integer pos = position.get(p.child(i));
                if (pos == null && read(p.child(i)).node().isRemoved()) {
                    continue; // absorbed by its left neighbour, its separator not yet dropped
                }
                check(pos != null, "child " + p.child(i) + " of " + p + " is not on the chain of level " + (p.level() - 1));
                check(pos > last, "children out of chain order in " + p);
                check(last >= 0 || pos == 0, "the first child of level " + p.level() + " is not leftmost");
                check(Objects.equals(children.get(pos).low(), p.childLow(i)),
                        "child " + children.get(pos) + " does not start at its separator in " + p);
                last = pos;
                referenced++;
            }
        }
        return children.size() - referenced;
    }

    /**
     * Searches for {@code e} from the root as a client with an empty cache would; from a removed
     * leaf, at its left neighbour on the chain of {@code leaves}.
     */
    private void checkReachable(BTreeNode root, IndexEntry e, List<BTreeNode> leaves) {
        IndexEntry target = unique ? new IndexEntry(e.key(), Long.MIN_VALUE) : e;
        BTreeNode n = root;
        while (true) {
            if (n.isRemoved()) {
                n = leftOf(n, leaves);
            }
            while (!n.covers(target, false)) {
                check(n.beyondHigh(target, false) && n.rightSibling() != 0, "search for " + e + " lost at " + n);
                n = read(n.rightSibling()).node();
            }
            if (n.isLeaf()) {
                int pos = n.lowerBound(e);
                check(pos < n.size() && n.entry(pos).equals(e), "search for " + e + " ends in " + n + " without it");
                return;
            }
            n = read(n.child(n.childIndex(target, false))).node();
        }
    }

    /** The chain's leaf that ends where the removed leaf {@code gone} begins, or covers its range. */
    private static BTreeNode leftOf(BTreeNode gone, List<BTreeNode> leaves) {
        BTreeNode left = null;
        for (BTreeNode leaf : leaves) {
            if (leaf.low() != null && leaf.low().compareTo(gone.low()) >= 0) {
                break;
            }
            left = leaf;
        }
        check(left != null, "removed leaf " + gone + " has no left neighbour");
        return left;
    }

    /** Mapping records no walk reached that are not removed leaves, and removed leaves. */
    private int[] mappings() {
        int unreachable = 0;
        int removed = 0;
        for (StoredRecord r : store.store().scan(store.mapDomain(), KeyRange.ALL, Integer.MAX_VALUE)) {
            if (NodeStore.holdsRemovedLeaf(r.value())) {
                removed++;
            } else if (!nodes.containsKey(Bytes.getLong(r.key(), 0))) {
                unreachable++;
            }
        }
        return new int[] {unreachable, removed};
    }

    private int unreferencedPhysical() {
        Set<Long> referenced = new HashSet<>();
        for (NodeRef r : nodes.values()) {
            referenced.add(r.physicalId());
        }
        int count = 0;
        for (StoredRecord r : store.store().scan(store.nodeDomain(), KeyRange.ALL, Integer.MAX_VALUE)) {
            count += referenced.contains(Bytes.getLong(r.key(), 0)) ? 0 : 1;
        }
        return count;
    }

    private NodeRef read(long id) {
        NodeRef r = nodes.get(id);
        if (r == null) {
            r = store.read(id);
            check(r != null, "node " + id + " is referenced but has no mapping record");
            nodes.put(id, r);
        }
        return r;
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("invalid b-tree: " + what);
        }
    }
}
