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
 * A join-ordering heuristic for trees of inner joins, which generated SQL and comma joins write
 * in any order: when joining the inputs in the order written would pair two of them with no
 * condition between them (a cross product), the inputs are joined instead one at a time, each
 * next one the first in written order that a condition connects to those joined so far (a
 * cross product only where nothing connects), and a projection restores the written column
 * order. A tree whose written order has no cross product is left as it is, so that plans of
 * well-written queries do not change. Runs in time linear in inputs times conditions: no search.
 */
final class JoinOrder {
    private JoinOrder() {
    }

    /** {@code rel} with every inner-join tree in it ordered so; unchanged where nothing needed it. */
    static RelNode avoidCrossProducts(RelNode rel) {
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

        /** The inputs a conjunct reads. */
        BitSet leavesOf(RexNode conjunct) {
            BitSet out = new BitSet();
            for (int field : RelOptUtil.InputFinder.bits(conjunct)) {
                out.set(leafOf(field));
            }
            return out;
        }

        int leafOf(int field) {
            int leaf = 0;
            while (leaf + 1 < offsets.size() && offsets.get(leaf + 1) <= field) {
                leaf++;
            }
            return leaf;
        }

        /** Whether some conjunct joins {@code next} to the inputs in {@code joined}. */
        boolean connects(BitSet joined, int next, List<BitSet> reads) {
            for (BitSet r : reads) {
                if (r.get(next) && r.intersects(joined)) {
                    BitSet rest = (BitSet) r.clone();
                    rest.clear(next);
                    rest.andNot(joined);
                    if (rest.isEmpty()) {
                        return true;
                    }
                }
            }
            return false;
        }

        RelNode join(LogicalJoin original, List<RelNode> inputs) {
            List<BitSet> reads = conjuncts.stream().map(this::leavesOf).toList();
            int n = inputs.size();
            List<Integer> order = new ArrayList<>(List.of(0));
            BitSet joined = new BitSet();
            joined.set(0);
            boolean written = true;
            for (int i = 1; i < n; i++) {
                written &= connects(joined, i, reads);
                joined.set(i);
            }
            if (written) {
                return inputs.equals(leaves) ? original : rebuild(original, inputs);
            }
            joined.clear();
            joined.set(0);
            List<Integer> remaining = new ArrayList<>();
            for (int i = 1; i < n; i++) {
                remaining.add(i);
            }
            while (!remaining.isEmpty()) {
                int pick = remaining.get(0);
                for (int candidate : remaining) {
                    if (connects(joined, candidate, reads)) {
                        pick = candidate;
                        break;
                    }
                }
                remaining.remove(Integer.valueOf(pick));
                order.add(pick);
                joined.set(pick);
            }
            return reordered(original, inputs, order, reads);
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
