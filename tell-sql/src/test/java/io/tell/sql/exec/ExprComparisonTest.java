package io.tell.sql.exec;

import static io.tell.sql.exec.RexFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tell.error.ErrorCode;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** Comparisons across types, PAD SPACE, IS DISTINCT FROM, SEARCH, IN and BETWEEN. */
class ExprComparisonTest {
    private final RexFixture f = new RexFixture();

    private Object cmp(RexNode left, RexNode right, Object[] row) {
        return f.eval(f.rexBuilder.makeCall(SqlStdOperatorTable.LESS_THAN, left, right), row);
    }

    @Test
    void comparisonsOnNullAreUnknown() {
        assertNull(f.eval("I = J", row("I", 1)));
        assertNull(f.eval("I < J", row("J", 1)));
        assertNull(f.eval("S <> 'a'", row()));
    }

    @Test
    void mixedNumericTypesComparePromoted() {
        // Built without the casts the converter would add, as rules may leave them.
        Object[] r = row("I", 7, "B", 8L, "D", new BigDecimal("7.50"), "F", 7.25, "SI", (short) 7);
        assertEquals(true, cmp(f.ref("I"), f.ref("B"), r));
        assertEquals(true, cmp(f.ref("I"), f.ref("D"), r));
        assertEquals(false, cmp(f.ref("D"), f.ref("F"), r));
        assertEquals(true, cmp(f.ref("F"), f.ref("D"), r));
        assertEquals(true, f.eval(f.rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, f.ref("SI"), f.ref("I")), r));
        assertEquals(true, f.eval("I = D", row("I", 7, "D", new BigDecimal("7.00"))));
        assertEquals(true, f.eval("D = 1.5", row("D", new BigDecimal("1.50"))));
        assertEquals(false, f.eval("I = 2.5", row("I", 2)));
        assertEquals(true, f.eval("I < 2147483648", row("I", Integer.MAX_VALUE)));
    }

    @Test
    void doublesCompareAsSqlDoes() {
        assertEquals(true, f.eval("F = 0.0e0", row("F", -0.0)));
        assertEquals(true, f.eval("F > 1e300", row("F", Double.NaN)));
    }

    @Test
    void stringsCompareByCodePoint() {
        assertEquals(true, f.eval("S < 'b'", row("S", "abc")));
        assertEquals(false, f.eval("S = 'ab'", row("S", "ab ")));
        // U+1F600 (a surrogate pair) sorts after U+FFFD by code point, before it in UTF-16 units.
        assertEquals(true, f.eval("S > C", row("S", "\uD83D\uDE00", "C", "\uFFFD    ")));
        assertEquals(true, f.eval("S < C", row("S", "\uFFFC", "C", "\uFFFD    ")));
    }

    @Test
    void charComparesIgnoringTrailingSpaces() {
        assertEquals(true, f.eval("C = 'ab'", row("C", "ab   ")));
        assertEquals(true, f.eval("C = S", row("C", "ab   ", "S", "ab")));
        assertEquals(false, f.eval("C = S", row("C", "ab   ", "S", "ab ")));
        assertEquals(true, f.eval("C < 'ab '", row("C", "aa   ")));
        // CHAR against VARCHAR without the converter's cast: still PAD SPACE.
        assertEquals(true, f.eval(f.rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, f.ref("C"), f.ref("S")),
                row("C", "ab   ", "S", "ab ")));
    }

    @Test
    void datesAndTimestamps() {
        Object[] r = row("DT", LocalDate.of(2020, 2, 29), "TS", LocalDateTime.of(2020, 2, 29, 0, 0));
        assertEquals(true, f.eval("DT = '2020-02-29'", r));
        assertEquals(false, f.eval("TS > DT", r));
        assertEquals(true, f.eval(f.rexBuilder.makeCall(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, f.ref("DT"), f.ref("TS")), r));
        assertEquals(true, f.eval("TS < TIMESTAMP '2020-02-29 00:00:00.001'", r));
    }

    @Test
    void isDistinctFrom() {
        RexNode distinct = f.rexBuilder.makeCall(SqlStdOperatorTable.IS_DISTINCT_FROM, f.ref("I"), f.ref("J"));
        RexNode same = f.rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_DISTINCT_FROM, f.ref("I"), f.ref("J"));
        assertEquals(false, f.eval(distinct, row()));
        assertEquals(true, f.eval(distinct, row("I", 1)));
        assertEquals(false, f.eval(distinct, row("I", 1, "J", 1)));
        assertEquals(true, f.eval(same, row()));
        assertEquals(false, f.eval(same, row("J", 1)));
        assertEquals(true, f.eval("I IS NOT DISTINCT FROM J", row()));
        assertEquals(true, f.eval("I IS DISTINCT FROM J", row("I", 1, "J", 2)));
    }

    @Test
    void incomparableTypesFailAtCompileTime() {
        RexNode node = f.rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, f.ref("I"), f.ref("DT"));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, RexFixture.compileFailure(node));
    }

    @Test
    void searchPointsAndRanges() {
        RexNode in = f.rex("I IN (1, 2, 7)");
        assertEquals(SqlKind.SEARCH, in.getKind());
        assertEquals(true, f.eval(in, row("I", 7)));
        assertEquals(false, f.eval(in, row("I", 3)));
        assertNull(f.eval(in, row()));
        assertEquals(true, f.eval("I NOT IN (1, 2)", row("I", 3)));
        assertEquals(false, f.eval("I NOT IN (1, 2)", row("I", 2)));
        assertNull(f.eval("I NOT IN (1, 2)", row()));
        String ranges = "I IN (1, 2) OR I > 10 OR I BETWEEN 4 AND 6";
        assertEquals(SqlKind.SEARCH, f.rex(ranges).getKind());
        for (int i = -1; i <= 12; i++) {
            boolean expected = i == 1 || i == 2 || i > 10 || i >= 4 && i <= 6;
            assertEquals(expected, f.eval(ranges, row("I", i)), "I = " + i);
        }
        assertEquals(true, f.eval("I > 1 AND I < 10 AND I <> 5", row("I", 4)));
        assertEquals(false, f.eval("I > 1 AND I < 10 AND I <> 5", row("I", 5)));
        assertEquals(false, f.eval("I > 1 AND I < 10 AND I <> 5", row("I", 10)));
    }

    @Test
    void searchOverOtherTypes() {
        assertEquals(true, f.eval("D IN (12.34, 1.5)", row("D", new BigDecimal("1.50"))));
        assertEquals(false, f.eval("D IN (12.34, 1.5)", row("D", new BigDecimal("1.51"))));
        assertEquals(true, f.eval("D BETWEEN 1 AND 20", row("D", new BigDecimal("20.00"))));
        assertEquals(true, f.eval("F IN (2.5, 3.0)", row("F", 3.0)));
        assertEquals(true, f.eval("S IN ('a', 'abc')", row("S", "abc")));
        assertEquals(false, f.eval("S IN ('a', 'abc')", row("S", "ab")));
        assertEquals(true, f.eval("C IN ('a', 'ab')", row("C", "ab   ")));
        assertEquals(true, f.eval("S BETWEEN 'a' AND 'b'", row("S", "az")));
        assertEquals(true, f.eval("C BETWEEN 'a' AND 'b'", row("C", "b    ")));
        assertEquals(true, f.eval("DT IN (DATE '2020-02-29', DATE '2020-01-01')", row("DT", LocalDate.of(2020, 1, 1))));
        assertEquals(true, f.eval("TS BETWEEN TIMESTAMP '2020-01-01 00:00:00' AND TIMESTAMP '2020-03-01 00:00:00'",
                row("TS", LocalDateTime.of(2020, 3, 1, 0, 0))));
    }

    @Test
    void searchWithNullAsTrue() {
        RexNode node = f.rex("I IN (1, 2) OR I IS NULL");
        assertEquals(true, f.eval(node, row()));
        assertEquals(false, f.eval(node, row("I", 3)));
    }

    @Test
    void betweenCalls() {
        RexNode between = f.rexBuilder.makeCall(SqlStdOperatorTable.BETWEEN, f.ref("I"), f.ref("J"),
                f.rexBuilder.makeLiteral(10, f.type(SqlTypeName.INTEGER)));
        assertEquals(true, f.eval(between, row("I", 5, "J", 1)));
        assertEquals(false, f.eval(between, row("I", 11)));
        assertNull(f.eval(between, row("I", 5)));
        RexNode symmetric = f.rexBuilder.makeCall(SqlStdOperatorTable.SYMMETRIC_BETWEEN, f.ref("I"), f.ref("J"),
                f.rexBuilder.makeLiteral(1, f.type(SqlTypeName.INTEGER)));
        assertEquals(true, f.eval(symmetric, row("I", 5, "J", 10)));
    }
}
