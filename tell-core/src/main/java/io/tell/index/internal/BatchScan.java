package io.tell.index.internal;

import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Many short scans of one tree at once: the cache routes each range's lower end to its leaf
 * without a read, all those leaves are read in one batch, and a range whose entries all lie in
 * its leaf is answered from it. What a batch cannot answer (an uncached route, a leaf that is
 * not the one routed to, a range running past the leaf's high fence) is left to the caller.
 */
final class BatchScan {
    private BatchScan() {
    }

    /** Per range, its entries in ascending order, or null when the batch could not tell. */
    static List<List<IndexEntry>> run(BLinkTree tree, List<ScanRange> ranges) {
        List<List<IndexEntry>> out = new ArrayList<>(Collections.nCopies(ranges.size(), null));
        List<Integer> routed = new ArrayList<>();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            long id = tree.navigator().route(BLinkTree.forwardStart(ranges.get(i)));
            if (id != 0) {
                routed.add(i);
                ids.add(id);
            }
        }
        if (ids.isEmpty()) {
            return out;
        }
        List<Long> distinct = ids.stream().distinct().toList();
        List<NodeRef> read = tree.nodeStore().readAll(distinct);
        Map<Long, NodeRef> nodes = new HashMap<>();
        for (int k = 0; k < distinct.size(); k++) {
            nodes.put(distinct.get(k), read.get(k));
        }
        for (int j = 0; j < routed.size(); j++) {
            NodeRef ref = nodes.get(ids.get(j));
            int i = routed.get(j);
            if (ref != null) {
                out.set(i, entries(ref.node(), ranges.get(i)));
            }
        }
        return out;
    }

    /** The range's entries if {@code leaf} holds all of them, else null. */
    private static List<IndexEntry> entries(BTreeNode leaf, ScanRange range) {
        IndexEntry start = BLinkTree.forwardStart(range);
        if (!leaf.isLeaf() || !leaf.covers(start, false) || leaf.high() != null && range.belowUpper(leaf.high().key())) {
            return null;
        }
        List<IndexEntry> found = new ArrayList<>();
        for (int i = leaf.lowerBound(start); i < leaf.size() && range.belowUpper(leaf.entry(i).key()); i++) {
            if (range.aboveLower(leaf.entry(i).key())) {
                found.add(leaf.entry(i));
            }
        }
        return found;
    }
}
