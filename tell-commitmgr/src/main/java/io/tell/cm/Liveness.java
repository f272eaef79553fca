package io.tell.cm;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Tells from heartbeats read in the store whether their writers are alive, by this process's
 * own clock only: a writer is expired once its heartbeat has not changed for its timeout,
 * counted from when this process first saw the current value (which is after it was
 * written). Not thread-safe.
 */
final class Liveness<K> {
    private record Seen(long heartbeat, long sinceNanos) {
    }

    private final Map<K, Seen> seen = new HashMap<>();

    /** Records {@code heartbeat} of {@code key} as read at {@code nowNanos}; true when it has not changed for {@code timeoutNanos}. */
    boolean expired(K key, long heartbeat, long timeoutNanos, long nowNanos) {
        Seen s = seen.get(key);
        if (s == null || s.heartbeat() != heartbeat) {
            seen.put(key, new Seen(heartbeat, nowNanos));
            return false;
        }
        return nowNanos - s.sinceNanos() >= timeoutNanos;
    }

    /** Forgets keys no longer in the store. */
    void retain(Set<K> present) {
        seen.keySet().retainAll(present);
    }
}
