package io.tell.index;

import java.util.Arrays;

/**
 * A range of keys to scan, each end inclusive, exclusive or open (null). Bounds apply to keys
 * only: every rid of a key inside the range is returned.
 */
public record ScanRange(Bound lower, Bound upper) {
    public static final ScanRange ALL = new ScanRange(null, null);

    /** One end of a range. */
    public record Bound(byte[] key, boolean inclusive) {
        public Bound {
            if (key == null) {
                throw new IllegalArgumentException("bound key is null (use a null Bound for an open end)");
            }
        }
    }

    public static Bound inclusive(byte[] key) {
        return new Bound(key, true);
    }

    public static Bound exclusive(byte[] key) {
        return new Bound(key, false);
    }

    /** {@code [from, to]}. */
    public static ScanRange closed(byte[] from, byte[] to) {
        return new ScanRange(inclusive(from), inclusive(to));
    }

    /**
     * The whole key space cut at {@code cuts} (ascending, distinct; e.g. {@link BTree#splitKeys}):
     * {@code (-inf, c1), [c1, c2), …, [cn, +inf)}, which together hold every key exactly once.
     */
    public static java.util.List<ScanRange> between(java.util.List<byte[]> cuts) {
        java.util.List<ScanRange> out = new java.util.ArrayList<>(cuts.size() + 1);
        for (int i = 0; i <= cuts.size(); i++) {
            out.add(new ScanRange(i == 0 ? null : inclusive(cuts.get(i - 1)), i == cuts.size() ? null : exclusive(cuts.get(i))));
        }
        return out;
    }

    /** Exactly one key. */
    public static ScanRange key(byte[] key) {
        return closed(key, key);
    }

    /** True when {@code key} is not below the lower end. */
    public boolean aboveLower(byte[] key) {
        if (lower == null) {
            return true;
        }
        int c = Arrays.compareUnsigned(key, lower.key);
        return c > 0 || c == 0 && lower.inclusive;
    }

    /** True when {@code key} is not above the upper end. */
    public boolean belowUpper(byte[] key) {
        if (upper == null) {
            return true;
        }
        int c = Arrays.compareUnsigned(key, upper.key);
        return c < 0 || c == 0 && upper.inclusive;
    }

    public boolean contains(byte[] key) {
        return aboveLower(key) && belowUpper(key);
    }
}
