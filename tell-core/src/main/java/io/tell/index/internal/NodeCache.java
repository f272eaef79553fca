package io.tell.index.internal;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A processing node's cache of inner nodes, bounded in entries and shared by the threads of
 * one tree client. Entries are never trusted: every search validates them against fence keys
 * and replaces a stale one when it meets the current state. A {@link ConcurrentHashMap} with a
 * CLOCK-style second chance instead of an LRU list, so that the many cache hits of every search
 * never contend on a lock; the upper levels, touched by every search, stay hot.
 */
final class NodeCache {
    private final int capacity;
    private final ConcurrentHashMap<Long, Slot> slots = new ConcurrentHashMap<>();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

    private static final class Slot {
        final NodeRef ref;
        volatile boolean hot = true;

        Slot(NodeRef ref) {
            this.ref = ref;
        }
    }

    NodeCache(int capacity) {
        this.capacity = capacity;
    }

    NodeRef get(long id) {
        Slot s = capacity == 0 ? null : slots.get(id);
        if (s == null) {
            misses.increment();
            return null;
        }
        hits.increment();
        if (!s.hot) {
            s.hot = true; // written only when cleared: the upper levels' slots, read by every search, stay shared in every core's cache
        }
        return s.ref;
    }

    /** Caches an inner node's state unless a newer one is cached already; leaves are ignored. */
    void put(NodeRef ref) {
        if (capacity == 0 || ref.node().isLeaf()) {
            return;
        }
        slots.merge(ref.id(), new Slot(ref), (old, neu) -> old.ref.version() >= neu.ref.version() ? old : neu);
        if (slots.size() > capacity) {
            evict();
        }
    }

    void clear() {
        slots.clear();
    }

    int size() {
        return slots.size();
    }

    long hits() {
        return hits.sum();
    }

    long misses() {
        return misses.sum();
    }

    private void evict() {
        int target = capacity - capacity / 8;
        for (int pass = 0; pass < 2 && slots.size() > target; pass++) {
            Iterator<Map.Entry<Long, Slot>> it = slots.entrySet().iterator();
            while (it.hasNext() && slots.size() > target) {
                Slot s = it.next().getValue();
                if (s.hot) {
                    s.hot = false;
                } else {
                    it.remove();
                }
            }
        }
    }
}
