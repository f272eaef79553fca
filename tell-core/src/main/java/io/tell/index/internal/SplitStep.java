package io.tell.index.internal;

/** The single conditional writes of a split, and of a leaf's removal, in protocol order; see {@link SplitHook}. */
public enum SplitStep {
    /** The new right sibling was written (insert-if-absent); nothing reaches it yet. */
    RIGHT_WRITTEN,
    /** The splitting node now ends at the separator and links to the new sibling. */
    LEFT_SWUNG,
    /** The separator of the new sibling is in the parent. */
    SEPARATOR_POSTED,
    /** A new root above the top level was written; the root pointer does not know it yet. */
    ROOT_WRITTEN,
    /** The root pointer now names the new root. */
    ROOT_SWUNG,
    /** An emptied leaf was frozen as removed; its left neighbour does not cover its range yet. */
    LEAF_REMOVED,
    /** The removed leaf's left neighbour took over its range and right link. */
    LEFT_ABSORBED,
    /** The removed leaf's separator is gone from its parent. */
    CHILD_UNLINKED
}
