package io.tell.sql.engine;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;

/**
 * The order in which a tree of inner joins joins its inputs (docs/sql-design.md, "Join order"):
 * left-deep, each next input joined to those before, chosen to keep the intermediate results
 * small. Sizes come from the planner's row counts ({@link io.tell.sql.TableSizes}, and Calcite's
 * guesses for filters); a join's result is estimated from the keys its equalities cover — an
 * input whose unique key is matched adds no rows, only its filter's selectivity — and otherwise
 * pessimistically, so that joins through non-key columns come late. The search is exhaustive over
 * subsets up to {@value #EXHAUSTIVE} inputs and greedy beyond. Where the written order is as
 * cheap as any, it is kept, so that plans of well-written queries (and of all two-way joins) do
 * not change; which side of each join is built or looked up is the cost-based phase's choice.
 * A projection restores the written column order.
 */
final class JoinOrder {
    /** Inputs up to which every left-deep order is considered (2^n subsets). */
    static final int EXHAUSTIVE = 10;

    private JoinOrder() {
    }

    /** {@code rel} with every inner-join tree in it ordered so; unchanged where nothing needed it. */
    static RelNode order(RelNode rel) {
        return rel.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                if (other instanceof LogicalJoin join && join.getJoinType() == JoinRelType.INNER) {
                    Tree tree = new Tree();
                    tree.flatten(join, 0);
                    List<RelNode> inputs = new ArrayList<>();
                    for (RelNode leaf : tree.leaves) {
                        inputs.add(leaf.accept(this));
                    }
                    return tree.join(join, inputs);
                }
                return super.visit(other);
            }
        });
    }

    /** One inner-join tree flattened: its inputs in written order and the conjuncts of its conditions over their concatenation. */
    private static final class Tree {
        final List<RelNode> leaves = new ArrayList<>();
        final List<Integer> offsets = new ArrayList<>();
        final List<RexNode> conjuncts = new ArrayList<>();
        int width;

        void flatten(RelNode rel, int offset) {
            if (rel instanceof LogicalJoin j && j.getJoinType() == JoinRelType.INNER) {
                flatten(j.getLeft(), offset);
                flatten(j.getRight(), offset + j.getLeft().getRowType().getFieldCount());
                for (RexNode c : RelOptUtil.conjunctions(j.getCondition())) {
                    conjuncts.add(RexUtil.shift(c, offset));
                }
                return;
            }
            leaves.add(rel);
            offsets.add(offset);
            width = Math.max(width, offset + rel.getRowType().getFieldCount());
        }

        RelNode join(LogicalJoin original, List<RelNode> inputs) {
            if (inputs.size() < 3) {
                return inputs.equals(leaves) ? original : rebuild(original, inputs);
            }
            JoinEstimates estimates = new JoinEstimates(inputs, offsets, conjuncts, original.getCluster().getMetadataQuery());
            List<Integer> order = estimates.cheapestOrder();
            boolean written = true;
            for (int i = 0; i < order.size(); i++) {
                written &= order.get(i) == i;
            }
            if (written) {
                return inputs.equals(leaves) ? original : rebuild(original, inputs);
            }
            return reordered(original, inputs, order, estimates.reads());
        }

        /** The tree as written, over the (possibly rewritten) inputs. */
        private RelNode rebuild(LogicalJoin original, List<RelNode> inputs) {
            int[] next = {0};
            return copy(original, inputs, next);
        }

        private RelNode copy(RelNode rel, List<RelNode> inputs, int[] next) {
            if (rel instanceof LogicalJoin j && j.getJoinType() == JoinRelType.INNER) {
                RelNode left = copy(j.getLeft(), inputs, next);
                RelNode right = copy(j.getRight(), inputs, next);
                return j.copy(j.getTraitSet(), j.getCondition(), left, right, j.getJoinType(), j.isSemiJoinDone());
            }
            return inputs.get(next[0]++);
        }

        private RelNode reordered(LogicalJoin original, List<RelNode> inputs, List<Integer> order, List<BitSet> reads) {
            RexBuilder rex = original.getCluster().getRexBuilder();
            RelBuilder b = RelFactories.LOGICAL_BUILDER.create(original.getCluster(), null);
            int[] newIndex = new int[width];
            int at = 0;
            for (int leaf : order) {
                int fields = inputs.get(leaf).getRowType().getFieldCount();
                for (int f = 0; f < fields; f++) {
                    newIndex[offsets.get(leaf) + f] = at + f;
                }
                at += fields;
            }
            RexShuttle remap = new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return new RexInputRef(newIndex[ref.getIndex()], ref.getType());
                }
            };
            boolean[] applied = new boolean[conjuncts.size()];
            BitSet joined = new BitSet();
            b.push(inputs.get(order.get(0)));
            joined.set(order.get(0));
            for (int k = 1; k < order.size(); k++) {
                int leaf = order.get(k);
                joined.set(leaf);
                List<RexNode> now = new ArrayList<>();
                for (int c = 0; c < conjuncts.size(); c++) {
                    BitSet r = (BitSet) reads.get(c).clone();
                    r.andNot(joined);
                    if (!applied[c] && r.isEmpty()) {
                        applied[c] = true;
                        now.add(conjuncts.get(c).accept(remap));
                    }
                }
                b.push(inputs.get(leaf));
                b.join(JoinRelType.INNER, RexUtil.composeConjunction(rex, now));
            }
            List<RexNode> writtenOrder = new ArrayList<>(width);
            for (int field = 0; field < width; field++) {
                writtenOrder.add(b.field(newIndex[field]));
            }
            return b.project(writtenOrder, original.getRowType().getFieldNames(), true).build();
        }
    }
}
