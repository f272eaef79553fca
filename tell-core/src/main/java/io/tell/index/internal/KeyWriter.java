package io.tell.index.internal;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;

/**
 * Appends values in an order-preserving binary form: for two values of one type, the unsigned
 * lexicographic order of their encodings is the SQL order of the values, and no encoding is a
 * proper prefix of another one of the same type, so concatenated components compare column by
 * column. {@link KeyReader} reads them back. The formats are described in {@code docs/btree.md}.
 */
public final class KeyWriter {
    static final int NULL = 0x00;
    static final int PRESENT = 0x01;
    static final int DECIMAL_NEGATIVE = 0x01;
    static final int DECIMAL_ZERO = 0x02;
    static final int DECIMAL_POSITIVE = 0x03;
    /** Escapes a 0x00 byte inside a string: 0x00 0xFF. */
    static final int STRING_ESCAPE = 0xFF;
    /** Ends a string: 0x00 0x01, below every escaped or plain continuation. */
    static final int STRING_END = 0x01;

    private byte[] buf = new byte[32];
    private int len;

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    public KeyWriter writeNull() {
        return put(NULL);
    }

    /** The marker that precedes every non-null component (NULL sorts before all values). */
    public KeyWriter writePresent() {
        return put(PRESENT);
    }

    public KeyWriter writeBoolean(boolean b) {
        return put(b ? 1 : 0);
    }

    /** Big-endian two's complement with the sign bit flipped, in {@code bytes} bytes (2, 4 or 8). */
    public KeyWriter writeSigned(long v, int bytes) {
        long flipped = v ^ (1L << (bytes * 8 - 1));
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
            put((int) (flipped >>> shift));
        }
        return this;
    }

    /** The IEEE trick: flip the sign bit of positives and every bit of negatives. */
    public KeyWriter writeDouble(double d) {
        long bits = Double.doubleToLongBits(d == 0.0 ? 0.0 : d); // -0.0 -> 0.0, NaNs -> one NaN
        return writeRawLong(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE, 8);
    }

    public KeyWriter writeFloat(float f) {
        int bits = Float.floatToIntBits(f == 0.0f ? 0.0f : f);
        return writeRawLong((bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE) & 0xFFFFFFFFL, 4);
    }

    /**
     * A decimal as sign class, then for non-zero values {@code |v| = 0.d1d2d3... x 10^e} with
     * {@code d1 != 0}: the exponent {@code e} (4 bytes, sign-flipped) and the digits in pairs,
     * one byte {@code 1 + 10*a + b} per pair (a lone last digit pads with 0), ended by 0x00.
     * Negative values complement the exponent, digit and end bytes, which reverses their order.
     * Trailing zeros are stripped first, so equal values of different scale encode equally.
     */
    public KeyWriter writeDecimal(BigDecimal v) {
        int signum = v.signum();
        if (signum == 0) {
            return put(DECIMAL_ZERO);
        }
        BigDecimal stripped = v.stripTrailingZeros();
        String digits = stripped.unscaledValue().abs().toString();
        long exponent = (long) digits.length() - stripped.scale();
        if (exponent != (int) exponent) {
            throw new IllegalArgumentException("decimal exponent out of range: " + v);
        }
        int mask = signum < 0 ? 0xFF : 0x00;
        put(signum < 0 ? DECIMAL_NEGATIVE : DECIMAL_POSITIVE);
        long e = (exponent ^ Integer.MIN_VALUE) & 0xFFFFFFFFL;
        writeRawLong(signum < 0 ? ~e & 0xFFFFFFFFL : e, 4);
        for (int i = 0; i < digits.length(); i += 2) {
            int a = digits.charAt(i) - '0';
            int b = i + 1 < digits.length() ? digits.charAt(i + 1) - '0' : 0;
            put((1 + 10 * a + b) ^ mask);
        }
        return put(mask);
    }

    /**
     * UTF-8 (so byte order is code point order) with 0x00 escaped as 0x00 0xFF and ended by
     * 0x00 0x01, so a string sorts before every longer string it is a prefix of.
     */
    public KeyWriter writeString(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (Character.isSurrogate(s.charAt(i)) && !Character.isSupplementaryCodePoint(cp)) {
                throw new IllegalArgumentException("unpaired surrogate at index " + i + " of a key string");
            }
            i += Character.charCount(cp);
            if (cp == 0) {
                put(0).put(STRING_ESCAPE);
            } else if (cp < 0x80) {
                put(cp);
            } else if (cp < 0x800) {
                put(0xC0 | cp >> 6).put(0x80 | cp & 0x3F);
            } else if (cp < 0x10000) {
                put(0xE0 | cp >> 12).put(0x80 | cp >> 6 & 0x3F).put(0x80 | cp & 0x3F);
            } else {
                put(0xF0 | cp >> 18).put(0x80 | cp >> 12 & 0x3F).put(0x80 | cp >> 6 & 0x3F).put(0x80 | cp & 0x3F);
            }
        }
        return put(0).put(STRING_END);
    }

    /** Bytes with 0x00 escaped and ended as in {@link #writeString}, so byte strings sort as unsigned bytes. */
    public KeyWriter writeBytes(byte[] bytes) {
        for (byte b : bytes) {
            put(b);
            if (b == 0) {
                put(STRING_ESCAPE);
            }
        }
        return put(0).put(STRING_END);
    }

    /** Days since 1970-01-01 as a sign-flipped 8-byte integer. */
    public KeyWriter writeDate(LocalDate d) {
        return writeSigned(d.toEpochDay(), 8);
    }

    /** Seconds since 1970-01-01T00:00 (sign-flipped, 8 bytes), then the nanoseconds (4 bytes). */
    public KeyWriter writeTimestamp(LocalDateTime t) {
        writeSigned(t.toEpochSecond(ZoneOffset.UTC), 8);
        return writeRawLong(t.getNano(), 4);
    }

    private KeyWriter writeRawLong(long v, int bytes) {
        for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
            put((int) (v >>> shift));
        }
        return this;
    }

    private KeyWriter put(int b) {
        if (len == buf.length) {
            buf = Arrays.copyOf(buf, len * 2);
        }
        buf[len++] = (byte) b;
        return this;
    }
}
