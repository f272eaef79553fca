package io.tell.index.internal;

import io.tell.index.IndexEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One node of the tree as a value: immutable, and unaware of where it is stored. A node is
 * responsible for the entries in {@code [low, high)} (a null fence is infinite) at its level
 * (0 = leaf). {@code rightSibling} is the logical id of the next node of the same level (0 at
 * the right end): the B-link that makes a half-finished split reachable.
 *
 * <p>A leaf holds sorted entries. An inner node holds {@code n} children and {@code n - 1}
 * separators: {@code separators[j]} is the low fence of {@code children[j + 1]}, and the first
 * child's low fence is the node's own. Low fences never change once a node exists (splits keep
 * the left part in place), which is what lets a stale route be repaired by moving right.
 *
 * <p>A <em>removed</em> leaf is an emptied leaf frozen on its way out of the tree
 * ({@link LeafRemover}): it keeps its fences and right link, holds nothing, covers nothing, and
 * never changes again; its range belongs to its left neighbour once that has absorbed it.
 *
 * <p>Search targets come in two modes: <em>at</em> {@code t} finds the node holding {@code t}
 * ({@code low <= t < high}); <em>before</em> {@code t} finds the node holding the entries just
 * below {@code t} ({@code low < t <= high}; a null {@code t} is then +infinity), which is how a
 * backward scan finds the left neighbour without left links.
 */
public final class BTreeNode {
    private final long id;
    private final int level;
    private final IndexEntry low;
    private final IndexEntry high;
    private final long rightSibling;
    private final IndexEntry[] keys;
    private final long[] children;
    private final boolean removed;

    private BTreeNode(long id, int level, IndexEntry low, IndexEntry high, long rightSibling,
                      IndexEntry[] keys, long[] children) {
        this(id, level, low, high, rightSibling, keys, children, false);
    }

    private BTreeNode(long id, int level, IndexEntry low, IndexEntry high, long rightSibling,
                      IndexEntry[] keys, long[] children, boolean removed) {
        this.removed = removed;
        this.id = id;
        this.level = level;
        this.low = low;
        this.high = high;
        this.rightSibling = rightSibling;
        this.keys = keys;
        this.children = children;
    }

    public static BTreeNode leaf(long id, IndexEntry low, IndexEntry high, long rightSibling, IndexEntry[] entries) {
        return new BTreeNode(id, 0, low, high, rightSibling, entries, null);
    }

    public static BTreeNode inner(long id, int level, IndexEntry low, IndexEntry high, long rightSibling,
                                  IndexEntry[] separators, long[] children) {
        if (level < 1 || children.length == 0 || separators.length != children.length - 1) {
            throw new IllegalArgumentException("bad inner node: level " + level + ", " + children.length
                    + " children, " + separators.length + " separators");
        }
        return new BTreeNode(id, level, low, high, rightSibling, separators, children);
    }

    /** This empty leaf, removed: it keeps its fences and right link and covers nothing any more. */
    public BTreeNode removed() {
        if (!isLeaf() || keys.length != 0 || low == null) {
            throw new IllegalStateException("only an empty leaf with a low fence can be removed: " + this);
        }
        return new BTreeNode(id, 0, low, high, rightSibling, keys, null, true);
    }

    /** True for a removed leaf (see {@link #removed()}). */
    public boolean isRemoved() {
        return removed;
    }

    /** This leaf, the left neighbour of the removed leaf {@code gone}, taking over its range and right link. */
    public BTreeNode absorbing(BTreeNode gone) {
        if (!isLeaf() || !gone.removed || rightSibling != gone.id || !gone.low.equals(high)) {
            throw new IllegalStateException(this + " cannot absorb " + gone);
        }
        return new BTreeNode(id, 0, low, gone.high, gone.rightSibling, keys, null);
    }

    private BTreeNode withChildAt(int i, long childId) {
        long[] outChildren = children.clone();
        outChildren[i] = childId;
        return new BTreeNode(id, level, low, high, rightSibling, keys, outChildren);
    }

    /** Inner node without child {@code i} ({@code i >= 1}) and its separator. */
    public BTreeNode withoutChild(int i) {
        if (isLeaf() || i < 1 || i >= children.length) {
            throw new IllegalArgumentException("cannot drop child " + i + " of " + this);
        }
        IndexEntry[] outKeys = new IndexEntry[keys.length - 1];
        System.arraycopy(keys, 0, outKeys, 0, i - 1);
        System.arraycopy(keys, i, outKeys, i - 1, keys.length - i);
        long[] outChildren = new long[children.length - 1];
        System.arraycopy(children, 0, outChildren, 0, i);
        System.arraycopy(children, i + 1, outChildren, i, children.length - i - 1);
        return new BTreeNode(id, level, low, high, rightSibling, outKeys, outChildren);
    }

    /** The result of splitting an over-full node: the left part keeps the node's id. */
    public record Split(BTreeNode left, BTreeNode right, IndexEntry separator) {
    }

    public long id() {
        return id;
    }

    public int level() {
        return level;
    }

    public boolean isLeaf() {
        return level == 0;
    }

    public IndexEntry low() {
        return low;
    }

    public IndexEntry high() {
        return high;
    }

    public long rightSibling() {
        return rightSibling;
    }

    /** Entries of a leaf, separators of an inner node. Do not modify. */
    IndexEntry[] keys() {
        return keys;
    }

    long[] children() {
        return children;
    }

    /** Entries (leaf) or children (inner node). */
    public int size() {
        return isLeaf() ? keys.length : children.length;
    }

    public IndexEntry entry(int i) {
        return keys[i];
    }

    public long child(int i) {
        return children[i];
    }

    /** The low fence of child {@code i}. */
    public IndexEntry childLow(int i) {
        return i == 0 ? low : keys[i - 1];
    }

    public boolean covers(IndexEntry t, boolean before) {
        if (removed) {
            return false;
        }
        if (!before) {
            return (low == null || low.compareTo(t) <= 0) && (high == null || t.compareTo(high) < 0);
        }
        return (low == null || t == null || low.compareTo(t) < 0) && (high == null || t != null && t.compareTo(high) <= 0);
    }

    /** True when the target lies right of this node, so the right sibling may hold it. */
    public boolean beyondHigh(IndexEntry t, boolean before) {
        if (high == null) {
            return false;
        }
        return before ? t == null || t.compareTo(high) > 0 : t.compareTo(high) >= 0;
    }

    /** Leaf: the first position whose entry is {@code >= t}. */
    public int lowerBound(IndexEntry t) {
        return lowerBoundIn(keys, keys.length, t);
    }

    /** The first position of the sorted {@code entries[0, size)} whose entry is {@code >= t}. */
    static int lowerBoundIn(IndexEntry[] entries, int size, IndexEntry t) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (entries[mid].compareTo(t) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Inner node: the index of the child to follow for {@code t}. */
    public int childIndex(IndexEntry t, boolean before) {
        if (t == null) {
            return children.length - 1;
        }
        int lo = 0;
        int hi = keys.length;
        while (lo < hi) { // count separators s with s <= t (at) or s < t (before)
            int mid = (lo + hi) >>> 1;
            int c = keys[mid].compareTo(t);
            if (c < 0 || c == 0 && !before) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public int childIndexOf(long childId) {
        for (int i = 0; i < children.length; i++) {
            if (children[i] == childId) {
                return i;
            }
        }
        return -1;
    }

    /** Leaf with {@code e} inserted at {@code pos}. */
    public BTreeNode withEntry(int pos, IndexEntry e) {
        IndexEntry[] out = new IndexEntry[keys.length + 1];
        System.arraycopy(keys, 0, out, 0, pos);
        out[pos] = e;
        System.arraycopy(keys, pos, out, pos + 1, keys.length - pos);
        return new BTreeNode(id, level, low, high, rightSibling, out, null);
    }

    /** This leaf (fences, link) holding {@code entries} instead, which must be sorted and within its fences. */
    BTreeNode withEntries(IndexEntry[] entries) {
        return new BTreeNode(id, level, low, high, rightSibling, entries, null);
    }

    /** Leaf without the entry at {@code pos}. */
    public BTreeNode withoutEntry(int pos) {
        IndexEntry[] out = new IndexEntry[keys.length - 1];
        System.arraycopy(keys, 0, out, 0, pos);
        System.arraycopy(keys, pos + 1, out, pos, keys.length - pos - 1);
        return new BTreeNode(id, level, low, high, rightSibling, out, null);
    }

    /**
     * Inner node with a new child whose low fence is {@code separator}, which must lie inside
     * this node's range. A child already listed with that low fence can only be a removed leaf
     * (live nodes of a level never share a low fence): after its left neighbour took over its
     * range, a split there may make a new leaf starting where it started. The new child then
     * takes its place.
     */
    public BTreeNode withChild(IndexEntry separator, long childId) {
        if (separator.equals(low)) {
            return withChildAt(0, childId);
        }
        int pos = childIndex(separator, true); // separators below it; the new child goes after them
        if (pos < keys.length && keys[pos].equals(separator)) {
            return withChildAt(pos + 1, childId);
        }
        IndexEntry[] outKeys = new IndexEntry[keys.length + 1];
        System.arraycopy(keys, 0, outKeys, 0, pos);
        outKeys[pos] = separator;
        System.arraycopy(keys, pos, outKeys, pos + 1, keys.length - pos);
        long[] outChildren = new long[children.length + 1];
        System.arraycopy(children, 0, outChildren, 0, pos + 1);
        outChildren[pos + 1] = childId;
        System.arraycopy(children, pos + 1, outChildren, pos + 2, children.length - pos - 1);
        return new BTreeNode(id, level, low, high, rightSibling, outKeys, outChildren);
    }

    /**
     * Splits this (over-full) node: the left part keeps the id, the low fence and the first
     * entries, gets {@code high = separator} and links to the new right node {@code rightId},
     * which takes the rest, the old high fence and the old sibling. When the last position of
     * the rightmost node of a level just grew ({@code appended}), the left part stays full and
     * the right one starts with that entry alone, so ascending inserts fill nodes completely.
     */
    public Split split(long rightId, boolean appended) {
        int n = size();
        if (n < 2) {
            throw new IllegalStateException("cannot split a node of size " + n);
        }
        int at = appended && high == null ? n - 1 : n / 2;
        if (isLeaf()) {
            IndexEntry sep = separatorBetween(keys[at - 1], keys[at]);
            BTreeNode left = leaf(id, low, sep, rightId, Arrays.copyOfRange(keys, 0, at));
            BTreeNode right = leaf(rightId, sep, high, rightSibling, Arrays.copyOfRange(keys, at, n));
            return new Split(left, right, sep);
        }
        IndexEntry sep = keys[at - 1];
        BTreeNode left = inner(id, level, low, sep, rightId,
                Arrays.copyOfRange(keys, 0, at - 1), Arrays.copyOfRange(children, 0, at));
        BTreeNode right = inner(rightId, level, sep, high, rightSibling,
                Arrays.copyOfRange(keys, at, n - 1), Arrays.copyOfRange(children, at, n));
        return new Split(left, right, sep);
    }

    /**
     * Splits this over-full node into as many nodes as it takes to hold at most
     * {@code capacity} entries (children, for an inner node) each, chained by right links: the
     * first keeps the id and the low fence, each further one gets an id from {@code ids}, the
     * last the old high fence and sibling. Each node's low fence is its separator: between two
     * leaf entries, or for an inner node the separator in front of the part's first child. When
     * the new entries were all appended to the rightmost node of its level ({@code appended}),
     * nodes are filled to capacity in turn, so that a bulk load of ascending keys leaves full
     * nodes; otherwise the entries are shared evenly.
     */
    public List<BTreeNode> splitInto(int capacity, boolean appended, LongSupplier ids) {
        int n = size();
        if (n <= capacity || removed) {
            throw new IllegalStateException("only an over-full node splits into parts: " + n + " entries");
        }
        int parts = (n + capacity - 1) / capacity;
        long[] partIds = new long[parts];
        partIds[0] = id;
        for (int i = 1; i < parts; i++) {
            partIds[i] = ids.getAsLong();
        }
        List<BTreeNode> out = new ArrayList<>(parts);
        IndexEntry partLow = low;
        int from = 0;
        for (int i = 0; i < parts; i++) {
            int to = appended && high == null ? Math.min(n, from + capacity) : (int) ((long) n * (i + 1) / parts);
            boolean last = i == parts - 1;
            long right = last ? rightSibling : partIds[i + 1];
            IndexEntry partHigh;
            if (isLeaf()) {
                partHigh = last ? high : separatorBetween(keys[to - 1], keys[to]);
                out.add(leaf(partIds[i], partLow, partHigh, right, Arrays.copyOfRange(keys, from, to)));
            } else {
                partHigh = last ? high : keys[to - 1];
                out.add(inner(partIds[i], level, partLow, partHigh, right,
                        Arrays.copyOfRange(keys, from, to - 1), Arrays.copyOfRange(children, from, to)));
            }
            partLow = partHigh;
            from = to;
        }
        return out;
    }

    /**
     * The separator between two adjacent leaf entries: {@code (key, Long.MIN_VALUE)} when their
     * keys differ, so every rid of a key routes to the same leaf (what unique lookups rely on);
     * the right entry itself only inside a run of duplicates of one key.
     */
    static IndexEntry separatorBetween(IndexEntry left, IndexEntry right) {
        return left.sameKey(right) ? right : new IndexEntry(right.key(), Long.MIN_VALUE);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append(removed ? "removed leaf " : isLeaf() ? "leaf " : "inner ").append(id).append(" L").append(level)
                .append(" [").append(low == null ? "-inf" : low).append(", ").append(high == null ? "+inf" : high)
                .append(") -> ").append(rightSibling).append(' ');
        if (isLeaf()) {
            sb.append(Arrays.toString(keys));
        } else {
            sb.append(children[0]);
            for (int i = 0; i < keys.length; i++) {
                sb.append(" | ").append(keys[i]).append(' ').append(children[i + 1]);
            }
        }
        return sb.toString();
    }
}
