package io.tell.index.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import java.util.Arrays;

/**
 * The binary form of a {@link BTreeNode} (see {@code docs/btree.md}):
 * <pre>
 * format   1 byte  = 1, or 2 for a removed leaf (which has no entries)
 * level    1 byte  (0 = leaf)
 * flags    1 byte  bit 0: low fence present, bit 1: high fence present, bit 2: right sibling present
 * id       8 bytes logical node id
 * low      entry   (if present): varint key length, key, rid (8 bytes)
 * high     entry   (if present)
 * sibling  8 bytes (if present)
 * count    varint  entries (leaf) or children (inner node)
 * leaf:    count x (varint shared prefix, varint suffix length, suffix, rid 8 bytes)
 * inner:   child 0 (8 bytes), then count-1 x (separator as a leaf entry, child 8 bytes)
 * </pre>
 * Keys inside a node are prefix-compressed against the previous key; numbers are big-endian,
 * varints unsigned LEB128.
 */
public final class NodeCodec {
    private static final int FORMAT = 1;
    /** A removed leaf: its own format, so a client that does not know removal refuses it instead of writing into it. */
    private static final int FORMAT_REMOVED = 2;
    private static final int HAS_LOW = 1;
    private static final int HAS_HIGH = 2;
    private static final int HAS_SIBLING = 4;

    private NodeCodec() {
    }

    public static byte[] encode(BTreeNode node) {
        // Header, fences and sibling, then per entry about a short key suffix and 8-byte rid or child.
        Out out = new Out(64 + node.size() * 24);
        out.write(node.isRemoved() ? FORMAT_REMOVED : FORMAT);
        out.write(node.level());
        out.write((node.low() != null ? HAS_LOW : 0) | (node.high() != null ? HAS_HIGH : 0)
                | (node.rightSibling() != 0 ? HAS_SIBLING : 0));
        out.long8(node.id());
        if (node.low() != null) {
            out.entry(node.low(), null);
        }
        if (node.high() != null) {
            out.entry(node.high(), null);
        }
        if (node.rightSibling() != 0) {
            out.long8(node.rightSibling());
        }
        out.varint(node.size());
        IndexEntry[] keys = node.keys();
        if (node.isLeaf()) {
            for (int i = 0; i < keys.length; i++) {
                out.entry(keys[i], i == 0 ? null : keys[i - 1].key());
            }
        } else {
            long[] children = node.children();
            out.long8(children[0]);
            for (int i = 0; i < keys.length; i++) {
                out.entry(keys[i], i == 0 ? null : keys[i - 1].key());
                out.long8(children[i + 1]);
            }
        }
        return out.toByteArray();
    }

    /** True when {@code bytes} from {@code offset} on hold a removed leaf (by its format byte alone). */
    static boolean isRemovedLeaf(byte[] bytes, int offset) {
        return bytes.length > offset && bytes[offset] == FORMAT_REMOVED;
    }

    public static BTreeNode decode(byte[] bytes) {
        return decode(bytes, 0);
    }

    /** Decodes the node that fills {@code bytes} from {@code offset} on. */
    public static BTreeNode decode(byte[] bytes, int offset) {
        In in = new In(bytes, offset);
        int format = in.u8();
        if (format != FORMAT && format != FORMAT_REMOVED) {
            throw in.corrupt("unknown node format " + format);
        }
        int level = in.u8();
        int flags = in.u8();
        long id = in.long8();
        IndexEntry low = (flags & HAS_LOW) != 0 ? in.entry(null) : null;
        IndexEntry high = (flags & HAS_HIGH) != 0 ? in.entry(null) : null;
        long sibling = (flags & HAS_SIBLING) != 0 ? in.long8() : 0;
        int count = in.varint();
        BTreeNode node;
        if (level == 0) {
            IndexEntry[] entries = new IndexEntry[count];
            for (int i = 0; i < count; i++) {
                entries[i] = in.entry(i == 0 ? null : entries[i - 1].key());
            }
            node = BTreeNode.leaf(id, low, high, sibling, entries);
            if (format == FORMAT_REMOVED) {
                if (count != 0 || low == null) {
                    throw in.corrupt("removed leaf with entries or without a low fence");
                }
                node = node.removed();
            }
        } else {
            if (format == FORMAT_REMOVED) {
                throw in.corrupt("removed inner node");
            }
            if (count < 1) {
                throw in.corrupt("inner node without children");
            }
            long[] children = new long[count];
            IndexEntry[] seps = new IndexEntry[count - 1];
            children[0] = in.long8();
            for (int i = 0; i < count - 1; i++) {
                seps[i] = in.entry(i == 0 ? null : seps[i - 1].key());
                children[i + 1] = in.long8();
            }
            node = BTreeNode.inner(id, level, low, high, sibling, seps, children);
        }
        if (!in.atEnd()) {
            throw in.corrupt("trailing bytes");
        }
        return node;
    }

    /** A growing byte buffer, sized from the node up front (ByteArrayOutputStream locks and checks per byte). */
    private static final class Out {
        private byte[] buf;
        private int length;

        Out(int capacity) {
            buf = new byte[capacity];
        }

        void write(int b) {
            ensure(1);
            buf[length++] = (byte) b;
        }

        void write(byte[] bytes, int offset, int count) {
            ensure(count);
            System.arraycopy(bytes, offset, buf, length, count);
            length += count;
        }

        void long8(long v) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[length++] = (byte) (v >>> shift);
            }
        }

        void varint(int v) {
            while ((v & ~0x7F) != 0) {
                write(v & 0x7F | 0x80);
                v >>>= 7;
            }
            write(v);
        }

        void entry(IndexEntry e, byte[] previousKey) {
            byte[] key = e.key();
            int shared = 0;
            if (previousKey != null) {
                int mismatch = Arrays.mismatch(previousKey, key);
                shared = mismatch < 0 ? key.length : mismatch;
            }
            varint(shared);
            varint(key.length - shared);
            write(key, shared, key.length - shared);
            long8(e.rid());
        }

        byte[] toByteArray() {
            return Arrays.copyOf(buf, length);
        }

        private void ensure(int more) {
            if (length + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, length + more));
            }
        }
    }

    private static final class In {
        private final byte[] buf;
        private int pos;

        In(byte[] buf, int pos) {
            this.buf = buf;
            this.pos = pos;
        }

        boolean atEnd() {
            return pos == buf.length;
        }

        int u8() {
            if (pos >= buf.length) {
                throw corrupt("node ends early");
            }
            return buf[pos++] & 0xFF;
        }

        long long8() {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = v << 8 | u8();
            }
            return v;
        }

        int varint() {
            int v = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                int b = u8();
                v |= (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    if (v < 0) {
                        break;
                    }
                    return v;
                }
            }
            throw corrupt("bad varint");
        }

        IndexEntry entry(byte[] previousKey) {
            int shared = varint();
            int suffix = varint();
            if (shared > (previousKey == null ? 0 : previousKey.length) || suffix > buf.length - pos) {
                throw corrupt("bad key lengths " + shared + "+" + suffix);
            }
            byte[] key = new byte[shared + suffix];
            if (shared > 0) {
                System.arraycopy(previousKey, 0, key, 0, shared);
            }
            System.arraycopy(buf, pos, key, shared, suffix);
            pos += suffix;
            return new IndexEntry(key, long8());
        }

        TellException corrupt(String what) {
            return TellException.of(ErrorCode.CORRUPT_DATA, "b-tree node: " + what + " at byte " + pos);
        }
    }
}
