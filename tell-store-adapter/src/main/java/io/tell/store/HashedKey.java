package io.tell.store;

import java.util.Arrays;

/**
 * Key bytes as a hash-map key, hashed once with {@link RecordKey#hash} (the polynomial hash of
 * {@link Arrays#hashCode(byte[])} collides for encoded keys). The bytes are not copied: the
 * caller hands over an array nobody changes afterwards.
 */
public final class HashedKey {
    private final byte[] bytes;
    private final int hash;

    public HashedKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = RecordKey.hash(bytes);
    }

    public byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HashedKey other && hash == other.hash && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
