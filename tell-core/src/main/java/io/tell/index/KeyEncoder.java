package io.tell.index;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.internal.KeyReader;
import io.tell.index.internal.KeyWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes index keys of a fixed column list so that unsigned byte order is SQL order: NULL
 * first, then values in ascending order, column after column. Immutable and thread-safe.
 *
 * <p>Each component is one marker byte ({@code 0x00} NULL, {@code 0x01} a value follows) and
 * the value in the form of its {@link KeyType} (see {@code docs/btree.md}). Every component
 * is self-delimiting, so a composite key is the concatenation of its components and the
 * encoding of a leading subset of columns is a prefix of every full key that starts with them.
 */
public final class KeyEncoder {
    private final List<KeyType> columns;

    private KeyEncoder(List<KeyType> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a key needs at least one column");
        }
        this.columns = List.copyOf(columns);
    }

    public static KeyEncoder of(KeyType... columns) {
        return new KeyEncoder(Arrays.asList(columns));
    }

    public static KeyEncoder of(List<KeyType> columns) {
        return new KeyEncoder(columns);
    }

    public List<KeyType> columns() {
        return columns;
    }

    /** The key of a full row of column values (nulls allowed). */
    public byte[] encode(Object... values) {
        if (values.length != columns.size()) {
            throw new IllegalArgumentException("expected " + columns.size() + " key values, got " + values.length);
        }
        return encodePrefix(values);
    }

    /**
     * The key of the first {@code values.length} columns: every full key starting with these
     * values lies in {@code [prefix, prefixEnd(prefix))}.
     */
    public byte[] encodePrefix(Object... values) {
        if (values.length > columns.size()) {
            throw new IllegalArgumentException("expected at most " + columns.size() + " key values, got " + values.length);
        }
        KeyWriter w = new KeyWriter();
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                w.writeNull();
            } else {
                w.writePresent();
                write(w, columns.get(i), values[i]);
            }
        }
        return w.toByteArray();
    }

    /** The column values of {@code key}, in their canonical Java types (see {@link KeyType}). */
    public Object[] decode(byte[] key) {
        KeyReader r = new KeyReader(key);
        Object[] out = new Object[columns.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = r.readPresent() ? read(r, columns.get(i)) : null;
        }
        if (!r.atEnd()) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "index key has " + (key.length - r.position())
                    + " bytes after its last column");
        }
        return out;
    }

    /**
     * The most bytes a non-null value of {@code type} takes in a key, its marker included.
     * {@code size} is the longest value of a VARCHAR or CHAR in code points (4 bytes of UTF-8
     * each at most, 2 for an escaped U+0000), of a VARBINARY in bytes, and a DECIMAL's precision
     * (its digits, two to a byte); other types ignore it.
     */
    public static long maxBytes(KeyType type, int size) {
        return 1 + switch (type) {
            case BOOLEAN -> 1L;
            case SMALLINT -> 2L;
            case INTEGER, REAL -> 4L;
            case BIGINT, DOUBLE, DATE, TIME -> 8L;
            case TIMESTAMP, TIMESTAMPTZ -> 12L;
            case UUID -> 16L;
            case DECIMAL -> 1 + 4 + (size + 1L) / 2 + 1;
            case VARCHAR, CHAR -> 4L * size + 2;
            case VARBINARY -> 2L * size + 2;
        };
    }

    /**
     * The smallest byte string greater than every string that starts with {@code prefix}, or
     * null when there is none (the prefix is all 0xFF, which no encoded key is).
     */
    public static byte[] prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return null;
    }

    private static void write(KeyWriter w, KeyType type, Object v) {
        switch (type) {
            case BOOLEAN -> w.writeBoolean(as(Boolean.class, v, type));
            case SMALLINT -> w.writeSigned(integral(v, type, Short.MIN_VALUE, Short.MAX_VALUE), 2);
            case INTEGER -> w.writeSigned(integral(v, type, Integer.MIN_VALUE, Integer.MAX_VALUE), 4);
            case BIGINT -> w.writeSigned(integral(v, type, Long.MIN_VALUE, Long.MAX_VALUE), 8);
            case DECIMAL -> w.writeDecimal(decimal(v));
            case REAL -> w.writeFloat(as(Number.class, v, type).floatValue());
            case DOUBLE -> w.writeDouble(as(Number.class, v, type).doubleValue());
            case VARCHAR -> w.writeString(as(String.class, v, type));
            case CHAR -> w.writeString(stripTrailingSpaces(as(String.class, v, type)));
            case DATE -> w.writeDate(as(LocalDate.class, v, type));
            case TIMESTAMP -> w.writeTimestamp(as(LocalDateTime.class, v, type));
            case TIME -> w.writeSigned(as(LocalTime.class, v, type).toNanoOfDay(), 8);
            case TIMESTAMPTZ -> w.writeTimestamp(as(OffsetDateTime.class, v, type).withOffsetSameInstant(ZoneOffset.UTC)
                    .toLocalDateTime());
            case VARBINARY -> w.writeBytes(as(byte[].class, v, type));
            case UUID -> { // the 16 bytes unsigned: writeSigned flips the sign bit back
                java.util.UUID u = as(java.util.UUID.class, v, type);
                w.writeSigned(u.getMostSignificantBits() ^ Long.MIN_VALUE, 8);
                w.writeSigned(u.getLeastSignificantBits() ^ Long.MIN_VALUE, 8);
            }
        }
    }

    private static Object read(KeyReader r, KeyType type) {
        return switch (type) {
            case BOOLEAN -> r.readBoolean();
            case SMALLINT -> (short) r.readSigned(2);
            case INTEGER -> (int) r.readSigned(4);
            case BIGINT -> r.readSigned(8);
            case DECIMAL -> r.readDecimal();
            case REAL -> r.readFloat();
            case DOUBLE -> r.readDouble();
            case VARCHAR, CHAR -> r.readString();
            case DATE -> r.readDate();
            case TIMESTAMP -> r.readTimestamp();
            case TIME -> LocalTime.ofNanoOfDay(r.readSigned(8));
            case TIMESTAMPTZ -> r.readTimestamp().atOffset(ZoneOffset.UTC);
            case VARBINARY -> r.readBytes();
            case UUID -> new java.util.UUID(r.readSigned(8) ^ Long.MIN_VALUE, r.readSigned(8) ^ Long.MIN_VALUE);
        };
    }

    static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    private static <T> T as(Class<T> cls, Object v, KeyType type) {
        if (!cls.isInstance(v)) {
            throw new IllegalArgumentException(type + " key value must be a " + cls.getSimpleName()
                    + ", not " + v.getClass().getName());
        }
        return cls.cast(v);
    }

    private static long integral(Object v, KeyType type, long min, long max) {
        long x;
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            x = ((Number) v).longValue();
        } else if (v instanceof BigInteger || v instanceof BigDecimal) {
            try {
                x = (v instanceof BigInteger bi ? new BigDecimal(bi) : (BigDecimal) v).longValueExact();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(type + " key value out of range or not integral: " + v, e);
            }
        } else {
            throw new IllegalArgumentException(type + " key value must be an integral number, not "
                    + v.getClass().getName());
        }
        if (x < min || x > max) {
            throw new IllegalArgumentException(type + " key value out of range: " + v);
        }
        return x;
    }

    private static BigDecimal decimal(Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof BigInteger bi) {
            return new BigDecimal(bi);
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        throw new IllegalArgumentException("DECIMAL key value must be a BigDecimal, BigInteger or integral number, not "
                + v.getClass().getName());
    }
}
