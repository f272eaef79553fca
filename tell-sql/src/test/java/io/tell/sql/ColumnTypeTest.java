package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

class ColumnTypeTest {

    private static ErrorCode codeOf(Runnable r) {
        return assertThrows(TellException.class, r::run).code();
    }

    @Test
    void integersConvertWhenTheyFitExactly() {
        assertEquals((short) 7, ColumnType.SMALLINT.coerce(7L));
        assertEquals(42, ColumnType.INTEGER.coerce(new BigDecimal("42.000")));
        assertEquals(5L, ColumnType.BIGINT.coerce(5.0d));
        assertEquals(Long.MAX_VALUE, ColumnType.BIGINT.coerce(BigInteger.valueOf(Long.MAX_VALUE)));
        assertSame(ErrorCode.VALUE_OUT_OF_RANGE, codeOf(() -> ColumnType.SMALLINT.coerce(32768)));
        assertSame(ErrorCode.VALUE_OUT_OF_RANGE, codeOf(() -> ColumnType.INTEGER.coerce(1L << 31)));
        assertSame(ErrorCode.VALUE_OUT_OF_RANGE, codeOf(() -> ColumnType.BIGINT.coerce(BigInteger.TWO.pow(63))));
        assertSame(ErrorCode.VALUE_OUT_OF_RANGE, codeOf(() -> ColumnType.INTEGER.coerce(1.5)));
        assertSame(ErrorCode.VALUE_OUT_OF_RANGE, codeOf(() -> ColumnType.INTEGER.coerce(Double.NaN)));
        assertSame(ErrorCode.TYPE_MISMATCH, codeOf(() -> ColumnType.INTEGER.coerce("12")));
    }

    @Test
    void decimalsTakeTheColumnScaleAndRefuseTooManyDigits() {
        ColumnType t = ColumnType.decimal(5, 2);
        assertEquals(new BigDecimal("123.46"), t.coerce(new BigDecimal("123.455")));
        assertEquals(new BigDecimal("7.00"), t.coerce(7));
        assertEquals(new BigDecimal("-999.99"), t.coerce(new BigDecimal("-999.99")));
        assertSame(ErrorCode.VALUE_OUT_OF_RANGE, codeOf(() -> t.coerce(1000)));
        assertSame(ErrorCode.VALUE_OUT_OF_RANGE, codeOf(() -> t.coerce(new BigDecimal("999.995"))));
        assertEquals(new BigDecimal("0.50"), ColumnType.decimal(2, 2).coerce(0.5));
    }

    @Test
    void floatingPoint() {
        assertEquals(1.5f, ColumnType.REAL.coerce(1.5d));
        assertEquals(Float.NaN, ColumnType.REAL.coerce(Double.NaN));
        assertSame(ErrorCode.VALUE_OUT_OF_RANGE, codeOf(() -> ColumnType.REAL.coerce(1e300)));
        assertEquals(3.0, ColumnType.DOUBLE.coerce(3));
    }

    @Test
    void stringsRespectTheirLength() {
        ColumnType v = ColumnType.varchar(3);
        assertEquals("abc", v.coerce("abc"));
        assertEquals("abc", v.coerce("abc   "), "excess trailing spaces are cut");
        assertEquals("\uD83D\uDE00ab", v.coerce("\uD83D\uDE00ab"), "length counts code points");
        TellException e = assertThrows(TellException.class, () -> v.coerce("abcd"));
        assertSame(ErrorCode.STRING_TOO_LONG, e.code());
        assertTrue(e.getMessage().contains("VARCHAR(3)"), e.getMessage());
        ColumnType c = ColumnType.character(4);
        assertEquals("ab  ", c.coerce("ab"));
        assertSame(ErrorCode.STRING_TOO_LONG, codeOf(() -> c.coerce("abcde")));
        assertSame(ErrorCode.TYPE_MISMATCH, codeOf(() -> v.coerce(12)));
        assertSame(ErrorCode.TYPE_MISMATCH, codeOf(() -> v.coerce("a\uD800")), "an unpaired surrogate would not survive UTF-8");
        assertSame(ErrorCode.TYPE_MISMATCH, codeOf(() -> v.coerce("\uDE00a")), "a low surrogate alone");
        assertSame(ErrorCode.TYPE_MISMATCH, codeOf(() -> v.coerce("\uDE00\uD83D")), "a pair the wrong way round");
        assertSame(ErrorCode.TYPE_MISMATCH, codeOf(() -> v.coerce("\uD83D\uD83D\uDE00")), "a high surrogate before a pair");
        assertSame(ErrorCode.STRING_TOO_LONG, codeOf(() -> v.coerce("\uD83D\uDE00\uD83D\uDE00ab")), "four code points");
    }

    @Test
    void datesBooleansAndNull() {
        LocalDate d = LocalDate.of(2026, 11, 22);
        assertEquals(d, ColumnType.DATE.coerce(java.sql.Date.valueOf(d)));
        LocalDateTime t = LocalDateTime.of(2026, 11, 22, 6, 30, 1, 123456789);
        assertEquals(t, ColumnType.TIMESTAMP.coerce(java.sql.Timestamp.valueOf(t)));
        assertEquals(true, ColumnType.BOOLEAN.coerce(true));
        assertSame(ErrorCode.TYPE_MISMATCH, codeOf(() -> ColumnType.BOOLEAN.coerce(1)));
        assertSame(ErrorCode.TYPE_MISMATCH, codeOf(() -> ColumnType.DATE.coerce("2026-11-22")));
        assertNull(ColumnType.varchar(1).coerce(null));
    }

    @Test
    void badParametersAreInvalidDefinitions() {
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> ColumnType.varchar(0)));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> ColumnType.character(-1)));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> ColumnType.decimal(0, 0)));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> ColumnType.decimal(5, 6)));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> new ColumnType(SqlType.INTEGER, 3, 0, 0)));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> ColumnDef.of("X", ColumnType.varchar(2)).withDefault("long")));
        assertEquals("DECIMAL(10, 2)", ColumnType.decimal(10, 2).toString());
    }
}
