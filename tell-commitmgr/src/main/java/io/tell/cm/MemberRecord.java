package io.tell.cm;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What one commit manager of a cluster publishes in the store ({@code tell.sys},
 * key {@code cm.m.} + its incarnation), rewritten every few milliseconds and before any
 * completion is acknowledged (its group commit): its view of completed tids (every tid
 * {@code <= base}, and {@code base + 1 + i} for every set bit {@code i} of {@code done}),
 * the lowest snapshot base of the transactions it runs ({@code lav}), the tid ranges it
 * reserved that are not all completed yet, and a heartbeat that changes with every write so
 * that the others can tell it is alive. Completions only ever grow, so any member's record is
 * durable knowledge: the others merge it into their snapshots.
 *
 * <p>Value: incarnation, heartbeat, base, lav (8 bytes each), closed (1), range count (4),
 * ranges (first, last: 8 each), word count (4), done words (8 each); big-endian.
 */
record MemberRecord(long incarnation, long heartbeat, boolean closed, long base, long lav, List<long[]> ranges, long[] done) {
    static final String PREFIX = "cm.m.";

    static RecordKey key(long incarnation) {
        return new RecordKey(LocalCommitManager.SYSTEM_DOMAIN, (PREFIX + incarnation).getBytes(StandardCharsets.UTF_8));
    }

    /** The key range of every member record. */
    static KeyRange all() {
        byte[] from = PREFIX.getBytes(StandardCharsets.UTF_8);
        byte[] to = from.clone();
        to[to.length - 1]++;
        return new KeyRange(from, to);
    }

    boolean owns(long tid) {
        for (long[] r : ranges) {
            if (tid >= r[0] && tid <= r[1]) {
                return true;
            }
        }
        return false;
    }

    byte[] encode() {
        ByteBuffer buf = ByteBuffer.allocate(8 * 4 + 1 + 4 + 16 * ranges.size() + 4 + 8 * done.length);
        buf.putLong(incarnation).putLong(heartbeat).putLong(base).putLong(lav).put((byte) (closed ? 1 : 0));
        buf.putInt(ranges.size());
        for (long[] r : ranges) {
            buf.putLong(r[0]).putLong(r[1]);
        }
        buf.putInt(done.length);
        for (long w : done) {
            buf.putLong(w);
        }
        return buf.array();
    }

    static MemberRecord decode(byte[] bytes) {
        try {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            long incarnation = buf.getLong();
            long heartbeat = buf.getLong();
            long base = buf.getLong();
            long lav = buf.getLong();
            boolean closed = buf.get() == 1;
            int n = buf.getInt();
            if (n < 0 || n > buf.remaining() / 16) {
                throw new IllegalArgumentException("range count " + n);
            }
            List<long[]> ranges = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ranges.add(new long[] {buf.getLong(), buf.getLong()});
            }
            int words = buf.getInt();
            if (words < 0 || words != buf.remaining() / 8 || buf.remaining() % 8 != 0) {
                throw new IllegalArgumentException("word count " + words);
            }
            long[] done = new long[words];
            for (int i = 0; i < words; i++) {
                done[i] = buf.getLong();
            }
            return new MemberRecord(incarnation, heartbeat, closed, base, lav, ranges, done);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "malformed commit manager record", e);
        }
    }
}
