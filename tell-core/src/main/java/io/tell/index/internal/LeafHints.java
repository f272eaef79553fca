package io.tell.index.internal;

import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;

/**
 * For nodes stored out of line: the physical record this client saw last for a logical id, so
 * that a read can fetch the mapping record and (probably) the node in one batch. Holds ids
 * only, never node contents, so leaves are still always read from the store. Bounded; when
 * full, arbitrary entries go (a lost hint costs one round trip, never a wrong answer).
 */
final class LeafHints {
    private final int capacity;
    private final ConcurrentHashMap<Long, Long> hints = new ConcurrentHashMap<>();

    LeafHints(int capacity) {
        this.capacity = capacity;
    }

    long get(long id) {
        Long h = capacity == 0 ? null : hints.get(id);
        return h == null ? 0 : h;
    }

    void put(long id, long physicalId) {
        if (capacity == 0) {
            return;
        }
        hints.put(id, physicalId);
        if (hints.size() > capacity) {
            Iterator<Long> it = hints.keySet().iterator();
            for (int i = 0; i < capacity / 8 + 1 && it.hasNext(); i++) {
                it.next();
                it.remove();
            }
        }
    }
}
