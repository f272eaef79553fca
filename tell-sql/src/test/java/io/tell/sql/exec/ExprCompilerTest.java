package io.tell.sql.exec;

import static io.tell.sql.exec.RexFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.junit.jupiter.api.Test;

/** Leaves (columns, literals, parameters, correlation variables), unsupported operators, result classes. */
class ExprCompilerTest {
    private final RexFixture f = new RexFixture();

    @Test
    void literalsHaveTheirTypesClass() {
        assertEquals(new BigDecimal("2.50"), f.eval("2.50", row()));
        assertEquals(1000.0, f.eval("1e3", row()));
        assertEquals("abc", f.eval("'abc'", row()));
        assertEquals(true, f.eval("TRUE", row()));
        assertEquals(LocalDate.of(2020, 1, 1), f.eval("DATE '2020-01-01'", row()));
        assertEquals(LocalDateTime.of(2020, 1, 1, 10, 0, 0, 123_000_000), f.eval("TIMESTAMP '2020-01-01 10:00:00.123'", row()));
        assertEquals(LocalTime.of(10, 0, 0, 500_000_000), f.eval("TIME '10:00:00.5'", row()));
        assertEquals(5_000_000_000L, f.eval("5000000000", row()));
        assertEquals(null, f.eval("CAST(NULL AS INTEGER)", row()));
        byte[] bytes = (byte[]) f.eval("X'AB01'", row());
        assertEquals(2, bytes.length);
        assertEquals((byte) 0xAB, bytes[0]);
    }

    @Test
    void parametersComeFromTheContext() {
        f.params(5, "x");
        assertEquals(true, f.eval("I > ? AND S = ?", row("I", 6, "S", "x")));
        assertEquals(false, f.eval("I > ? AND S = ?", row("I", 5, "S", "x")));
    }

    @Test
    void correlationVariablesReadTheBoundRow() {
        RelDataType rowType = f.rel("SELECT * FROM T").getRowType();
        RexNode cor = f.rexBuilder.makeCorrel(rowType, new CorrelationId(3));
        RexNode field = f.rexBuilder.makeFieldAccess(cor, RexFixture.COLUMNS.indexOf("J"));
        RexNode sum = f.rexBuilder.makeCall(SqlStdOperatorTable.PLUS, f.ref("I"), field);
        Expr e = ExprCompiler.compile(sum);
        ExecContext ctx = f.ctx();
        ctx.bind(3, row("J", 10));
        assertEquals(11, e.eval(row("I", 1), ctx));
        ctx.bind(3, row("J", 20));
        assertEquals(21, e.eval(row("I", 1), ctx));
        assertEquals(ErrorCode.INTERNAL, assertThrows(TellException.class, () -> e.eval(row("I", 1), f.ctx())).code());
    }

    @Test
    void unsupportedOperatorsFailAtCompileTimeNamingThem() {
        RexNode rand = f.rexBuilder.makeCall(SqlStdOperatorTable.RAND);
        TellException e = assertThrows(TellException.class, () -> ExprCompiler.compile(rand));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, e.code());
        assertTrue(e.getMessage().contains("RAND"), e.getMessage());
        // A library function Tell does not implement, though Calcite knows it, is refused by name.
        RexNode soundex = f.rexBuilder.makeCall(SqlLibraryOperators.SOUNDEX, f.ref("S"));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, RexFixture.compileFailure(soundex));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, RexFixture.compileFailure(f.rex("EXISTS (SELECT 1 FROM T)")));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, RexFixture.compileFailure(f.rex("RAND()")));
        // Compiling is not evaluating: a data error in a literal operand waits for a row.
        ExprCompiler.compile(f.rex("CAST('x' || S AS INTEGER)"));
    }

    /** Every expression's value has the class of its type, for a row of typical values. */
    @Test
    void resultClassesMatchResultTypes() {
        Object[] r = row("I", 7, "B", 10L, "SI", (short) 3, "D", new BigDecimal("12.34"), "F", 2.5, "R", 1.5f,
                "S", "12", "C", "ab   ", "BO", true, "DT", LocalDate.of(2020, 2, 29),
                "TS", LocalDateTime.of(2020, 2, 29, 10, 11, 12), "TM", LocalTime.of(10, 11), "D2", new BigDecimal("1.234"),
                "J", 2, "BP", false);
        for (String expr : List.of("I + B", "SI * SI", "I + D", "D * D2", "D / I", "I / J", "D + F", "R + R", "R + I",
                "MOD(D, I)", "MOD(B, I)", "-SI", "ABS(R)", "SIGN(D2)", "FLOOR(D2)", "CEIL(R)", "ROUND(D2, 1)",
                "ROUND(B, -1)", "TRUNCATE(F, 1)", "POWER(I, J)", "EXP(I)", "CASE WHEN BO THEN I ELSE D END",
                "COALESCE(SI, I)", "COALESCE(C, S)", "NULLIF(D, I)", "CAST(S AS SMALLINT)", "CAST(S AS DECIMAL(4,1))",
                "CAST(I AS REAL)", "CAST(D AS BIGINT)", "CAST(TS AS TIME)", "CAST(C AS CHAR(2))", "S || C",
                "CHAR_LENGTH(C)", "POSITION('b' IN C)", "UPPER(C)", "SUBSTRING(C, 1, 2)", "TRIM(C)",
                "EXTRACT(DAY FROM TS)", "DT + INTERVAL '3' MONTH", "TS - INTERVAL '3' SECOND", "CURRENT_DATE",
                "FLOOR(TS TO MINUTE)", "I BETWEEN 1 AND J", "S LIKE '1%'", "I IN (1, 7)", "D2 > D")) {
            RexNode node = f.rex(expr);
            Object v = f.eval(node, r);
            assertTrue(v != null, expr + " is null");
        }
    }
}
