package io.tell.sql.exec;

import static io.tell.sql.exec.RexFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.Arrays;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.junit.jupiter.api.Test;

/** Three-valued logic, the IS tests, CASE, COALESCE, NULLIF and conditions. */
class ExprLogicTest {
    private static final Boolean[] TRUTH = {Boolean.TRUE, Boolean.FALSE, null};
    private final RexFixture f = new RexFixture();

    private static Boolean and(Boolean a, Boolean b) {
        if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
            return false;
        }
        return a == null || b == null ? null : Boolean.TRUE;
    }

    private static Boolean or(Boolean a, Boolean b) {
        if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
            return true;
        }
        return a == null || b == null ? null : Boolean.FALSE;
    }

    @Test
    void andOrNotFollowThreeValuedLogic() {
        for (Boolean a : TRUTH) {
            for (Boolean b : TRUTH) {
                Object[] r = row("BO", a, "BP", b);
                String at = a + " " + b;
                assertEquals(and(a, b), f.eval("BO AND BP", r), "AND " + at);
                assertEquals(or(a, b), f.eval("BO OR BP", r), "OR " + at);
                assertEquals(and(a, and(b, a)), f.eval("BO AND BP AND I > 0", row("BO", a, "BP", b, "I", a == null ? null : a ? 1 : 0)), "AND3 " + at);
                assertEquals(or(a, or(b, null)), f.eval("BO OR BP OR I > 0", r), "OR3 " + at);
            }
            assertEquals(a == null ? null : !a, f.eval("NOT BO", row("BO", a)));
        }
    }

    @Test
    void isTestsNeverReturnNull() {
        for (Boolean a : TRUTH) {
            Object[] r = row("BO", a);
            assertEquals(Boolean.TRUE.equals(a), f.eval("BO IS TRUE", r));
            assertEquals(!Boolean.TRUE.equals(a), f.eval("BO IS NOT TRUE", r));
            assertEquals(Boolean.FALSE.equals(a), f.eval("BO IS FALSE", r));
            assertEquals(!Boolean.FALSE.equals(a), f.eval("BO IS NOT FALSE", r));
            assertEquals(a == null, f.eval("BO IS UNKNOWN", r));
            assertEquals(a == null, f.eval("BO IS NULL", r));
            assertEquals(a != null, f.eval("BO IS NOT NULL", r));
        }
        assertEquals(true, f.eval("S IS NULL", row()));
        assertEquals(false, f.eval("S IS NULL", row("S", "")));
    }

    @Test
    void caseTakesTheFirstTrueBranchAndSkipsUnknownConditions() {
        String expr = "CASE WHEN I > 10 THEN 'big' WHEN I > 0 THEN 'small' ELSE 'other' END";
        assertEquals("big  ", f.eval(expr, row("I", 11)));
        assertEquals("small", f.eval(expr, row("I", 5)));
        assertEquals("other", f.eval(expr, row("I", -1)));
        assertEquals("other", f.eval(expr, row()));
        assertNull(f.eval("CASE WHEN BO THEN I END", row("BO", false, "I", 1)));
        assertEquals(1, f.eval("CASE WHEN BO THEN I END", row("BO", true, "I", 1)));
        assertEquals("b", f.eval("CASE I WHEN 1 THEN 'a' WHEN 2 THEN 'b' END", row("I", 2)));
    }

    @Test
    void caseBranchesTakeTheResultTypesClassAndScale() {
        assertEquals(new BigDecimal("1.0"), f.eval("CASE WHEN I > 1 THEN 1 ELSE 2.5 END", row("I", 2)));
        assertEquals(new BigDecimal("2.5"), f.eval("CASE WHEN I > 1 THEN 1 ELSE 2.5 END", row("I", 0)));
        // Built directly, with branches of other types than the result: converted at compile time.
        RexNode c = f.rexBuilder.makeCall(f.type(org.apache.calcite.sql.type.SqlTypeName.DECIMAL, 12, 3), SqlStdOperatorTable.CASE,
                Arrays.asList(f.ref("BO"), f.ref("I"), f.ref("D")));
        assertEquals(new BigDecimal("7.000"), f.eval(c, row("BO", true, "I", 7, "D", new BigDecimal("1.25"))));
        assertEquals(new BigDecimal("1.250"), f.eval(c, row("BO", false, "I", 7, "D", new BigDecimal("1.25"))));
    }

    @Test
    void coalesceAndNullIf() {
        assertEquals(2, f.eval("COALESCE(I, J)", row("J", 2)));
        assertEquals(1, f.eval("COALESCE(I, J)", row("I", 1, "J", 2)));
        assertNull(f.eval("COALESCE(I, J)", row()));
        assertEquals(new BigDecimal("3.00"), f.eval("COALESCE(I, D)", row("I", 3)));
        assertEquals("none", f.eval("COALESCE(S, 'none')", row()));
        assertNull(f.eval("NULLIF(I, J)", row("I", 4, "J", 4)));
        assertEquals(4, f.eval("NULLIF(I, J)", row("I", 4, "J", 5)));
        assertEquals(4, f.eval("NULLIF(I, J)", row("I", 4)));
        // COALESCE and NULLIF as calls (Calcite's converter expands them into CASE).
        RexNode coalesce = f.rexBuilder.makeCall(SqlStdOperatorTable.COALESCE, f.ref("I"), f.ref("B"));
        assertEquals(9L, f.eval(coalesce, row("B", 9L)));
        assertEquals(3L, f.eval(coalesce, row("I", 3, "B", 9L)));
        RexNode nullIf = f.rexBuilder.makeCall(SqlStdOperatorTable.NULLIF, f.ref("I"), f.ref("J"));
        assertNull(f.eval(nullIf, row("I", 1, "J", 1)));
        assertEquals(1, f.eval(nullIf, row("I", 1, "J", 2)));
    }

    @Test
    void conditionsAreTrueOnlyForTrue() {
        Condition c = ExprCompiler.compileCondition(f.rex("I > 1 AND J < 3 OR S IS NULL"));
        ExecContext ctx = f.ctx();
        assertTrue(c.test(row("I", 2, "J", 2, "S", "x"), ctx));
        assertFalse(c.test(row("I", 2, "S", "x"), ctx)); // TRUE AND UNKNOWN
        assertTrue(c.test(row(), ctx));
        Condition not = ExprCompiler.compileCondition(f.rex("NOT (I > 1)"));
        assertFalse(not.test(row(), ctx)); // NOT UNKNOWN is UNKNOWN
        assertTrue(not.test(row("I", 0), ctx));
        Condition or = ExprCompiler.compileCondition(f.rex("BO OR BP"));
        assertTrue(or.test(row("BP", true), ctx));
        assertFalse(or.test(row("BP", false), ctx));
    }
}
