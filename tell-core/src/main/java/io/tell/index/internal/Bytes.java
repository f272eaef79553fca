package io.tell.index.internal;

/** Big-endian longs in byte arrays, for record keys and values of the tree. */
final class Bytes {
    private Bytes() {
    }

    static byte[] ofLong(long v) {
        byte[] b = new byte[8];
        putLong(b, 0, v);
        return b;
    }

    static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | (b[off + i] & 0xFF);
        }
        return v;
    }
}
