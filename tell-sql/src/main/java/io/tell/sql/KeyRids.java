package io.tell.sql;

import io.tell.store.HashedKey;
import java.util.concurrent.ConcurrentHashMap;

/**
 * For one unique index of one node: the rid each key was last found at. A hint, never an
 * answer: a reader fetches the row at the hinted rid and uses it only if the version its
 * snapshot sees holds the key. Under snapshot isolation at most one row visible to a snapshot
 * holds a unique key (claims let only one live row hold it at a time), so that row is the
 * answer, and a primary-key point read costs one store round trip (the row) instead of two
 * (index leaf, then row). Bounded: when full it starts over.
 */
final class KeyRids {
    static final int CAPACITY = 200_000;

    private final ConcurrentHashMap<HashedKey, Long> rids = new ConcurrentHashMap<>();

    Long get(byte[] key) {
        return rids.get(new HashedKey(key));
    }

    void put(byte[] key, long rid) {
        if (rids.size() >= CAPACITY) {
            rids.clear();
        }
        rids.put(new HashedKey(key.clone()), rid);
    }
}
