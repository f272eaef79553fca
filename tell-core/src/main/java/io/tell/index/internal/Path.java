package io.tell.index.internal;

import io.tell.index.IndexEntry;
import java.util.ArrayDeque;
import java.util.List;

/**
 * Where a search ended: the node at the level asked for (read from the store during the search
 * if {@code fresh}; a leaf always is), and the inner nodes passed on the way (innermost first),
 * each cached or fresh. {@code missing}
 * lists separators the search found missing from a freshly read parent (it had to move right),
 * for a writer to post.
 */
record Path(NodeRef node, boolean fresh, ArrayDeque<Frame> ancestors, List<Missing> missing) {

    /** A node on the way down and whether this search read it from the store. */
    record Frame(NodeRef ref, boolean fresh) {
    }

    /**
     * A separator ({@code low} of node {@code child}) absent from {@code parent} (null when the
     * child is on the top level, i.e. a root split is unfinished), at level {@code level}.
     */
    record Missing(int level, IndexEntry low, long child, Frame parent) {
    }
}
