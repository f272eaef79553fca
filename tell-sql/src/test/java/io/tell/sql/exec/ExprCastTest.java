package io.tell.sql.exec;

import static io.tell.sql.exec.RexFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** CAST between the supported types, its errors, and {@link Values#coerce} for parameters. */
class ExprCastTest {
    private final RexFixture f = new RexFixture();

    private static BigDecimal dec(String s) {
        return new BigDecimal(s);
    }

    @Test
    void textToNumbers() {
        assertEquals(42, f.eval("CAST(S AS INTEGER)", row("S", " 42 ")));
        assertEquals(-42L, f.eval("CAST(S AS BIGINT)", row("S", "-42")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("CAST(S AS INTEGER)", row("S", "4x")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("CAST(S AS INTEGER)", row("S", "1.5")));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("CAST(S AS INTEGER)", row("S", "3000000000")));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("CAST(S AS SMALLINT)", row("S", "40000")));
        assertEquals(dec("1.24"), f.eval("CAST(S AS DECIMAL(5,2))", row("S", "1.235")));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("CAST(S AS DECIMAL(5,2))", row("S", "1234")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("CAST(S AS DECIMAL(5,2))", row("S", "abc")));
        assertEquals(1.5e3, f.eval("CAST(S AS DOUBLE)", row("S", "1.5e3")));
        assertEquals(Double.NaN, f.eval("CAST(S AS DOUBLE)", row("S", "NaN")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("CAST(S AS DOUBLE)", row("S", "1.5d")));
        assertEquals(true, f.eval("CAST(S AS BOOLEAN)", row("S", " Yes")));
        assertEquals(false, f.eval("CAST(S AS BOOLEAN)", row("S", "f")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("CAST(S AS BOOLEAN)", row("S", "maybe")));
    }

    @Test
    void numbersToNumbers() {
        assertEquals(13, f.eval("CAST(D AS INTEGER)", row("D", dec("12.50"))));
        assertEquals(-13, f.eval("CAST(D AS INTEGER)", row("D", dec("-12.50"))));
        assertEquals(12, f.eval("CAST(D AS INTEGER)", row("D", dec("12.49"))));
        assertEquals(3, f.eval("CAST(F AS INTEGER)", row("F", 2.5)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("CAST(F AS INTEGER)", row("F", Double.NaN)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("CAST(F AS INTEGER)", row("F", 3e9)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("CAST(B AS INTEGER)", row("B", 1L << 40)));
        assertEquals((short) 7, f.eval("CAST(I AS SMALLINT)", row("I", 7)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("CAST(I AS TINYINT)", row("I", 128)));
        assertEquals(dec("7"), f.eval("CAST(I AS DECIMAL(3,0))", row("I", 7)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("CAST(I AS DECIMAL(3,0))", row("I", 1000)));
        assertEquals(dec("1.24"), f.eval("CAST(D2 AS DECIMAL(4,2))", row("D2", dec("1.235"))));
        assertEquals(dec("0.1"), f.eval("CAST(F AS DECIMAL(5,1))", row("F", 0.1)));
        assertEquals(7.0, f.eval("CAST(I AS DOUBLE)", row("I", 7)));
        assertEquals(2.5f, f.eval("CAST(F AS REAL)", row("F", 2.5)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("CAST(F AS REAL)", row("F", 1e300)));
    }

    @Test
    void valuesToText() {
        assertEquals("7", f.eval("CAST(I AS VARCHAR(3))", row("I", 7)));
        assertEquals("123", f.eval("CAST(I AS VARCHAR(3))", row("I", 12345))); // explicit cast cuts
        assertEquals("-0.50", f.eval("CAST(D AS VARCHAR(10))", row("D", dec("-0.50"))));
        assertEquals("2.5", f.eval("CAST(F AS VARCHAR(30))", row("F", 2.5)));
        assertEquals("3", f.eval("CAST(F AS VARCHAR(30))", row("F", 3.0)));
        assertEquals("1e+20", f.eval("CAST(F AS VARCHAR(30))", row("F", 1e20)));
        assertEquals("1.5e-07", f.eval("CAST(F AS VARCHAR(30))", row("F", 1.5e-7)));
        assertEquals("0.1", f.eval("CAST(R AS VARCHAR(30))", row("R", 0.1f)));
        assertEquals("TRUE", f.eval("CAST(BO AS VARCHAR(5))", row("BO", true)));
        assertEquals("2020-02-29", f.eval("CAST(DT AS VARCHAR(20))", row("DT", LocalDate.of(2020, 2, 29))));
        assertEquals("2020-02-29 10:11:12.345", f.eval("CAST(TS AS VARCHAR(30))",
                row("TS", LocalDateTime.of(2020, 2, 29, 10, 11, 12, 345_000_000))));
        assertEquals("2020-02-29 10:00:00", f.eval("CAST(TS AS VARCHAR(30))", row("TS", LocalDateTime.of(2020, 2, 29, 10, 0))));
        assertEquals("10:11:00", f.eval("CAST(TM AS VARCHAR(30))", row("TM", LocalTime.of(10, 11))));
    }

    @Test
    void textToText() {
        assertEquals("ab", f.eval("CAST(C AS VARCHAR(10))", row("C", "ab   ")));
        assertEquals("abc", f.eval("CAST(S AS CHAR(3))", row("S", "abcdef")));
        assertEquals("a  ", f.eval("CAST(S AS CHAR(3))", row("S", "a")));
        assertEquals("ab", f.eval("CAST(S AS VARCHAR(2))", row("S", "abc")));
        assertEquals("\uD83D\uDE00b", f.eval("CAST(S AS VARCHAR(2))", row("S", "\uD83D\uDE00bc")));
        assertEquals("abc7", f.eval("S || I", row("S", "abc", "I", 7)));
    }

    @Test
    void textToDatetimes() {
        assertEquals(LocalDate.of(2020, 2, 29), f.eval("CAST(S AS DATE)", row("S", "2020-02-29")));
        assertEquals(LocalDate.of(2020, 2, 9), f.eval("CAST(S AS DATE)", row("S", " 2020-2-9 ")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("CAST(S AS DATE)", row("S", "2020-02-30")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("CAST(S AS DATE)", row("S", "yesterday")));
        assertEquals(LocalDateTime.of(2020, 2, 29, 10, 11, 12, 5_000_000),
                f.eval("CAST(S AS TIMESTAMP)", row("S", "2020-02-29 10:11:12.005")));
        assertEquals(LocalDateTime.of(2020, 2, 29, 10, 11), f.eval("CAST(S AS TIMESTAMP)", row("S", "2020-02-29T10:11")));
        assertEquals(LocalDateTime.of(2020, 2, 29, 0, 0), f.eval("CAST(S AS TIMESTAMP)", row("S", "2020-02-29")));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("CAST(S AS TIMESTAMP)", row("S", "2020-02-29 25:00")));
        assertEquals(LocalTime.of(10, 11, 12), f.eval("CAST(S AS TIME)", row("S", "10:11:12")));
        assertEquals(LocalDate.of(2020, 2, 29), f.eval("CAST(TS AS DATE)", row("TS", LocalDateTime.of(2020, 2, 29, 10, 0))));
        assertEquals(LocalDateTime.of(2020, 2, 29, 0, 0), f.eval("CAST(DT AS TIMESTAMP)", row("DT", LocalDate.of(2020, 2, 29))));
        assertNull(f.eval("CAST(S AS DATE)", row()));
    }

    @Test
    void unsupportedCastsFailAtCompileTime() {
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED,
                RexFixture.compileFailure(f.rexBuilder.makeCast(f.type(SqlTypeName.INTEGER), f.ref("DT"))));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED,
                RexFixture.compileFailure(f.rexBuilder.makeCast(f.type(SqlTypeName.DATE), f.ref("I"))));
    }

    private Object coerce(Object value, RelDataType type) {
        Object v = Values.coerce(value, type);
        if (v != null) {
            assertEquals(Values.javaClass(type.getSqlTypeName()), v.getClass());
        }
        return v;
    }

    private ErrorCode coerceFailure(Object value, RelDataType type) {
        return assertThrows(TellException.class, () -> Values.coerce(value, type)).code();
    }

    @Test
    void parametersCoerceExactly() {
        RelDataType integer = f.type(SqlTypeName.INTEGER);
        assertNull(coerce(null, integer));
        assertEquals(5, coerce(5L, integer));
        assertEquals(5, coerce(dec("5.00"), integer));
        assertEquals(5, coerce(5.0, integer));
        assertEquals(5, coerce("5", integer));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, coerceFailure(1L << 40, integer));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, coerceFailure(5.5, integer));
        assertEquals(ErrorCode.DATA_EXCEPTION, coerceFailure("five", integer));
        assertEquals(ErrorCode.TYPE_MISMATCH, coerceFailure(true, integer));
        assertEquals((short) 5, coerce(5, f.type(SqlTypeName.SMALLINT)));
        RelDataType decimal = f.type(SqlTypeName.DECIMAL, 10, 2);
        assertEquals(dec("1.50"), coerce(1.5, decimal));
        assertEquals(dec("1.234"), coerce(dec("1.234"), decimal)); // not rounded: a comparison must see it
        assertEquals(dec("7.00"), coerce(7, decimal));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, coerceFailure(dec("123456789.5"), decimal));
        assertEquals(2.5, coerce(2.5f, f.type(SqlTypeName.DOUBLE)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, coerceFailure(1e300, f.type(SqlTypeName.REAL)));
        assertEquals("12", coerce(12, f.type(SqlTypeName.VARCHAR, 1))); // lengths are checked by columns
        assertEquals(true, coerce("true", f.type(SqlTypeName.BOOLEAN)));
        assertEquals(true, coerce(1, f.type(SqlTypeName.BOOLEAN)));
        RelDataType date = f.type(SqlTypeName.DATE);
        assertEquals(LocalDate.of(2020, 2, 29), coerce(java.sql.Date.valueOf("2020-02-29"), date));
        assertEquals(LocalDate.of(2020, 2, 29), coerce("2020-02-29", date));
        assertEquals(LocalDate.of(2020, 2, 29), coerce(LocalDateTime.of(2020, 2, 29, 0, 0), date));
        assertEquals(ErrorCode.DATA_EXCEPTION, coerceFailure(LocalDateTime.of(2020, 2, 29, 1, 0), date));
        assertEquals(ErrorCode.TYPE_MISMATCH, coerceFailure(5, date));
        RelDataType timestamp = f.type(SqlTypeName.TIMESTAMP, 3);
        assertEquals(LocalDateTime.of(2020, 2, 29, 10, 0), coerce(java.sql.Timestamp.valueOf("2020-02-29 10:00:00"), timestamp));
        assertEquals(LocalDateTime.of(2020, 2, 29, 0, 0), coerce(LocalDate.of(2020, 2, 29), timestamp));
        assertEquals(LocalTime.of(10, 0), coerce(java.sql.Time.valueOf("10:00:00"), f.type(SqlTypeName.TIME)));
    }
}
