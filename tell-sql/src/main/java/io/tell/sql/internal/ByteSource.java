package io.tell.sql.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Reads what {@link ByteSink} writes; running past the end is {@link ErrorCode#CORRUPT_DATA}. */
final class ByteSource {
    private final byte[] buf;
    private int pos;

    ByteSource(byte[] buf) {
        this.buf = buf;
    }

    int read() {
        if (pos >= buf.length) {
            throw corrupt("truncated at byte " + pos);
        }
        return buf[pos++] & 0xFF;
    }

    long readVarint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = read();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw corrupt("varint longer than 10 bytes at byte " + pos);
    }

    long readSignedVarint() {
        long v = readVarint();
        return (v >>> 1) ^ -(v & 1);
    }

    long readFixed(int bytes) {
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v = (v << 8) | read();
        }
        return v;
    }

    int readLength() {
        long n = readVarint();
        if (n < 0 || n > buf.length - pos) {
            throw corrupt("length " + n + " runs past the end at byte " + pos);
        }
        return (int) n;
    }

    byte[] readBytes() {
        int n = readLength();
        byte[] out = Arrays.copyOfRange(buf, pos, pos + n);
        pos += n;
        return out;
    }

    String readString() {
        int n = readLength();
        String s = new String(buf, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    void skip(int n) {
        if (n > buf.length - pos) {
            throw corrupt("truncated at byte " + pos);
        }
        pos += n;
    }

    void skipBytes() {
        int n = readLength(); // not "pos += readLength()": Java reads pos before the call
        pos += n;
    }

    int position() {
        return pos;
    }

    boolean atEnd() {
        return pos == buf.length;
    }

    static TellException corrupt(String message) {
        return TellException.of(ErrorCode.CORRUPT_DATA, message);
    }
}
