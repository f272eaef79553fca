package io.tell.index;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * One index entry: an encoded key and the row id it points to. Entries order by key (unsigned
 * bytes), then by rid; a non-unique index tells duplicates of a key apart by their rids.
 */
public record IndexEntry(byte[] key, long rid) implements Comparable<IndexEntry> {
    public IndexEntry {
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
    }

    @Override
    public int compareTo(IndexEntry o) {
        int c = Arrays.compareUnsigned(key, o.key);
        return c != 0 ? c : Long.compare(rid, o.rid);
    }

    public boolean sameKey(IndexEntry o) {
        return Arrays.equals(key, o.key);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexEntry e && rid == e.rid && Arrays.equals(key, e.key);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(key) * 31 + Long.hashCode(rid);
    }

    @Override
    public String toString() {
        return HexFormat.of().formatHex(key) + "/" + rid;
    }
}
