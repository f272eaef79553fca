package io.tell.sql.exec;

import static io.tell.sql.exec.RexFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.junit.jupiter.api.Test;

/** Aggregates over rows of T, through the plans Calcite converts them to. */
class AggregateCompilerTest {
    private final RexFixture f = new RexFixture();

    /** The results of the aggregate calls of {@code sql} (one group) over {@code rows} of T. */
    private List<Object> aggregate(String sql, Object[]... rows) {
        Aggregate agg = f.aggregate(sql);
        List<Object[]> input = input(agg.getInput(), rows);
        List<Object> results = new ArrayList<>();
        for (AggregateCall call : agg.getAggCallList()) {
            results.add(run(call, agg.getInput(), input));
        }
        return results;
    }

    private Object run(AggregateCall call, RelNode input, List<Object[]> rows) {
        Supplier<Accumulator> factory = AggregateCompiler.compile(call, input.getRowType());
        Accumulator acc = factory.get();
        rows.forEach(acc::add);
        Object v = acc.result();
        if (v != null) {
            assertEquals(Values.javaClass(call.getType().getSqlTypeName()), v.getClass(), call.toString());
        }
        return v;
    }

    private List<Object[]> input(RelNode input, Object[]... rows) {
        if (!(input instanceof Project project)) {
            return Arrays.asList(rows);
        }
        List<Expr> exprs = project.getProjects().stream().map(ExprCompiler::compile).toList();
        List<Object[]> out = new ArrayList<>();
        for (Object[] r : rows) {
            out.add(exprs.stream().map(e -> e.eval(r, f.ctx())).toArray());
        }
        return out;
    }

    private static BigDecimal dec(String s) {
        return new BigDecimal(s);
    }

    @Test
    void emptyInput() {
        assertEquals(Arrays.asList(0L, 0L, null, null, null, null, 0L),
                aggregate("SELECT COUNT(*), COUNT(I), SUM(I), AVG(D), MIN(S), MAX(F), COUNT(DISTINCT I) FROM T"));
    }

    @Test
    void nullsAreSkipped() {
        Object[][] rows = {row("I", 1, "D", dec("1.00"), "F", 1.0), row(), row("I", 2, "D", dec("2.00"), "F", 2.0),
                row("I", 2, "D", dec("2.00"), "F", 4.0)};
        assertEquals(Arrays.asList(4L, 3L, 5, 5L, dec("5.00"), 7.0),
                aggregate("SELECT COUNT(*), COUNT(I), SUM(I), SUM(CAST(I AS BIGINT)), SUM(D), SUM(F) FROM T", rows));
        assertEquals(Arrays.asList(1, dec("1.67"), 7.0 / 3),
                aggregate("SELECT AVG(I), AVG(D), AVG(F) FROM T", rows));
        assertEquals(Arrays.asList((Object) null), aggregate("SELECT SUM(I) FROM T", row(), row()));
    }

    @Test
    void resultClassesFollowTheCallTypes() {
        Object[][] rows = {row("SI", (short) 3, "R", 1.5f, "I", -1), row("SI", (short) 4, "R", 2.0f, "I", -2)};
        assertEquals(Arrays.asList((short) 7, 3.5f, (short) 3, -1, -3L),
                aggregate("SELECT SUM(SI), SUM(R), AVG(SI), AVG(I), SUM(CAST(I AS BIGINT)) FROM T", rows));
    }

    @Test
    void sumOverflowFailsOnlyForTheFinalResult() {
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, assertThrows(TellException.class,
                () -> aggregate("SELECT SUM(I) FROM T", row("I", Integer.MAX_VALUE), row("I", 1))).code());
        assertEquals(List.of(Integer.MAX_VALUE), aggregate("SELECT SUM(I) FROM T",
                row("I", Integer.MAX_VALUE), row("I", Integer.MAX_VALUE), row("I", -Integer.MAX_VALUE)));
        assertEquals(List.of(Long.MAX_VALUE - 1), aggregate("SELECT SUM(B) FROM T",
                row("B", Long.MAX_VALUE), row("B", 1L), row("B", -2L)));
        assertEquals(List.of(Long.MAX_VALUE), aggregate("SELECT AVG(B) FROM T",
                row("B", Long.MAX_VALUE), row("B", Long.MAX_VALUE)));
        assertEquals(ErrorCode.VALUE_OUT_OF_RANGE, assertThrows(TellException.class,
                () -> aggregate("SELECT SUM(B) FROM T", row("B", Long.MAX_VALUE), row("B", 1L))).code());
    }

    @Test
    void distinct() {
        Object[][] rows = {row("I", 1, "S", "a", "D", dec("1.50"), "C", "a    "), row("I", 1, "S", "b", "D", dec("1.5"), "C", "a"),
                row("I", 2, "S", "a"), row("I", 2, "S", "a"), row("S", "c")};
        assertEquals(Arrays.asList(2L, 3L, 3, 1L, 1L, 5L),
                aggregate("SELECT COUNT(DISTINCT I), COUNT(DISTINCT I, S), SUM(DISTINCT I), COUNT(DISTINCT D), "
                        + "COUNT(DISTINCT C), COUNT(*) FROM T", rows));
        assertEquals(Arrays.asList(dec("1.50"), 1), aggregate("SELECT AVG(DISTINCT D), MIN(DISTINCT I) FROM T", rows));
    }

    @Test
    void filter() {
        Object[][] rows = {row("I", 1, "J", 1, "BO", true), row("I", 2, "J", 2, "BO", false), row("I", 4, "J", 3),
                row("I", 8, "J", 4, "BO", true)};
        assertEquals(Arrays.asList(14, 2L, 9, 15, 2L),
                aggregate("SELECT SUM(I) FILTER (WHERE J > 1), COUNT(*) FILTER (WHERE BO), SUM(I) FILTER (WHERE BO), "
                        + "SUM(I), COUNT(DISTINCT BO) FILTER (WHERE J < 4) FROM T", rows));
        assertEquals(Arrays.asList(null, 0L), aggregate("SELECT SUM(I) FILTER (WHERE J > 10), COUNT(*) FILTER (WHERE J > 10) FROM T", rows));
    }

    @Test
    void minMaxEverySome() {
        Object[][] rows = {row("S", "b", "C", "b    ", "D", dec("-1.00"), "DT", LocalDate.of(2020, 1, 2), "BO", true),
                row("S", "ab", "C", "ab   ", "D", dec("3.25"), "DT", LocalDate.of(2019, 5, 1), "BO", false),
                row("S", null, "BO", null)};
        assertEquals(Arrays.asList("ab", "b", "ab   ", dec("3.25"), LocalDate.of(2019, 5, 1), false, true),
                aggregate("SELECT MIN(S), MAX(S), MIN(C), MAX(D), MIN(DT), EVERY(BO), SOME(BO) FROM T", rows));
    }

    @Test
    void anyValueAndSingleValue() {
        assertEquals(Arrays.asList(5), aggregate("SELECT ANY_VALUE(I) FROM T", row(), row("I", 5), row("I", 6)));
        RelNode input = f.rel("SELECT I FROM T");
        AggregateCall single = AggregateCall.create(SqlStdOperatorTable.SINGLE_VALUE, false, false, false, List.of(),
                List.of(0), -1, null, RelCollations.EMPTY, 0, input, null, "V");
        assertEquals(null, run(single, input, List.of()));
        assertEquals(7, run(single, input, List.<Object[]>of(new Object[] {7})));
        TellException e = assertThrows(TellException.class,
                () -> run(single, input, List.of(new Object[] {7}, new Object[] {8})));
        assertEquals(ErrorCode.CARDINALITY_VIOLATION, e.code());
        assertEquals("more than one row returned by a subquery used as an expression", e.getMessage());
        AggregateCall sum0 = AggregateCall.create(SqlStdOperatorTable.SUM0, false, false, false, List.of(),
                List.of(0), -1, null, RelCollations.EMPTY, 0, input, null, "Z");
        assertEquals(0, run(sum0, input, List.of()));
        assertEquals(3, run(sum0, input, List.of(new Object[] {1}, new Object[] {null}, new Object[] {2})));
    }

    @Test
    void otherAggregatesFailAtCompileTime() {
        Aggregate agg = f.aggregate("SELECT STDDEV_POP(F) FROM T");
        TellException e = assertThrows(TellException.class,
                () -> AggregateCompiler.compile(agg.getAggCallList().get(0), agg.getInput().getRowType()));
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, e.code());
    }
}
