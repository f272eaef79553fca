package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What a transaction may see: a base {@code b} (every tid {@code <= b} has completed) and the
 * set {@code N} of tids above {@code b} that have completed, as a bitset where bit {@code i}
 * stands for tid {@code b + 1 + i}. Version {@code x} is visible iff {@code x <= b} or
 * {@code x} is in {@code N}. Aborted tids may be in {@code N}: an aborting transaction reverts
 * all its versions before it is reported completed, so nothing of it is left to see.
 *
 * <p>Binary form ({@link #toBytes()}): base as an 8-byte big-endian long, then the number of
 * 64-bit words (4 bytes), then the words big-endian, trailing zero words trimmed.
 */
public final class SnapshotDescriptor {
    private final long base;
    private final long[] words;

    public SnapshotDescriptor(long base, long[] words) {
        if (base < 0) {
            throw new IllegalArgumentException("negative base " + base);
        }
        this.base = base;
        this.words = trim(words);
    }

    public static SnapshotDescriptor ofBase(long base) {
        return new SnapshotDescriptor(base, new long[0]);
    }

    public long base() {
        return base;
    }

    /** True iff a version written by {@code tid} is visible (own writes are the caller's concern). */
    public boolean isVisible(long tid) {
        if (tid <= base) {
            return true;
        }
        long bit = tid - base - 1;
        int word = (int) (bit >>> 6);
        return bit < ((long) words.length << 6) && (words[word] & (1L << bit)) != 0;
    }

    /**
     * True iff every tid this snapshot sees, {@code other} sees too. Walks only the tids above
     * {@code other}'s base up to this snapshot's highest, so it is quick when {@code other} is
     * the newer snapshot (the common case of a shared buffer entry).
     */
    public boolean isSubsetOf(SnapshotDescriptor other) {
        long highest = highestVisible();
        for (long tid = other.base + 1; tid <= highest; tid++) {
            if (isVisible(tid) && !other.isVisible(tid)) {
                return false;
            }
        }
        return true;
    }

    /** The highest tid this snapshot sees. */
    public long highestVisible() {
        for (int w = words.length - 1; w >= 0; w--) {
            if (words[w] != 0) {
                return base + 1 + ((long) w << 6) + 63 - Long.numberOfLeadingZeros(words[w]);
            }
        }
        return base;
    }

    public byte[] toBytes() {
        ByteBuffer buf = ByteBuffer.allocate(12 + 8 * words.length);
        buf.putLong(base).putInt(words.length);
        for (long w : words) {
            buf.putLong(w);
        }
        return buf.array();
    }

    public static SnapshotDescriptor fromBytes(byte[] bytes) {
        return read(ByteBuffer.wrap(bytes));
    }

    /** Reads a descriptor from {@code buf}, advancing it; malformed input is CORRUPT_DATA. */
    public static SnapshotDescriptor read(ByteBuffer buf) {
        if (buf.remaining() < 12) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "snapshot descriptor truncated");
        }
        long base = buf.getLong();
        int n = buf.getInt();
        if (base < 0 || n < 0 || n > buf.remaining() / 8) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "snapshot descriptor malformed (base " + base + ", words " + n + ")");
        }
        long[] words = new long[n];
        for (int i = 0; i < n; i++) {
            words[i] = buf.getLong();
        }
        return new SnapshotDescriptor(base, words);
    }

    /** Bytes taken by the binary form. */
    public int encodedSize() {
        return 12 + 8 * words.length;
    }

    private static long[] trim(long[] words) {
        int n = words.length;
        while (n > 0 && words[n - 1] == 0) {
            n--;
        }
        return n == words.length ? words : Arrays.copyOf(words, n);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SnapshotDescriptor s && s.base == base && Arrays.equals(s.words, words);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(base) * 31 + Arrays.hashCode(words);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Snapshot[base=").append(base).append(", N={");
        String sep = "";
        for (long t = base + 1, hi = highestVisible(); t <= hi; t++) {
            if (isVisible(t)) {
                sb.append(sep).append(t);
                sep = ",";
            }
        }
        return sb.append("}]").toString();
    }
}
