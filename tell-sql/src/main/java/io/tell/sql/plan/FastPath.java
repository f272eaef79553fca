package io.tell.sql.plan;

import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * Plans single-row primary-key statements straight from the converted tree, skipping the
 * rule-based and cost-based phases: SELECT/UPDATE/DELETE whose WHERE binds every primary-key
 * column by equality (projections and further conditions allowed), and INSERT ... VALUES.
 * Anything else (joins, aggregates, sorting, subqueries) returns null and takes the general
 * planner.
 */
public final class FastPath {
    private FastPath() {
    }

    /** The physical plan of {@code rel}, or null when it is not a fast-path shape. */
    public static RelNode plan(RelNode rel) {
        if (rel instanceof LogicalTableModify m) {
            boolean insert = m.getOperation() == LogicalTableModify.Operation.INSERT;
            if (!insert && m.getOperation() != LogicalTableModify.Operation.UPDATE
                    && m.getOperation() != LogicalTableModify.Operation.DELETE) {
                return null;
            }
            RelNode in = insert ? values(m.getInput()) : pointRows(m.getInput());
            return in == null ? null : new TellTableModify(m.getCluster(), tell(m), m.getTable(), m.getCatalogReader(),
                    in, m.getOperation(), m.getUpdateColumnList(), m.getSourceExpressionList(), m.isFlattened());
        }
        return pointRows(rel);
    }

    /** Project*(Filter(Scan)) with the whole primary key bound by equality. */
    private static RelNode pointRows(RelNode rel) {
        if (rel instanceof LogicalProject p) {
            if (hasSubQuery(p.getProjects())) {
                return null;
            }
            RelNode in = pointRows(p.getInput());
            return in == null ? null : new TellProject(p.getCluster(), tell(p), in, p.getProjects(), p.getRowType());
        }
        if (rel instanceof LogicalFilter f && f.getInput() instanceof LogicalTableScan scan
                && !hasSubQuery(List.of(f.getCondition())) && !RexUtil.containsCorrelation(f.getCondition())) {
            for (RelNode alternative : IndexScanRule.alternatives(f, scan)) {
                RelNode lookup = alternative instanceof TellFilter tf ? tf.getInput() : alternative;
                if (lookup instanceof TellIndexScan ix && ix.index == null && ix.pointLookup()) {
                    return alternative;
                }
            }
        }
        return null;
    }

    /** Project*(Values): the rows of INSERT ... VALUES (one row, or several without subqueries). */
    private static RelNode values(RelNode rel) {
        if (rel instanceof LogicalProject p) {
            if (hasSubQuery(p.getProjects())) {
                return null;
            }
            RelNode in = values(p.getInput());
            return in == null ? null : new TellProject(p.getCluster(), tell(p), in, p.getProjects(), p.getRowType());
        }
        if (rel instanceof LogicalValues v) {
            return new TellValues(v.getCluster(), v.getRowType(), v.getTuples(), tell(v));
        }
        return null;
    }

    private static boolean hasSubQuery(List<RexNode> exprs) {
        for (RexNode e : exprs) {
            if (RexUtil.SubQueryFinder.find(e) != null) {
                return true;
            }
        }
        return false;
    }

    private static org.apache.calcite.plan.RelTraitSet tell(RelNode rel) {
        return rel.getTraitSet().replace(TellRel.TELL);
    }

}
