package io.tell.index.internal;

/** The tree's meta record as read: the root's logical id, the record's version, the unique flag. */
public record RootRecord(long rootId, long version, boolean unique) {
}
