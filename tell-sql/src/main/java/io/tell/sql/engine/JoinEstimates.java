package io.tell.sql.engine;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import io.tell.sql.plan.JoinRows;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Sizes of the joins of a flattened inner-join tree's inputs, for {@link JoinOrder}: each input's
 * rows (the planner's metadata), and the rows of joining one more input to a set already joined,
 * estimated from what its equalities match. The cost of an order is the sum of its intermediate
 * results plus, per join, the smaller side (what a hash join builds, or an index join looks up).
 */
final class JoinEstimates {
    private final List<RelNode> inputs;
    private final List<Integer> offsets;
    private final List<RexNode> conjuncts;
    private final List<BitSet> reads = new ArrayList<>();
    private final RelMetadataQuery mq;
    private final double[] rows;

    /** A left-deep order of some inputs: its cost so far, its result's rows, the inputs in order. */
    private record Partial(double cost, double rows, List<Integer> order) {
    }

    JoinEstimates(List<RelNode> inputs, List<Integer> offsets, List<RexNode> conjuncts, RelMetadataQuery mq) {
        this.inputs = inputs;
        this.offsets = offsets;
        this.conjuncts = conjuncts;
        this.mq = mq;
        for (RexNode c : conjuncts) {
            reads.add(leavesOf(c));
        }
        rows = new double[inputs.size()];
        for (int i = 0; i < inputs.size(); i++) {
            Double r = mq.getRowCount(inputs.get(i));
            rows[i] = r == null ? io.tell.sql.TableSizes.ASSUMED_ROWS : Math.max(1, r);
        }
    }

    /** The inputs each conjunct reads, by conjunct. */
    List<BitSet> reads() {
        return reads;
    }

    /**
     * The cheapest left-deep order: exhaustive over subsets up to {@link JoinOrder#EXHAUSTIVE}
     * inputs, greedy beyond. An input no condition connects to those before it comes only when
     * none does. Of equally cheap orders, the written one.
     */
    List<Integer> cheapestOrder() {
        int n = inputs.size();
        if (n > JoinOrder.EXHAUSTIVE) {
            return greedy();
        }
        Partial[] best = new Partial[1 << n];
        for (int i = 0; i < n; i++) {
            best[1 << i] = new Partial(0, rows[i], List.of(i));
        }
        for (int mask = 1; mask < 1 << n; mask++) {
            if (Integer.bitCount(mask) < 2) {
                continue;
            }
            Partial found = null;
            for (boolean crossing : new boolean[] {false, true}) {
                for (int t = n - 1; t >= 0; t--) { // last input first: the written order wins ties
                    if ((mask & 1 << t) == 0) {
                        continue;
                    }
                    int rest = mask & ~(1 << t);
                    BitSet joined = BitSet.valueOf(new long[] {rest});
                    if (connects(joined, t) == crossing) {
                        continue;
                    }
                    Partial p = extend(best[rest], joined, t);
                    if (found == null || p.cost() < found.cost() * (1 - 1e-9)) {
                        found = p;
                    }
                }
                if (found != null) {
                    break;
                }
            }
            best[mask] = found;
        }
        return best[(1 << n) - 1].order();
    }

    /** From the smallest input on, each time the input that is cheapest to join next. */
    private List<Integer> greedy() {
        int n = inputs.size();
        int first = 0;
        for (int i = 1; i < n; i++) {
            if (rows[i] < rows[first]) {
                first = i;
            }
        }
        Partial p = new Partial(0, rows[first], List.of(first));
        BitSet joined = new BitSet();
        joined.set(first);
        while (joined.cardinality() < n) {
            Partial next = null;
            for (boolean crossing : new boolean[] {false, true}) {
                for (int t = 0; t < n; t++) {
                    if (joined.get(t) || connects(joined, t) == crossing) {
                        continue;
                    }
                    Partial q = extend(p, joined, t);
                    if (next == null || q.cost() < next.cost()) {
                        next = q;
                    }
                }
                if (next != null) {
                    break;
                }
            }
            p = next;
            joined.set(p.order().get(p.order().size() - 1));
        }
        return p.order();
    }

    /** Whether a conjunct joins input {@code t} to some of {@code joined} and reads nothing else. */
    private boolean connects(BitSet joined, int t) {
        for (BitSet r : reads) {
            if (r.get(t) && r.intersects(joined) && within(r, joined, t)) {
                return true;
            }
        }
        return false;
    }

    private static boolean within(BitSet r, BitSet joined, int t) {
        BitSet rest = (BitSet) r.clone();
        rest.clear(t);
        rest.andNot(joined);
        return rest.isEmpty();
    }

    /** {@code before} (the inputs {@code joined}) joined with input {@code t}. */
    private Partial extend(Partial before, BitSet joined, int t) {
        ImmutableBitSet.Builder tColumns = ImmutableBitSet.builder();
        List<ImmutableBitSet.Builder> joinedColumns = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            joinedColumns.add(ImmutableBitSet.builder());
        }
        int equalities = 0;
        double residual = 1;
        for (int c = 0; c < conjuncts.size(); c++) {
            BitSet r = reads.get(c);
            if (!r.get(t) || !within(r, joined, t)) {
                continue; // applied earlier, or later
            }
            RexNode conjunct = conjuncts.get(c);
            if (conjunct.getKind() == SqlKind.EQUALS && equality((RexCall) conjunct, joined, t, tColumns, joinedColumns)) {
                equalities++;
            } else {
                residual *= RelMdUtil.guessSelectivity(conjunct);
            }
        }
        double joinedKeyTable = Double.NaN;
        for (int i = joined.nextSetBit(0); i >= 0; i = joined.nextSetBit(i + 1)) {
            double table = JoinRows.keyTableRows(mq, inputs.get(i), joinedColumns.get(i).build());
            if (Double.isNaN(joinedKeyTable) || table > joinedKeyTable) {
                joinedKeyTable = table;
            }
        }
        double out = equalities == 0 ? before.rows() * rows[t] : JoinRows.estimate(before.rows(), rows[t], joinedKeyTable,
                JoinRows.keyTableRows(mq, inputs.get(t), tColumns.build()), equalities);
        out = Math.max(1, out * residual);
        List<Integer> order = new ArrayList<>(before.order());
        order.add(t);
        return new Partial(before.cost() + out + Math.min(before.rows(), rows[t]), out, order);
    }

    /**
     * Notes an equality between an expression of {@code t} and one of the inputs in {@code joined}:
     * its plain column on either side ({@code tColumns}, or {@code joinedColumns} of that input).
     * False when a side reads both, or neither.
     */
    private boolean equality(RexCall eq, BitSet joined, int t, ImmutableBitSet.Builder tColumns,
                             List<ImmutableBitSet.Builder> joinedColumns) {
        RexNode a = eq.getOperands().get(0);
        RexNode b = eq.getOperands().get(1);
        BitSet ra = leavesOf(a);
        BitSet rb = leavesOf(b);
        if (ra.equals(single(t)) && !rb.isEmpty() && !rb.get(t)) {
            note(a, b, t, tColumns, joinedColumns);
            return true;
        }
        if (rb.equals(single(t)) && !ra.isEmpty() && !ra.get(t)) {
            note(b, a, t, tColumns, joinedColumns);
            return true;
        }
        return false;
    }

    private void note(RexNode tSide, RexNode joinedSide, int t, ImmutableBitSet.Builder tColumns,
                      List<ImmutableBitSet.Builder> joinedColumns) {
        if (tSide instanceof RexInputRef ref) {
            tColumns.set(ref.getIndex() - offsets.get(t));
        }
        if (joinedSide instanceof RexInputRef ref) {
            int leaf = leafOf(ref.getIndex());
            joinedColumns.get(leaf).set(ref.getIndex() - offsets.get(leaf));
        }
    }

    private BitSet leavesOf(RexNode e) {
        BitSet out = new BitSet();
        for (int field : RelOptUtil.InputFinder.bits(e)) {
            out.set(leafOf(field));
        }
        return out;
    }

    private static BitSet single(int t) {
        BitSet b = new BitSet();
        b.set(t);
        return b;
    }

    private int leafOf(int field) {
        int leaf = 0;
        while (leaf + 1 < offsets.size() && offsets.get(leaf + 1) <= field) {
            leaf++;
        }
        return leaf;
    }
}
