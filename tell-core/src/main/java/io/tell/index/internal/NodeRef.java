package io.tell.index.internal;

/**
 * A node as read from the store: its logical id, the version of its mapping record when read
 * (what a change is conditional on), the physical record it came from (0 when the node lives
 * inline in its mapping record) and the node itself.
 */
public record NodeRef(long id, long version, long physicalId, BTreeNode node) {
}
