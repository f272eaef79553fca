package io.tell.index.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/** Reads what {@link KeyWriter} wrote, component by component. */
public final class KeyReader {
    private final byte[] buf;
    private int pos;

    public KeyReader(byte[] buf) {
        this.buf = buf;
    }

    public boolean atEnd() {
        return pos == buf.length;
    }

    public int position() {
        return pos;
    }

    /** Reads a component's marker: false for NULL, true when a value follows. */
    public boolean readPresent() {
        int marker = next();
        if (marker != KeyWriter.NULL && marker != KeyWriter.PRESENT) {
            throw corrupt("bad null marker " + marker);
        }
        return marker == KeyWriter.PRESENT;
    }

    public boolean readBoolean() {
        int b = next();
        if (b > 1) {
            throw corrupt("bad boolean " + b);
        }
        return b == 1;
    }

    public long readSigned(int bytes) {
        long v = readRawLong(bytes) ^ (1L << (bytes * 8 - 1));
        int unused = 64 - bytes * 8;
        return v << unused >> unused; // sign-extend
    }

    public double readDouble() {
        long v = readRawLong(8);
        return Double.longBitsToDouble(v < 0 ? v ^ Long.MIN_VALUE : ~v);
    }

    public float readFloat() {
        int v = (int) readRawLong(4);
        return Float.intBitsToFloat(v < 0 ? v ^ Integer.MIN_VALUE : ~v);
    }

    /** The value in normalized form: no trailing fractional zeros, scale >= 0 (1.00 -> 1, 1E+2 -> 100). */
    public BigDecimal readDecimal() {
        int kind = next();
        if (kind == KeyWriter.DECIMAL_ZERO) {
            return BigDecimal.ZERO;
        }
        if (kind != KeyWriter.DECIMAL_NEGATIVE && kind != KeyWriter.DECIMAL_POSITIVE) {
            throw corrupt("bad decimal sign " + kind);
        }
        boolean negative = kind == KeyWriter.DECIMAL_NEGATIVE;
        int mask = negative ? 0xFF : 0x00;
        long e = readRawLong(4);
        int exponent = (int) ((negative ? ~e & 0xFFFFFFFFL : e) ^ 0x80000000L);
        StringBuilder digits = new StringBuilder();
        while (true) {
            int b = next() ^ mask;
            if (b == 0) {
                break;
            }
            if (b > 100) {
                throw corrupt("bad decimal digit byte " + b);
            }
            digits.append((char) ('0' + (b - 1) / 10)).append((char) ('0' + (b - 1) % 10));
        }
        if (digits.isEmpty()) {
            throw corrupt("decimal without digits");
        }
        BigInteger unscaled = new BigInteger(digits.toString());
        BigDecimal v = new BigDecimal(negative ? unscaled.negate() : unscaled,
                Math.toIntExact((long) digits.length() - exponent)).stripTrailingZeros();
        return v.scale() < 0 ? v.setScale(0) : v;
    }

    public String readString() {
        return readBytesOut().toString(StandardCharsets.UTF_8);
    }

    public byte[] readBytes() {
        return readBytesOut().toByteArray();
    }

    private ByteArrayOutputStream readBytesOut() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            int b = next();
            if (b != 0) {
                out.write(b);
                continue;
            }
            int esc = next();
            if (esc == KeyWriter.STRING_END) {
                return out;
            }
            if (esc != KeyWriter.STRING_ESCAPE) {
                throw corrupt("bad string escape " + esc);
            }
            out.write(0);
        }
    }

    public LocalDate readDate() {
        return LocalDate.ofEpochDay(readSigned(8));
    }

    public LocalDateTime readTimestamp() {
        long seconds = readSigned(8);
        int nanos = (int) readRawLong(4);
        return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
    }

    private long readRawLong(int bytes) {
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v = v << 8 | next();
        }
        return v;
    }

    private int next() {
        if (pos >= buf.length) {
            throw corrupt("key ends early");
        }
        return buf[pos++] & 0xFF;
    }

    private TellException corrupt(String what) {
        return TellException.of(ErrorCode.CORRUPT_DATA, what + " at byte " + pos + " of an index key");
    }
}
