package io.tell.sql.engine;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Conditions with OR made usable by joins and filter push-down. Generated SQL and TPC-H style
 * queries (CH-benCHmark Q19, Q7) write a join as a disjunction whose every branch repeats the
 * join's equality and holds conditions on each input: as it stands, such a condition leaves
 * the planner only a nested loop over the cross product. Two rewrites, each an equivalence:
 * <ul>
 * <li>{@link #factor}: a conjunct common to every branch of a disjunction is pulled out of it
 *     ({@code (a AND b) OR (a AND c)} is {@code a AND (b OR c)}), so a repeated equality becomes
 *     a join key and a repeated range a filter pushed to its table;
 * <li>{@link #implied}: for each input of an inner join, a disjunction in its condition whose
 *     every branch holds conditions on that input alone implies the disjunction of those
 *     conditions, which filters the input first (the join keeps its whole condition).
 * </ul>
 * Each runs once over the tree (no rule that could fire again on its own output).
 */
final class Disjunctions {
    private Disjunctions() {
    }

    /** {@code rel} with common factors pulled out of the disjunctions of its filters' and joins' conditions. */
    static RelNode factor(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                RexBuilder rex = visited.getCluster().getRexBuilder();
                if (visited instanceof LogicalFilter f && hasOr(f.getCondition())) {
                    RexNode factored = RexUtil.pullFactors(rex, f.getCondition());
                    return factored.equals(f.getCondition()) ? f : f.copy(f.getTraitSet(), f.getInput(), factored);
                }
                if (visited instanceof LogicalJoin j && hasOr(j.getCondition())) {
                    RexNode factored = RexUtil.pullFactors(rex, j.getCondition());
                    return factored.equals(j.getCondition()) ? j
                            : j.copy(j.getTraitSet(), factored, j.getLeft(), j.getRight(), j.getJoinType(), j.isSemiJoinDone());
                }
                return visited;
            }
        });
    }

    /** {@code rel} with each inner join's inputs filtered first by what the disjunctions of its condition imply for them. */
    static RelNode implied(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (!(visited instanceof LogicalJoin j) || j.getJoinType() != JoinRelType.INNER || !hasOr(j.getCondition())) {
                    return visited;
                }
                int leftWidth = j.getLeft().getRowType().getFieldCount();
                int width = leftWidth + j.getRight().getRowType().getFieldCount();
                RelNode left = filtered(j.getLeft(), j.getCondition(), ImmutableBitSet.range(0, leftWidth), 0);
                RelNode right = filtered(j.getRight(), j.getCondition(), ImmutableBitSet.range(leftWidth, width), -leftWidth);
                if (left == j.getLeft() && right == j.getRight()) {
                    return j;
                }
                return j.copy(j.getTraitSet(), j.getCondition(), left, right, j.getJoinType(), j.isSemiJoinDone());
            }
        });
    }

    /** {@code input} under a filter of what {@code condition}'s disjunctions imply for the columns in {@code side}, if anything. */
    private static RelNode filtered(RelNode input, RexNode condition, ImmutableBitSet side, int shift) {
        RexBuilder rex = input.getCluster().getRexBuilder();
        List<RexNode> found = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(condition)) {
            if (conjunct.getKind() != SqlKind.OR) {
                continue;
            }
            RexNode implied = impliedOn(rex, conjunct, side);
            if (implied != null) {
                found.add(RexUtil.shift(implied, shift));
            }
        }
        if (found.isEmpty()) {
            return input;
        }
        return LogicalFilter.create(input, RexUtil.composeConjunction(rex, found));
    }

    /**
     * The disjunction of each branch's conjuncts over {@code side} alone; null when a branch has
     * none (that branch restricts nothing there, so neither does the disjunction).
     */
    private static RexNode impliedOn(RexBuilder rex, RexNode disjunction, ImmutableBitSet side) {
        List<RexNode> branches = new ArrayList<>();
        for (RexNode branch : RelOptUtil.disjunctions(disjunction)) {
            List<RexNode> own = new ArrayList<>();
            for (RexNode c : RelOptUtil.conjunctions(branch)) {
                ImmutableBitSet used = RelOptUtil.InputFinder.bits(c);
                if (!used.isEmpty() && side.contains(used) && RexUtil.isDeterministic(c)) {
                    own.add(c);
                }
            }
            if (own.isEmpty()) {
                return null;
            }
            branches.add(RexUtil.composeConjunction(rex, own));
        }
        return RexUtil.composeDisjunction(rex, branches);
    }

    private static boolean hasOr(RexNode condition) {
        return RexUtil.find(SqlKind.OR).contains(condition);
    }
}
