package io.tell.index.internal;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The leaves this client's batch inserts wrote last, as written (their new store versions):
 * the next batch into such a leaf plans on that state and writes it conditionally on that
 * version, without reading it first. A leaf someone else changed since fails the write, and
 * the batch reads it then. Appends to the same leaves (a table's newest rows, a queue's back)
 * cost one round trip instead of two. Bounded: when full it starts over.
 */
final class WrittenLeaves {
    static final int CAPACITY = 1024;

    private final ConcurrentHashMap<Long, NodeRef> leaves = new ConcurrentHashMap<>();

    NodeRef get(long id) {
        return leaves.get(id);
    }

    void put(NodeRef leaf) {
        if (leaves.size() >= CAPACITY) {
            leaves.clear();
        }
        leaves.put(leaf.id(), leaf);
    }

    void forget(long id) {
        leaves.remove(id);
    }
}
