package io.tell.sql.engine;

import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * {@code [NOT] EXISTS} in a WHERE clause as a semi or anti join. A conjunct {@code EXISTS
 * (SELECT … FROM r WHERE c)} whose subquery is a filter over an uncorrelated input, with the
 * outer row referred to only in {@code c}, keeps exactly the outer rows for which some row of
 * {@code r} satisfies {@code c}: that is {@code outer SEMI JOIN r ON c}, and {@code NOT EXISTS}
 * is the anti join (both two-valued, as EXISTS is, whatever NULLs {@code c} meets). Left to
 * Calcite, such a subquery becomes a correlated join that the decorrelator turns into a join
 * with the distinct outer rows — computing the outer query twice (CH-benCHmark Q21's five-table
 * join). As joins, the equalities in {@code c} are hash keys and the rest is checked per pair.
 * Other subqueries (IN, scalar, nested correlation, EXISTS under OR) are left to Calcite.
 */
final class SubqueryJoins {
    private SubqueryJoins() {
    }

    /** {@code rel} with every WHERE-level {@code [NOT] EXISTS} of the form above rewritten as a semi or anti join. */
    static RelNode rewrite(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                return visited instanceof LogicalFilter f && RexUtil.SubQueryFinder.find(f.getCondition()) != null
                        ? joined(f) : visited;
            }
        });
    }

    private static RelNode joined(LogicalFilter filter) {
        RelNode input = filter.getInput();
        List<RexNode> kept = new ArrayList<>();
        List<Semi> joins = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            Semi semi = Semi.of(conjunct, input.getRowType(), filter.getVariablesSet());
            if (semi == null) {
                kept.add(conjunct);
            } else {
                joins.add(semi);
            }
        }
        if (joins.isEmpty()) {
            return filter;
        }
        RexBuilder rex = filter.getCluster().getRexBuilder();
        RelNode result = kept.isEmpty() ? input
                : LogicalFilter.create(input, RexUtil.composeConjunction(rex, kept), variablesStillUsed(kept, filter));
        for (Semi semi : joins) {
            RexNode condition = semi.condition(rex, input.getRowType());
            result = LogicalJoin.create(result, semi.inner, List.of(), condition, Set.of(), semi.type);
        }
        return result;
    }

    /** The filter's variables, for the conjuncts left in it when a subquery among them may still use them. */
    private static ImmutableSet<CorrelationId> variablesStillUsed(List<RexNode> conjuncts, LogicalFilter filter) {
        boolean used = conjuncts.stream().anyMatch(c -> RexUtil.SubQueryFinder.find(c) != null);
        return used ? ImmutableSet.copyOf(filter.getVariablesSet()) : ImmutableSet.of();
    }

    /** True when nothing in {@code rel} uses a correlation variable or holds a subquery. */
    private static boolean uncorrelated(RelNode rel) {
        if (!RelOptUtil.getVariablesUsed(rel).isEmpty()) {
            return false;
        }
        boolean[] subquery = {false};
        rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                if (other instanceof Filter f && RexUtil.SubQueryFinder.containsSubQuery(f)
                        || other instanceof Project p && RexUtil.SubQueryFinder.containsSubQuery(p)
                        || other instanceof Join j && RexUtil.SubQueryFinder.containsSubQuery(j)) {
                    subquery[0] = true;
                }
                return super.visit(other);
            }
        });
        return !subquery[0];
    }

    /** One {@code [NOT] EXISTS} conjunct taken apart: the join type, the subquery's uncorrelated input, its condition. */
    private record Semi(JoinRelType type, RelNode inner, RexNode innerCondition) {
        static Semi of(RexNode conjunct, RelDataType outer, Set<CorrelationId> variables) {
            JoinRelType type = JoinRelType.SEMI;
            if (conjunct.isA(SqlKind.NOT)) {
                conjunct = ((RexCall) conjunct).getOperands().get(0);
                type = JoinRelType.ANTI;
            }
            if (!(conjunct instanceof RexSubQuery sub) || sub.getKind() != SqlKind.EXISTS || variables.size() != 1) {
                return null;
            }
            RelNode rel = sub.rel;
            while (rel instanceof LogicalProject p && p.getProjects().stream().noneMatch(RexUtil::containsCorrelation)) {
                rel = p.getInput();
            }
            if (!(rel instanceof LogicalFilter f) || RexUtil.SubQueryFinder.find(f.getCondition()) != null
                    || !uncorrelated(f.getInput())) {
                return null;
            }
            return refersOnlyTo(f.getCondition(), variables.iterator().next(), outer)
                    ? new Semi(type, f.getInput(), f.getCondition()) : null;
        }

        /** The join condition: the outer row's fields where the variable's were, the subquery's after them. */
        RexNode condition(RexBuilder rex, RelDataType outer) {
            int width = outer.getFieldCount();
            return innerCondition.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return rex.makeInputRef(ref.getType(), ref.getIndex() + width);
                }

                @Override
                public RexNode visitFieldAccess(RexFieldAccess access) {
                    if (!(access.getReferenceExpr() instanceof RexCorrelVariable)) {
                        return super.visitFieldAccess(access);
                    }
                    int at = access.getField().getIndex();
                    return rex.makeInputRef(outer.getFieldList().get(at).getType(), at);
                }
            });
        }
    }

    /**
     * True when {@code condition} names the variable at least once and no other, and only as
     * fields of the outer row ({@code $cor.field} over a row of the outer input's shape).
     */
    private static boolean refersOnlyTo(RexNode condition, CorrelationId variable, RelDataType outer) {
        boolean[] ok = {true};
        boolean[] named = {false};
        condition.accept(new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
                if (access.getReferenceExpr() instanceof RexCorrelVariable v && v.id.equals(variable)
                        && v.getType().getFieldCount() == outer.getFieldCount()) {
                    named[0] = true;
                    return access;
                }
                return super.visitFieldAccess(access);
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable v) {
                ok[0] = false;
                return v;
            }
        });
        return ok[0] && named[0];
    }
}
