package io.tell.index.internal;

import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Many short scans of one tree at once: the cache routes each range's lower end to its leaf
 * without a read, all those leaves are read in one batch, and a range whose entries all lie in
 * its leaf is answered from it. A range running past its leaf's high fence, or whose leaf split
 * since the cache learnt of it, goes on along the right links as a scan does: the next leaves of
 * all such ranges in one batch more, for a few rounds. What a batch cannot answer (an uncached
 * route, a leaf that is gone or does not hold the range's start, a range still open after the
 * last round) is left to the caller.
 */
final class BatchScan {
    /** Batches of right siblings read after the first, at most. */
    static final int MAX_ROUNDS = 3;

    private BatchScan() {
    }

    /** Per range, its entries in ascending order, or null when the batch could not tell. */
    static List<List<IndexEntry>> run(BLinkTree tree, List<ScanRange> ranges) {
        List<List<IndexEntry>> out = new ArrayList<>(Collections.nCopies(ranges.size(), null));
        List<List<IndexEntry>> found = new ArrayList<>(Collections.nCopies(ranges.size(), null));
        Map<Integer, Long> next = new LinkedHashMap<>(); // per open range, the leaf to read next
        for (int i = 0; i < ranges.size(); i++) {
            long id = tree.navigator().route(BLinkTree.forwardStart(ranges.get(i)));
            if (id != 0) {
                next.put(i, id);
                found.set(i, new ArrayList<>());
            }
        }
        for (int round = 0; round <= MAX_ROUNDS && !next.isEmpty(); round++) {
            Map<Long, NodeRef> nodes = read(tree, next.values());
            Map<Integer, Long> after = new LinkedHashMap<>();
            for (Map.Entry<Integer, Long> open : next.entrySet()) {
                int i = open.getKey();
                NodeRef ref = nodes.get(open.getValue());
                long link = ref == null ? 0 : step(ref.node(), ranges.get(i), round == 0, found.get(i));
                if (link > 0) {
                    after.put(i, link);
                } else if (link == 0 && ref != null) {
                    out.set(i, found.get(i));
                }
            }
            next = after;
        }
        return out;
    }

    /** The nodes of {@code ids} (each read once, in one batch), by id; those missing left out. */
    private static Map<Long, NodeRef> read(BLinkTree tree, Collection<Long> ids) {
        List<Long> distinct = new ArrayList<>(new LinkedHashSet<>(ids));
        List<NodeRef> read = tree.nodeStore().readAll(distinct);
        Map<Long, NodeRef> nodes = new HashMap<>();
        for (int k = 0; k < distinct.size(); k++) {
            if (read.get(k) != null) {
                nodes.put(distinct.get(k), read.get(k));
            }
        }
        return nodes;
    }

    /**
     * Adds to {@code found} the entries of {@code range} in {@code node}; returns 0 when the range
     * ends in it, the right sibling to read next when it runs past it (or, for the range's
     * {@code first} leaf, when the start lies right of it after a split), -1 when the batch cannot
     * tell. A removed leaf on the way holds nothing; the range goes on along its link.
     */
    private static long step(BTreeNode node, ScanRange range, boolean first, List<IndexEntry> found) {
        IndexEntry start = BLinkTree.forwardStart(range);
        if (!node.isLeaf()) {
            return -1;
        }
        if (first && !node.covers(start, false)) {
            return !node.isRemoved() && node.beyondHigh(start, false) ? node.rightSibling() : -1;
        }
        for (int k = node.lowerBound(start); k < node.size() && range.belowUpper(node.entry(k).key()); k++) {
            if (range.aboveLower(node.entry(k).key())) {
                found.add(node.entry(k));
            }
        }
        return node.high() != null && range.belowUpper(node.high().key()) ? node.rightSibling() : 0;
    }
}
