package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * All live versions of one row, newest first, as one store record (paper §4.1).
 *
 * <p>Binary layout: format byte {@code 1}; the version count (unsigned LEB128 varint); then
 * per version, newest first: tid (varint), flags (1 byte, bit 0 = deleted), and unless
 * deleted the row length (varint) followed by the row bytes. Row bytes are opaque here.
 *
 * <p>A record with no versions is a revert's <i>fence</i> ({@link Reverter}): it reads as
 * absent, and exists only so that a late conditional write of an aborted tid fails. After its
 * zero count it carries the wall-clock millis it was written at (varint), so that the sweeper
 * knows when no such write can still land.
 */
public final class MvccRecord {
    private static final int FORMAT = 1;

    private final List<RowVersion> versions;
    private final long fencedAt;

    public MvccRecord(List<RowVersion> versions) {
        this(versions, 0);
    }

    private MvccRecord(List<RowVersion> versions, long fencedAt) {
        this.versions = List.copyOf(versions);
        this.fencedAt = fencedAt;
    }

    /** The bytes of a fence written at wall-clock {@code millis}. */
    public static byte[] fence(long millis) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(12);
        out.write(FORMAT);
        writeVarint(out, 0);
        writeVarint(out, millis);
        return out.toByteArray();
    }

    /** For a fence, the wall-clock millis it was written at (0 if it did not say); 0 for any other record. */
    public long fencedAt() {
        return fencedAt;
    }

    public List<RowVersion> versions() {
        return versions;
    }

    public boolean isEmpty() {
        return versions.isEmpty();
    }

    /** The newest version, or null for an empty record. */
    public RowVersion newest() {
        return versions.isEmpty() ? null : versions.get(0);
    }

    /** The newest version {@code self} may see: its own, or one visible to {@code snapshot}. */
    public RowVersion visibleTo(SnapshotDescriptor snapshot, long self) {
        for (RowVersion v : versions) {
            if (v.tid() == self || snapshot.isVisible(v.tid())) {
                return v;
            }
        }
        return null;
    }

    /**
     * Puts {@code version} on top and drops what no one can see any more: every version older
     * than the newest version {@code <= lav} (tids {@code <= lav} have all completed, so it is
     * the oldest any snapshot can need), and a delete at the bottom (it reads as absent, as
     * would nothing at all).
     */
    public MvccRecord withNewest(RowVersion version, long lav) {
        List<RowVersion> out = new ArrayList<>(versions.size() + 1);
        out.add(version);
        for (RowVersion v : versions) {
            out.add(v);
            if (v.tid() <= lav) {
                break;
            }
        }
        while (out.size() > 1 && out.get(out.size() - 1).deleted()) {
            out.remove(out.size() - 1);
        }
        return new MvccRecord(out);
    }

    /** This record without the versions written by {@code tid} (used to revert an abort). */
    public MvccRecord without(long tid) {
        List<RowVersion> out = new ArrayList<>(versions.size());
        for (RowVersion v : versions) {
            if (v.tid() != tid) {
                out.add(v);
            }
        }
        return new MvccRecord(out);
    }

    public boolean hasVersionOf(long tid) {
        for (RowVersion v : versions) {
            if (v.tid() == tid) {
                return true;
            }
        }
        return false;
    }

    public byte[] encode() {
        int size = 1 + 5;
        for (RowVersion v : versions) {
            size += 10 + 1 + (v.deleted() ? 0 : 5 + v.row().length);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        out.write(FORMAT);
        writeVarint(out, versions.size());
        for (RowVersion v : versions) {
            writeVarint(out, v.tid());
            out.write(v.deleted() ? 1 : 0);
            if (!v.deleted()) {
                writeVarint(out, v.row().length);
                out.writeBytes(v.row());
            }
        }
        return out.toByteArray();
    }

    public static MvccRecord decode(byte[] bytes) {
        Reader r = new Reader(bytes);
        if (r.u8() != FORMAT) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "unknown row record format " + bytes[0]);
        }
        long n = r.varint();
        if (n > bytes.length) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "row record claims " + n + " versions in " + bytes.length + " bytes");
        }
        List<RowVersion> versions = new ArrayList<>((int) n);
        for (long i = 0; i < n; i++) {
            long tid = r.varint();
            boolean deleted = (r.u8() & 1) != 0;
            versions.add(new RowVersion(tid, deleted ? null : r.bytes((int) r.varint())));
        }
        long fencedAt = n == 0 && r.pos < bytes.length ? r.varint() : 0;
        if (r.pos != bytes.length) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "row record has " + (bytes.length - r.pos) + " trailing bytes");
        }
        return new MvccRecord(versions, fencedAt);
    }

    private static void writeVarint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static final class Reader {
        private final byte[] b;
        private int pos;

        Reader(byte[] b) {
            this.b = b;
        }

        int u8() {
            if (pos >= b.length) {
                throw TellException.of(ErrorCode.CORRUPT_DATA, "row record truncated");
            }
            return b[pos++] & 0xFF;
        }

        long varint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int x = u8();
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw TellException.of(ErrorCode.CORRUPT_DATA, "row record varint too long");
        }

        byte[] bytes(int len) {
            if (len < 0 || len > b.length - pos) {
                throw TellException.of(ErrorCode.CORRUPT_DATA, "row record truncated");
            }
            byte[] out = java.util.Arrays.copyOfRange(b, pos, pos + len);
            pos += len;
            return out;
        }
    }
}
