package io.tell.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Seeded randomized checks that unsigned byte order of encoded keys equals SQL order, per type
 * and for composite keys. The seed is {@code -Dtell.seed} (printed in every failure message).
 */
class KeyEncoderTest {
    private static final long SEED = Long.getLong("tell.seed", 1);
    private static final Comparator<byte[]> BYTES = Arrays::compareUnsigned;

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void singleColumnOrderMatchesSqlOrder(KeyType type) {
        Random rnd = new Random(SEED ^ type.ordinal());
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            values.add(i % 50 == 0 ? null : randomValue(type, rnd));
        }
        KeyEncoder enc = KeyEncoder.of(type);
        checkOrder(values.stream().map(v -> new Object[] {v}).toList(), List.of(type), enc, rnd);
        for (Object v : values) {
            Object back = enc.decode(enc.encode(v))[0];
            assertEquals(0, nullsFirst(type).compare(v, back), () -> msg("round trip of " + v + " gave " + back));
        }
    }

    /**
     * {@link KeyEncoder#maxBytes} bounds every value of its size: random values (strings of
     * 4-byte code points and escaped U+0000 among them, byte strings of zeros, decimals of every
     * digit count) never encode longer than the bound for their length or precision.
     */
    @ParameterizedTest
    @EnumSource(KeyType.class)
    void maxBytesBoundsEveryValue(KeyType type) {
        Random rnd = new Random(SEED ^ type.ordinal());
        KeyEncoder enc = KeyEncoder.of(type);
        for (int i = 0; i < 3000; i++) {
            Object v = randomValue(type, rnd);
            int size = switch (v) {
                case String str -> str.codePointCount(0, str.length());
                case byte[] b -> b.length;
                case BigDecimal d -> d.precision();
                default -> 0;
            };
            long length = enc.encode(v).length;
            assertTrue(length <= KeyEncoder.maxBytes(type, size), () -> msg(type + " value " + v + " of size " + size
                    + " encodes to " + length + " bytes, over " + KeyEncoder.maxBytes(type, size)));
        }
        if (type == KeyType.VARCHAR || type == KeyType.CHAR) { // every code point at its longest, then all escapes
            assertEquals(KeyEncoder.maxBytes(type, 3), enc.encode("\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00").length);
            assertTrue(enc.encode("\0\0\0").length <= KeyEncoder.maxBytes(type, 3));
        }
        if (type == KeyType.VARBINARY) {
            assertEquals(KeyEncoder.maxBytes(type, 4), enc.encode((Object) new byte[4]).length);
        }
        if (type == KeyType.DECIMAL) {
            assertEquals(KeyEncoder.maxBytes(type, 7), enc.encode(new BigDecimal("-12345.67")).length);
        }
    }

    @Test
    void compositeOrderMatchesTupleOrder() {
        Random rnd = new Random(SEED);
        KeyType[] all = KeyType.values();
        for (int round = 0; round < 200; round++) {
            List<KeyType> types = new ArrayList<>();
            int n = 1 + rnd.nextInt(4);
            for (int i = 0; i < n; i++) {
                types.add(all[rnd.nextInt(all.length)]);
            }
            // Small pools per column, so that tuples often tie on leading columns.
            List<List<Object>> pools = new ArrayList<>();
            for (KeyType t : types) {
                List<Object> pool = new ArrayList<>();
                pool.add(null);
                for (int i = 0; i < 4; i++) {
                    pool.add(randomValue(t, rnd));
                }
                pools.add(pool);
            }
            List<Object[]> tuples = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                Object[] tuple = new Object[n];
                for (int c = 0; c < n; c++) {
                    tuple[c] = pools.get(c).get(rnd.nextInt(pools.get(c).size()));
                }
                tuples.add(tuple);
            }
            KeyEncoder enc = KeyEncoder.of(types);
            checkOrder(tuples, types, enc, rnd);
            for (Object[] t : tuples) {
                assertEquals(0, tupleOrder(types).compare(t, enc.decode(enc.encode(t))), () -> msg("round trip " + types));
                byte[] key = enc.encode(t);
                int k = rnd.nextInt(n + 1);
                byte[] prefix = enc.encodePrefix(Arrays.copyOf(t, k));
                byte[] end = KeyEncoder.prefixEnd(prefix);
                assertTrue(BYTES.compare(prefix, key) <= 0 && (end == null || BYTES.compare(key, end) < 0),
                        () -> msg("key outside its prefix range " + types));
            }
        }
    }

    @Test
    void equalDecimalsOfDifferentScaleEncodeEqually() {
        KeyEncoder enc = KeyEncoder.of(KeyType.DECIMAL);
        assertArrayEquals(enc.encode(new BigDecimal("1")), enc.encode(new BigDecimal("1.0")));
        assertArrayEquals(enc.encode(new BigDecimal("1.0")), enc.encode(new BigDecimal("1.00")));
        assertArrayEquals(enc.encode(new BigDecimal("100")), enc.encode(new BigDecimal("1E+2")));
        assertArrayEquals(enc.encode(new BigDecimal("-0.50")), enc.encode(new BigDecimal("-0.5")));
        assertArrayEquals(enc.encode(BigDecimal.ZERO), enc.encode(new BigDecimal("0.000")));
        assertArrayEquals(enc.encode(BigDecimal.ZERO), enc.encode(new BigDecimal("0E+7")));
        assertArrayEquals(enc.encode(BigDecimal.TEN), enc.encode(10L));
        assertEquals(new BigDecimal("100"), enc.decode(enc.encode(new BigDecimal("1.00E+2")))[0]);
        assertEquals(new BigDecimal("0.5"), enc.decode(enc.encode(new BigDecimal("0.500")))[0]);
    }

    @Test
    void floatingPointEdgeCases() {
        KeyEncoder enc = KeyEncoder.of(KeyType.DOUBLE);
        assertArrayEquals(enc.encode(0.0), enc.encode(-0.0));
        assertArrayEquals(enc.encode(Double.NaN), enc.encode(Double.longBitsToDouble(0xfff0000000000001L)));
        assertTrue(BYTES.compare(enc.encode(Double.POSITIVE_INFINITY), enc.encode(Double.NaN)) < 0);
        assertTrue(BYTES.compare(enc.encode(Double.NEGATIVE_INFINITY), enc.encode(-Double.MAX_VALUE)) < 0);
        assertTrue(BYTES.compare(enc.encode((Object) null), enc.encode(Double.NEGATIVE_INFINITY)) < 0);
    }

    @Test
    void stringsSortByCodePointWithPrefixesFirst() {
        KeyEncoder enc = KeyEncoder.of(KeyType.VARCHAR, KeyType.INTEGER);
        List<String> ordered = List.of("", "\0", "\0\0", "\0a", "a", "a\0", "a\0b", "a\1", "ab", "\uFFFF", "\uD83D\uDE00");
        for (int i = 0; i + 1 < ordered.size(); i++) {
            byte[] a = enc.encode(ordered.get(i), Integer.MAX_VALUE);
            byte[] b = enc.encode(ordered.get(i + 1), Integer.MIN_VALUE);
            assertTrue(BYTES.compare(a, b) < 0, "'" + ordered.get(i) + "' < '" + ordered.get(i + 1) + "'");
        }
        assertArrayEquals(KeyEncoder.of(KeyType.CHAR).encode("ab  "), KeyEncoder.of(KeyType.CHAR).encode("ab"));
        assertThrows(IllegalArgumentException.class, () -> enc.encode("\uD800x", 1));
    }

    @Test
    void badValuesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> KeyEncoder.of(KeyType.SMALLINT).encode(70000));
        assertThrows(IllegalArgumentException.class, () -> KeyEncoder.of(KeyType.INTEGER).encode("1"));
        assertThrows(IllegalArgumentException.class, () -> KeyEncoder.of(KeyType.BIGINT).encode(1, 2));
        assertNull(KeyEncoder.prefixEnd(new byte[] {(byte) 0xFF, (byte) 0xFF}));
        assertArrayEquals(new byte[] {1, 3}, KeyEncoder.prefixEnd(new byte[] {1, 2, (byte) 0xFF}));
    }

    /** Sorted by SQL order, neighbours must compare the same way as bytes; so must random pairs. */
    private static void checkOrder(List<Object[]> tuples, List<KeyType> types, KeyEncoder enc, Random rnd) {
        Comparator<Object[]> sql = tupleOrder(types);
        List<Object[]> sorted = new ArrayList<>(tuples);
        sorted.sort(sql);
        for (int i = 0; i + 1 < sorted.size(); i++) {
            compareBoth(sorted.get(i), sorted.get(i + 1), sql, enc, types);
        }
        for (int i = 0; i < 2000; i++) {
            compareBoth(tuples.get(rnd.nextInt(tuples.size())), tuples.get(rnd.nextInt(tuples.size())), sql, enc, types);
        }
    }

    private static void compareBoth(Object[] a, Object[] b, Comparator<Object[]> sql, KeyEncoder enc, List<KeyType> types) {
        int expected = Integer.signum(sql.compare(a, b));
        int actual = Integer.signum(BYTES.compare(enc.encode(a), enc.encode(b)));
        assertEquals(expected, actual, () -> msg(types + ": " + Arrays.toString(a) + " vs " + Arrays.toString(b)));
    }

    private static Comparator<Object[]> tupleOrder(List<KeyType> types) {
        return (a, b) -> {
            for (int i = 0; i < types.size(); i++) {
                int c = nullsFirst(types.get(i)).compare(a[i], b[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }

    /** The SQL order of one type, NULL first, as the encoder documents it. */
    @SuppressWarnings("unchecked")
    private static Comparator<Object> nullsFirst(KeyType type) {
        Comparator<?> c = switch (type) {
            case BOOLEAN -> Comparator.<Boolean>naturalOrder();
            case SMALLINT, INTEGER, BIGINT -> Comparator.comparingLong(Number::longValue);
            case DECIMAL -> Comparator.<BigDecimal>naturalOrder();
            case REAL -> Comparator.comparing((Float f) -> f == 0.0f ? 0.0f : f, Float::compare);
            case DOUBLE -> Comparator.comparing((Double d) -> d == 0.0 ? 0.0 : d, Double::compare);
            case VARCHAR -> codePointOrder(Function.identity());
            case CHAR -> codePointOrder(KeyEncoder::stripTrailingSpaces);
            case DATE -> Comparator.<LocalDate>naturalOrder();
            case TIMESTAMP -> Comparator.<LocalDateTime>naturalOrder();
            case TIME -> Comparator.<LocalTime>naturalOrder();
            case TIMESTAMPTZ -> Comparator.comparing(java.time.OffsetDateTime::toInstant);
            case VARBINARY -> (byte[] a, byte[] b) -> Arrays.compareUnsigned(a, b);
            case UUID -> Comparator.comparing((UUID u) -> ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
                    .putLong(u.getLeastSignificantBits()).array(), Arrays::compareUnsigned);
        };
        return Comparator.nullsFirst((Comparator<Object>) c);
    }

    private static Comparator<String> codePointOrder(Function<String, String> normalize) {
        return (a, b) -> Arrays.compare(normalize.apply(a).codePoints().toArray(), normalize.apply(b).codePoints().toArray());
    }

    private static Object randomValue(KeyType type, Random rnd) {
        return switch (type) {
            case BOOLEAN -> rnd.nextBoolean();
            case SMALLINT -> (short) edgeOr(rnd, Short.MIN_VALUE, Short.MAX_VALUE, rnd.nextInt());
            case INTEGER -> (int) edgeOr(rnd, Integer.MIN_VALUE, Integer.MAX_VALUE, rnd.nextInt(rnd.nextBoolean() ? 100 : Integer.MAX_VALUE) * (rnd.nextBoolean() ? 1 : -1));
            case BIGINT -> edgeOr(rnd, Long.MIN_VALUE, Long.MAX_VALUE, rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(200) - 100);
            case DECIMAL -> randomDecimal(rnd);
            case REAL -> rnd.nextInt(4) == 0 ? Float.intBitsToFloat(rnd.nextInt())
                    : new float[] {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE,
                        -Float.MIN_VALUE, Float.MAX_VALUE, 1.5f, -1.5f, (float) rnd.nextGaussian()}[rnd.nextInt(11)];
            case DOUBLE -> rnd.nextInt(4) == 0 ? Double.longBitsToDouble(rnd.nextLong())
                    : new double[] {0d, -0d, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
                        -Double.MIN_VALUE, Double.MAX_VALUE, 1.5, -1.5, rnd.nextGaussian() * 1e6}[rnd.nextInt(11)];
            case VARCHAR, CHAR -> randomString(rnd);
            case DATE -> LocalDate.ofEpochDay(rnd.nextBoolean()
                    ? rnd.nextLong(LocalDate.MIN.toEpochDay(), LocalDate.MAX.toEpochDay() + 1)
                    : rnd.nextInt(100) - 50);
            case TIMESTAMP -> LocalDateTime.ofEpochSecond(rnd.nextBoolean()
                    ? rnd.nextLong(LocalDateTime.MIN.toEpochSecond(ZoneOffset.UTC), LocalDateTime.MAX.toEpochSecond(ZoneOffset.UTC))
                    : rnd.nextInt(10) - 5, rnd.nextBoolean() ? 0 : rnd.nextInt(1_000_000_000), ZoneOffset.UTC);
            case TIME -> LocalTime.ofNanoOfDay(rnd.nextBoolean() ? rnd.nextLong(LocalTime.MAX.toNanoOfDay() + 1)
                    : rnd.nextInt(3) * 1_000_000_000L);
            case TIMESTAMPTZ -> java.time.OffsetDateTime.of(LocalDateTime.ofEpochSecond(rnd.nextLong(-4_000_000_000L, 4_000_000_000L),
                    rnd.nextBoolean() ? 0 : rnd.nextInt(1_000_000_000), ZoneOffset.UTC),
                    ZoneOffset.ofHours(rnd.nextInt(-12, 13))); // any offset: keys order by the instant
            case VARBINARY -> {
                byte[] b = new byte[rnd.nextInt(6)];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) new int[] {0x00, 0x01, 0xFF, 0x7F, 0x80, rnd.nextInt(256)}[rnd.nextInt(6)];
                }
                yield b;
            }
            case UUID -> new UUID(edgeOr(rnd, Long.MIN_VALUE, Long.MAX_VALUE, rnd.nextLong()),
                    edgeOr(rnd, Long.MIN_VALUE, Long.MAX_VALUE, rnd.nextInt(3)));
        };
    }

    private static long edgeOr(Random rnd, long min, long max, long v) {
        return switch (rnd.nextInt(10)) {
            case 0 -> min;
            case 1 -> max;
            case 2 -> 0;
            case 3 -> -1;
            default -> v;
        };
    }

    private static BigDecimal randomDecimal(Random rnd) {
        BigInteger unscaled = new BigInteger(rnd.nextInt(100) + 1, rnd);
        if (rnd.nextInt(4) == 0) {
            unscaled = BigInteger.valueOf(rnd.nextInt(21) - 10);
        }
        if (rnd.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        BigDecimal v = new BigDecimal(unscaled, rnd.nextInt(40) - 10);
        // The same value at a larger scale, which must encode identically.
        return rnd.nextInt(3) == 0 ? v.setScale(v.scale() + rnd.nextInt(5)) : v;
    }

    private static String randomString(Random rnd) {
        String[] alphabet = {"\0", " ", "a", "b", "z", "\u00e9", "\u0800", "\uE000", "\uFFFF", "\uD83D\uDE00", "\uD800\uDC00"};
        StringBuilder sb = new StringBuilder();
        int n = rnd.nextInt(7);
        for (int i = 0; i < n; i++) {
            sb.append(alphabet[rnd.nextInt(alphabet.length)]);
        }
        return sb.toString();
    }

    private static String msg(String what) {
        return what + " (seed " + SEED + ", rerun with -Dtell.seed=" + SEED + ")";
    }
}
