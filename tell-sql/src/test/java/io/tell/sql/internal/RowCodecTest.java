package io.tell.sql.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnType;
import io.tell.sql.RandomValues;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RowCodecTest {
    private static final long SEED = Long.getLong("tell.seed", 1);

    @Test
    void randomRowsRoundTripWholeAndByColumn() {
        Random random = new Random(SEED);
        RandomValues values = new RandomValues(random);
        for (int schema = 0; schema < 300; schema++) {
            List<ColumnType> types = new ArrayList<>();
            int n = 1 + random.nextInt(random.nextBoolean() ? 4 : 40);
            for (int i = 0; i < n; i++) {
                types.add(values.type());
            }
            RowCodec codec = new RowCodec(types);
            for (int r = 0; r < 20; r++) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    row[i] = random.nextInt(5) == 0 ? null : values.value(types.get(i));
                }
                String where = "seed " + SEED + " (-Dtell.seed=" + SEED + "), schema " + schema + " " + types
                        + ", row " + Arrays.deepToString(row);
                byte[] bytes = codec.encode(row);
                assertArrayEquals(row, codec.decode(bytes), where);
                for (int i = 0; i < n; i++) {
                    assertArrayEquals(new Object[] {row[i]}, new Object[] {codec.decodeColumn(bytes, i)}, where + ", column " + i);
                }
            }
        }
    }

    @Test
    void rowsAreCompact() {
        RowCodec codec = new RowCodec(List.of(ColumnType.INTEGER, ColumnType.varchar(20), ColumnType.BOOLEAN,
                ColumnType.decimal(10, 2)));
        byte[] bytes = codec.encode(new Object[] {1, "Bern", null, new BigDecimal("12.50")});
        // format, count, bitmap, int 1 (zigzag 2), "Bern" (1+4), decimal 1250 (1+2)
        assertEquals(1 + 1 + 1 + 1 + 5 + 3, bytes.length);
        assertArrayEquals(new byte[] {1, 4, 4}, Arrays.copyOf(bytes, 3));
    }

    @Test
    void charIsStoredWithoutPaddingAndReadPadded() {
        RowCodec codec = new RowCodec(List.of(ColumnType.character(6)));
        byte[] bytes = codec.encode(new Object[] {"ab    "});
        assertEquals(1 + 1 + 1 + 1 + 2, bytes.length);
        assertEquals("ab    ", codec.decode(bytes)[0]);
    }

    @Test
    void badBytesAreCorruptData() {
        RowCodec codec = new RowCodec(List.of(ColumnType.INTEGER, ColumnType.varchar(10)));
        byte[] good = codec.encode(new Object[] {5, "hello"});
        assertSame(ErrorCode.CORRUPT_DATA, assertThrows(TellException.class,
                () -> codec.decode(Arrays.copyOf(good, good.length - 1))).code());
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        assertSame(ErrorCode.CORRUPT_DATA, assertThrows(TellException.class, () -> codec.decode(longer)).code());
        byte[] otherFormat = good.clone();
        otherFormat[0] = 9;
        TellException e = assertThrows(TellException.class, () -> codec.decode(otherFormat));
        assertSame(ErrorCode.CORRUPT_DATA, e.code());
        assertEquals("unknown row format 9", e.getMessage());
    }

    @Test
    void rowsOfOtherWidthsDecodeUnderAddedColumns() {
        RowCodec before = new RowCodec(List.of(ColumnType.INTEGER, ColumnType.varchar(10)));
        RowCodec after = new RowCodec(List.of(ColumnType.INTEGER, ColumnType.varchar(10), ColumnType.BIGINT,
                ColumnType.BOOLEAN), new Object[] {null, null, 7L, null});
        byte[] old = before.encode(new Object[] {5, "hello"});
        assertArrayEquals(new Object[] {5, "hello", 7L, null}, after.decode(old)); // added: their fills
        assertEquals(7L, after.decodeColumn(old, 2));
        assertArrayEquals(new Object[] {"hello", 7L}, after.decode(old, new int[] {1, 2}));
        byte[] newer = after.encode(new Object[] {6, null, 8L, true});
        assertArrayEquals(new Object[] {6, null}, before.decode(newer)); // an older schema reads its own columns
        assertEquals(6, before.decodeColumn(newer, 0));
        assertArrayEquals(new Object[] {6, null, 8L, true}, after.decode(newer));
    }

    @Test
    void valuesOfTheWrongClassAreRefused() {
        RowCodec codec = new RowCodec(List.of(ColumnType.INTEGER, ColumnType.DATE, ColumnType.decimal(4, 1)));
        assertSame(ErrorCode.TYPE_MISMATCH, assertThrows(TellException.class,
                () -> codec.encode(new Object[] {5L, null, null})).code());
        assertSame(ErrorCode.TYPE_MISMATCH, assertThrows(TellException.class,
                () -> codec.encode(new Object[] {5, "2026-01-01", null})).code());
        assertSame(ErrorCode.VALUE_OUT_OF_RANGE, assertThrows(TellException.class,
                () -> codec.encode(new Object[] {5, LocalDate.EPOCH, new BigDecimal("1.25")})).code());
        assertThrows(IllegalArgumentException.class, () -> codec.encode(new Object[] {5}));
    }

    /** A row written after ALTER COLUMN ... TYPE widened INTEGER to BIGINT, read under the older catalog: 40001, never a cut value. */
    @Test
    void anIntegerWiderThanItsOlderTypeIsARetryNotACut() {
        byte[] wide = new RowCodec(List.of(ColumnType.BIGINT)).encode(new Object[] {9_000_000_000L});
        RowCodec older = new RowCodec(List.of(ColumnType.INTEGER));
        TellException e = assertThrows(TellException.class, () -> older.decode(wide));
        assertEquals(ErrorCode.TX_CONFLICT, e.code());
        assertEquals(7, older.decode(new RowCodec(List.of(ColumnType.BIGINT)).encode(new Object[] {7L}))[0]);
    }
}
