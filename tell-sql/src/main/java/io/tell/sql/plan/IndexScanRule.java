package io.tell.sql.plan;

import io.tell.sql.IndexDef;
import io.tell.sql.TableDef;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Filter(scan) becomes an index scan (+ a filter for what the index does not cover) for the
 * primary key and every index whose leading columns have equality conjuncts
 * ({@code col = literal | ? | outer column}, or a deterministic function of those), optionally followed by a range on the next
 * column. Offered next to the full scan; the cost model picks.
 */
final class IndexScanRule extends RelOptRule {
    static final IndexScanRule INSTANCE = new IndexScanRule();

    @SuppressWarnings("deprecation")
    private IndexScanRule() {
        super(operand(LogicalFilter.class, operand(LogicalTableScan.class, none())), "TellIndexScanRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        for (RelNode alternative : alternatives(call.rel(0), call.rel(1))) {
            call.transformTo(alternative);
        }
    }

    /** The index scans (each with a filter for the rest of the condition) that can replace filter(scan). */
    static List<RelNode> alternatives(Filter filter, TableScan scan) {
        TableDef def = Implementor.def(scan.getTable());
        // SEARCH(x, Sarg[[a..b)]) (what simplification makes of a range) as plain comparisons
        List<RexNode> conjuncts = RelOptUtil.conjunctions(
                RexUtil.expandSearch(filter.getCluster().getRexBuilder(), null, filter.getCondition()));
        List<RelNode> out = new ArrayList<>();
        if (!def.primaryKey().isEmpty()) {
            offer(out, filter, scan, def, null, def.primaryKey(), true, conjuncts);
        }
        for (IndexDef ix : def.indexes()) {
            if (!ix.writeOnly()) { // one being filled by CREATE INDEX is not read yet
                offer(out, filter, scan, def, ix.name(), ix.columns(), ix.unique(), conjuncts);
            }
        }
        return out;
    }

    private static void offer(List<RelNode> out, Filter filter, TableScan scan, TableDef def,
                              String index, List<String> columns, boolean unique, List<RexNode> conjuncts) {
        List<RexNode> rest = new ArrayList<>(conjuncts);
        List<RexNode> keys = new ArrayList<>();
        int next = 0;
        for (; next < columns.size(); next++) {
            Bound eq = find(rest, def.columnIndex(columns.get(next)), true);
            if (eq == null) {
                break;
            }
            rest.remove(eq.conjunct);
            keys.add(eq.value);
        }
        Bound lower = null;
        Bound upper = null;
        if (next < columns.size()) {
            int column = def.columnIndex(columns.get(next));
            lower = findRange(rest, column, true);
            if (lower != null) {
                rest.remove(lower.conjunct);
            }
            upper = findRange(rest, column, false);
            if (upper != null) {
                rest.remove(upper.conjunct);
            }
        }
        if (keys.isEmpty() && lower == null && upper == null) {
            return;
        }
        RelNode result = new TellIndexScan(scan.getCluster(), scan.getTraitSet().replace(TellRel.TELL), scan.getTable(),
                index, keys, lower == null ? null : lower.value, lower != null && lower.inclusive,
                upper == null ? null : upper.value, upper != null && upper.inclusive, unique);
        if (!rest.isEmpty()) {
            result = new TellFilter(filter.getCluster(), filter.getTraitSet().replace(TellRel.TELL), result,
                    RexUtil.composeConjunction(filter.getCluster().getRexBuilder(), rest));
        }
        out.add(result);
    }

    /** A conjunct bounding one column by a value known when the scan opens. */
    private record Bound(RexNode conjunct, RexNode value, boolean inclusive) {
    }

    private static Bound find(List<RexNode> conjuncts, int column, boolean allowCast) {
        for (RexNode c : conjuncts) {
            if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call) {
                RexNode a = call.getOperands().get(0);
                RexNode b = call.getOperands().get(1);
                if (isColumn(a, column, allowCast) && isKnown(b)) {
                    return new Bound(c, b, true);
                }
                if (isColumn(b, column, allowCast) && isKnown(a)) {
                    return new Bound(c, a, true);
                }
            }
        }
        return null;
    }

    private static Bound findRange(List<RexNode> conjuncts, int column, boolean lower) {
        for (RexNode c : conjuncts) {
            if (!(c instanceof RexCall call) || call.getOperands().size() != 2) {
                continue;
            }
            SqlKind kind = c.getKind();
            RexNode a = call.getOperands().get(0);
            RexNode b = call.getOperands().get(1);
            if (isColumn(b, column, false) && isKnown(a)) {
                kind = kind.reverse();
                RexNode t = a;
                a = b;
                b = t;
            }
            if (!isColumn(a, column, false) || !isKnown(b)) {
                continue;
            }
            if (lower && (kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL)) {
                return new Bound(c, b, kind == SqlKind.GREATER_THAN_OR_EQUAL);
            }
            if (!lower && (kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL)) {
                return new Bound(c, b, kind == SqlKind.LESS_THAN_OR_EQUAL);
            }
        }
        return null;
    }

    private static boolean isColumn(RexNode n, int column, boolean allowCast) {
        if (allowCast && n.getKind() == SqlKind.CAST) {
            n = ((RexCall) n).getOperands().get(0);
        }
        return n instanceof RexInputRef ref && ref.getIndex() == column;
    }

    /**
     * Known when the scan opens: a literal, a parameter, a column of an outer row, or a
     * deterministic function of those (a cast, or e.g. {@code MOD($cor.S_W_ID * $cor.S_I_ID, 10000)},
     * the CH-benCHmark's supplier of a stock row), so that a join on an expression of the outer
     * row's columns looks the key up instead of scanning the table for every outer row.
     */
    private static boolean isKnown(RexNode n) {
        if (n instanceof RexCall call) {
            return call.getOperator().isDeterministic() && !call.getOperator().isDynamicFunction()
                    && !call.getOperands().isEmpty() && call.getOperands().stream().allMatch(IndexScanRule::isKnown);
        }
        return n instanceof RexLiteral lit && !lit.isNull() || n instanceof RexDynamicParam
                || n instanceof RexFieldAccess f && f.getReferenceExpr() instanceof RexCorrelVariable;
    }
}
