package io.tell.store;

import java.util.Arrays;

/**
 * A half-open key range {@code [from, to)} in unsigned byte order; a null bound is open.
 */
public record KeyRange(byte[] from, byte[] to) {
    public static final KeyRange ALL = new KeyRange(null, null);

    public boolean contains(byte[] key) {
        return (from == null || Arrays.compareUnsigned(key, from) >= 0)
                && (to == null || Arrays.compareUnsigned(key, to) < 0);
    }
}
