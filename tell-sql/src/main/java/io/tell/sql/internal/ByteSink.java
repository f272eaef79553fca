package io.tell.sql.internal;

import java.util.Arrays;

/** A growable byte buffer with the primitive writes of the row and catalog formats (big-endian, LEB128 varints). */
final class ByteSink {
    private byte[] buf = new byte[64];
    private int size;

    void write(int b) {
        ensure(1);
        buf[size++] = (byte) b;
    }

    void write(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, size, bytes.length);
        size += bytes.length;
    }

    /** Unsigned LEB128. */
    void writeVarint(long v) {
        while ((v & ~0x7FL) != 0) {
            write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        write((int) v);
    }

    /** Zigzag, then LEB128: small magnitudes of either sign take few bytes. */
    void writeSignedVarint(long v) {
        writeVarint((v << 1) ^ (v >> 63));
    }

    void writeFixed(long v, int bytes) {
        for (int i = bytes - 1; i >= 0; i--) {
            write((int) (v >>> (8 * i)));
        }
    }

    void writeBytes(byte[] bytes) {
        writeVarint(bytes.length);
        write(bytes);
    }

    void writeString(String s) {
        writeBytes(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    int size() {
        return size;
    }

    void set(int pos, int b) {
        buf[pos] = (byte) b;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    private void ensure(int n) {
        if (size + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }
    }
}
