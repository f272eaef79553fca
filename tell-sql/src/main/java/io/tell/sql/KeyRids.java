package io.tell.sql;

import io.tell.store.RecordKey;
import java.util.Arrays;
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

    private final ConcurrentHashMap<Key, Long> rids = new ConcurrentHashMap<>();

    /** An encoded key, hashed once ({@link RecordKey#hash}: the polynomial hash collides for encoded keys). */
    private record Key(byte[] bytes, int hash) {
        static Key of(byte[] bytes) {
            return new Key(bytes, RecordKey.hash(bytes));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && hash == k.hash && Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    Long get(byte[] key) {
        return rids.get(Key.of(key));
    }

    void put(byte[] key, long rid) {
        if (rids.size() >= CAPACITY) {
            rids.clear();
        }
        rids.put(Key.of(key.clone()), rid);
    }
}
