package io.tell.store;

import java.util.Arrays;
import java.util.HexFormat;

/** The address of a record: its domain and its key bytes (keys order as unsigned bytes). */
public record RecordKey(String domain, byte[] key) {
    public RecordKey {
        Domains.check(domain);
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecordKey other && domain.equals(other.domain) && Arrays.equals(key, other.key);
    }

    @Override
    public int hashCode() {
        return domain.hashCode() * 31 + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return domain + ":" + HexFormat.of().formatHex(key);
    }
}
