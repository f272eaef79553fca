package io.tell.index.internal;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;

/**
 * For nodes stored out of line: the physical record this client saw last for a logical id,
 * decoded. Physical records are written once and never change, so while a node's mapping
 * still points to that record the decoded node is its current state: a read then fetches only
 * the mapping record and decodes nothing. The mapping itself is always read from the store.
 * Bounded; when full, arbitrary entries go (a lost hint costs one round trip, never a wrong
 * answer).
 */
final class LeafHints {
    /** The decoded contents of physical record {@code physicalId}. */
    record Hint(long physicalId, BTreeNode node) {
    }

    private final int capacity;
    private final ConcurrentHashMap<Long, Hint> hints = new ConcurrentHashMap<>();

    LeafHints(int capacity) {
        this.capacity = capacity;
    }

    Hint get(long id) {
        return capacity == 0 ? null : hints.get(id);
    }

    void put(long id, long physicalId, BTreeNode node) {
        if (capacity == 0) {
            return;
        }
        hints.put(id, new Hint(physicalId, node));
        if (hints.size() > capacity) {
            Iterator<Long> it = hints.keySet().iterator();
            for (int i = 0; i < capacity / 8 + 1 && it.hasNext(); i++) {
                it.next();
                it.remove();
            }
        }
    }
}
