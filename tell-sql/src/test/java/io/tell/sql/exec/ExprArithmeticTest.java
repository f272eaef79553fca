package io.tell.sql.exec;

import static io.tell.sql.exec.RexFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tell.error.ErrorCode;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** Arithmetic in the result type's domain, overflow and division errors, and math functions. */
class ExprArithmeticTest {
    private final RexFixture f = new RexFixture();

    private static BigDecimal dec(String s) {
        return new BigDecimal(s);
    }

    @Test
    void integerArithmeticKeepsTheResultClass() {
        assertEquals(8, f.eval("I + 1", row("I", 7)));
        assertEquals(17L, f.eval("I + B", row("I", 7, "B", 10L)));
        assertEquals((short) 6, f.eval("SI + SI", row("SI", (short) 3)));
        assertEquals((byte) 8, f.eval("CAST(I AS TINYINT) + CAST(1 AS TINYINT)", row("I", 7)));
        assertEquals(-3, f.eval("I / J", row("I", -7, "J", 2)));
        assertEquals(-1, f.eval("MOD(I, J)", row("I", -7, "J", 2)));
        assertEquals(3, f.eval("MOD(B, I)", row("B", 10L, "I", 7)));
        assertEquals(-7, f.eval("-I", row("I", 7)));
        assertNull(f.eval("I + J", row("I", 1)));
        RexNode constant = f.rex("1 + 2");
        assertInstanceOf(RexCall.class, constant); // not folded by the planner: our code computes it
        assertEquals(3, f.eval(constant, row()));
    }

    @Test
    void integerOverflowIsOutOfRange() {
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("I + J", row("I", Integer.MAX_VALUE, "J", 1)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("I * J", row("I", 65536, "J", 65536)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("SI * SI", row("SI", (short) 300)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("B * B", row("B", Long.MAX_VALUE / 2)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("B - 1", row("B", Long.MIN_VALUE)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("-I", row("I", Integer.MIN_VALUE)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("-B", row("B", Long.MIN_VALUE)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("I / J", row("I", Integer.MIN_VALUE, "J", -1)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("B / -1", row("B", Long.MIN_VALUE)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("ABS(I)", row("I", Integer.MIN_VALUE)));
        assertEquals(2147483655L, f.eval("I + 2147483648", row("I", 7)));
    }

    @Test
    void divisionByZero() {
        assertEquals(ErrorCode.DIVISION_BY_ZERO, f.failure("I / J", row("I", 1, "J", 0)));
        assertEquals(ErrorCode.DIVISION_BY_ZERO, f.failure("I / 0", row("I", 1)));
        assertEquals(ErrorCode.DIVISION_BY_ZERO, f.failure("MOD(I, J)", row("I", 1, "J", 0)));
        assertEquals(ErrorCode.DIVISION_BY_ZERO, f.failure("D / D2", row("D", dec("1.00"), "D2", dec("0.000"))));
        assertEquals(ErrorCode.DIVISION_BY_ZERO, f.failure("F / 0e0", row("F", 1.0)));
        assertEquals(ErrorCode.DIVISION_BY_ZERO, f.failure("MOD(D, I)", row("D", dec("1.00"), "I", 0)));
        assertNull(f.eval("I / J", row("J", 0)));
    }

    @Test
    void decimalsTakeTheResultScale() {
        assertEquals(dec("19.34"), f.eval("I + D", row("I", 7, "D", dec("12.34"))));
        assertEquals(dec("13.574"), f.eval("D + D2", row("D", dec("12.34"), "D2", dec("1.234"))));
        assertEquals(dec("152.2756"), f.eval("D * D", row("D", dec("12.34"))));
        assertEquals(dec("10.5"), f.eval("I * 1.5", row("I", 7)));
        assertEquals(dec("1.000000"), f.eval("D / D", row("D", dec("12.34"))));
        assertEquals(dec("0.666667"), f.eval("D / I", row("D", dec("2.00"), "I", 3)));
        assertEquals(dec("-0.666667"), f.eval("D / I", row("D", dec("-2.00"), "I", 3)));
        assertEquals(dec("0.333333333333"), f.eval("1.0 / 3", row()));
        assertEquals(dec("5.34"), f.eval("MOD(D, I)", row("D", dec("12.34"), "I", 7)));
        assertEquals(dec("1.879080904"), f.eval("D2 * D2 * D2", row("D2", dec("1.234"))));
        assertEquals(dec("-12.34"), f.eval("-D", row("D", dec("12.34"))));
    }

    @Test
    void decimalOverflowIsOutOfRange() {
        RexNode sum = f.rexBuilder.makeCall(f.type(SqlTypeName.DECIMAL, 6, 2), SqlStdOperatorTable.PLUS,
                List.of(f.ref("D"), f.ref("D")));
        assertEquals(dec("1999.98"), f.eval(sum, row("D", dec("999.99"))));
        RexNode tight = f.rexBuilder.makeCall(f.type(SqlTypeName.DECIMAL, 5, 2), SqlStdOperatorTable.PLUS,
                List.of(f.ref("D"), f.ref("D")));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure(tight, row("D", dec("999.99"))));
    }

    @Test
    void approximateArithmetic() {
        assertEquals(9.5, f.eval("I + F", row("I", 7, "F", 2.5)));
        assertEquals(14.84, (Double) f.eval("D + F", row("D", dec("12.34"), "F", 2.5)), 1e-12);
        assertEquals(3.0f, f.eval("R + R", row("R", 1.5f)));
        assertEquals(-2.5, f.eval("-F", row("F", 2.5)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("F * F", row("F", 1e200)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("R * R", row("R", 1e30f)));
    }

    @Test
    void absSignFloorCeil() {
        assertEquals(7, f.eval("ABS(I)", row("I", -7)));
        assertEquals(dec("12.34"), f.eval("ABS(D)", row("D", dec("-12.34"))));
        assertEquals(2.5, f.eval("ABS(F)", row("F", -2.5)));
        assertEquals(-1, f.eval("SIGN(I)", row("I", -7)));
        assertEquals(dec("-1.00"), f.eval("SIGN(D)", row("D", dec("-0.50"))));
        assertEquals(dec("-13"), f.eval("FLOOR(D)", row("D", dec("-12.34"))));
        assertEquals(dec("-12"), f.eval("CEIL(D)", row("D", dec("-12.34"))));
        assertEquals(dec("13"), f.eval("CEILING(D)", row("D", dec("12.01"))));
        assertEquals(3.0, f.eval("CEIL(F)", row("F", 2.1)));
        assertEquals(7, f.eval("FLOOR(I)", row("I", 7)));
    }

    @Test
    void roundAndTruncate() {
        assertEquals(dec("13.00"), f.eval("ROUND(D)", row("D", dec("12.50"))));
        assertEquals(dec("-13.00"), f.eval("ROUND(D)", row("D", dec("-12.50"))));
        assertEquals(dec("12.40"), f.eval("ROUND(D, 1)", row("D", dec("12.35"))));
        assertEquals(dec("12.35"), f.eval("ROUND(D, 5)", row("D", dec("12.35"))));
        assertEquals(dec("12.30"), f.eval("TRUNCATE(D, 1)", row("D", dec("12.39"))));
        assertEquals(dec("-12.30"), f.eval("TRUNCATE(D, 1)", row("D", dec("-12.39"))));
        assertEquals(1250, f.eval("ROUND(I, -1)", row("I", 1245)));
        assertEquals(1200, f.eval("ROUND(I, -2)", row("I", 1249)));
        assertEquals(1245, f.eval("ROUND(I, 2)", row("I", 1245)));
        assertEquals(1240, f.eval("TRUNCATE(I, -1)", row("I", 1249)));
        assertEquals(3.0, f.eval("ROUND(F)", row("F", 2.5)));
        assertEquals(2.35, f.eval("ROUND(F, 2)", row("F", 2.345)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("ROUND(I, -1)", row("I", Integer.MAX_VALUE)));
    }

    @Test
    void powerRootsLogarithms() {
        assertEquals(49.0, f.eval("POWER(I, 2)", row("I", 7)));
        assertEquals(1.5, f.eval("SQRT(F)", row("F", 2.25)));
        assertEquals(Math.exp(2.5), f.eval("EXP(F)", row("F", 2.5)));
        assertEquals(Math.log(2.5), f.eval("LN(F)", row("F", 2.5)));
        assertEquals(2.0, f.eval("LOG10(F)", row("F", 100.0)));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("LN(F)", row("F", 0.0)));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("LOG10(F)", row("F", -1.0)));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("SQRT(F)", row("F", -1.0)));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure("POWER(I, -1)", row("I", 0)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, f.failure("EXP(F)", row("F", 1000.0)));
        RexNode sqrt = f.rexBuilder.makeCall(SqlStdOperatorTable.SQRT, f.ref("F"));
        assertEquals(3.0, f.eval(sqrt, row("F", 9.0)));
        assertEquals(ErrorCode.DATA_EXCEPTION, f.failure(sqrt, row("F", -9.0)));
    }
}
