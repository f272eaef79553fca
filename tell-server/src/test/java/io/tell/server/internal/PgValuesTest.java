package io.tell.server.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.tell.error.TellException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Text and binary values as PostgreSQL writes and reads them. */
class PgValuesTest {
    @Test
    void textAsPostgresWritesIt() {
        assertEquals("t", TextValues.format(true));
        assertEquals("0.1", TextValues.format(0.1));
        assertEquals("1e+20", TextValues.format(1e20));
        assertEquals("-12.500", TextValues.format(new BigDecimal("-12.500")));
        assertEquals("2024-05-06 07:08:09.1234", TextValues.format(LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_400_999)));
        assertEquals("2024-05-06 00:00:00", TextValues.format(LocalDate.of(2024, 5, 6).atStartOfDay()));
        assertEquals("\\x00ff", TextValues.format(new byte[] {0, -1}));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "2024-01-01|2024-01-01", "2024-01-01 +02|2024-01-01", "2024-05-06 07:08:09.5+02|2024-05-06 07:08:09.5",
        "2024-05-06 07:08:09-05:30|2024-05-06 07:08:09", "2024-05-06 07:08:09|2024-05-06 07:08:09"})
    void temporalTextDropsTheZone(String text, String expected) {
        assertEquals(expected, TextValues.parse(text, PgType.TIMESTAMP));
    }

    /** Numeric in binary: base-10000 groups, weight, sign, display scale; checked against bytes PostgreSQL sends. */
    @Test
    void numericBinaryMatchesPostgres() {
        // PostgreSQL 15: SELECT numeric_send(x) for each (12345.678: ndigits 3, weight 1, sign 0, dscale 3, 1 2345 6780)
        assertEquals("0003000100000003000109291a7c", hex(PgType.NUMERIC, new BigDecimal("12345.678")));
        // -0.0012: ndigits 1, weight -1, sign 0x4000, dscale 4, digit 12
        assertEquals("0001ffff40000004000c", hex(PgType.NUMERIC, new BigDecimal("-0.0012")));
        assertEquals("0000000000000002", hex(PgType.NUMERIC, new BigDecimal("0.00")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1", "-1", "12345.678", "-0.0012", "100000000", "0.00", "99999999999999999999.123456789"})
    void numericBinaryRoundTrips(String value) {
        BigDecimal d = new BigDecimal(value);
        assertEquals(d, BinaryValues.read(PgType.NUMERIC, bytes(PgType.NUMERIC, d)));
    }

    @Test
    void temporalBinaryCountsFrom2000() {
        assertEquals("00000000", hex(PgType.DATE, LocalDate.of(2000, 1, 1)));
        assertEquals(LocalDate.of(1999, 12, 31), BinaryValues.read(PgType.DATE, new byte[] {-1, -1, -1, -1}));
        LocalDateTime t = LocalDateTime.of(2024, 5, 6, 7, 8, 9, 123_456_000);
        assertEquals(t, BinaryValues.read(PgType.TIMESTAMP, bytes(PgType.TIMESTAMP, t)));
        assertEquals(LocalTime.of(1, 2, 3), BinaryValues.read(PgType.TIME, bytes(PgType.TIME, LocalTime.of(1, 2, 3))));
        assertThrows(TellException.class, () -> BinaryValues.read(PgType.INT4, new byte[3]));
        assertThrows(TellException.class, () -> BinaryValues.read(PgType.NUMERIC, new byte[] {0, 1, 0, 0, 0, 0, 0, 0, 0x7f, 0}));
    }

    /** uuid_send is the 16 bytes in order; bytea's binary form is the bytes; text forms as PostgreSQL writes and reads them. */
    @Test
    void uuidsAndByteStrings() {
        UUID u = UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
        assertEquals("a0eebc999c0b4ef8bb6d6bb9bd380a11", hex(PgType.UUID, u));
        assertEquals(u, BinaryValues.read(PgType.UUID, bytes(PgType.UUID, u)));
        assertThrows(TellException.class, () -> BinaryValues.read(PgType.UUID, new byte[15]));
        assertEquals("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", TextValues.format(u));
        byte[] b = {0, 1, (byte) 0xfe};
        assertArrayEquals(b, (byte[]) BinaryValues.read(PgType.BYTEA, b));
        assertArrayEquals(b, (byte[]) TextValues.parse("\\x0001FE", PgType.BYTEA));
        assertArrayEquals(new byte[] {'a', '\\', 0}, (byte[]) TextValues.parse("a\\\\\\000", PgType.BYTEA));
        assertThrows(TellException.class, () -> TextValues.parse("\\x0", PgType.BYTEA));
        assertEquals("hi", BinaryValues.read(PgType.TEXT, new byte[] {'h', 'i'}));
    }

    private static byte[] bytes(PgType type, Object v) {
        ByteBuf b = Unpooled.buffer();
        BinaryValues.write(type, v, b);
        return ByteBufUtil.getBytes(b);
    }

    private static String hex(PgType type, Object v) {
        return ByteBufUtil.hexDump(bytes(type, v));
    }
}
