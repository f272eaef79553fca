package io.tell.sql.plan;

import io.tell.sql.TableStore;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Rows;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A nested-loop join that runs its right input once per left row with the correlation
 * variable bound to that row. With an index scan keyed on the variable on the right, it is an
 * index nested-loop join, and then it takes the outer rows in batches and reads the inner
 * lookups of a whole batch ahead in a few store round trips ({@link ReadAhead}). It also
 * executes subqueries the decorrelator left correlated.
 */
public final class TellCorrelate extends Correlate implements TellRel {
    public TellCorrelate(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right,
                         CorrelationId correlationId, ImmutableBitSet requiredColumns, JoinRelType joinType) {
        super(cluster, traits, java.util.List.of(), left, right, correlationId, requiredColumns, joinType);
    }

    @Override
    public Correlate copy(RelTraitSet traitSet, RelNode left, RelNode right, CorrelationId correlationId,
                          ImmutableBitSet requiredColumns, JoinRelType joinType) {
        return new TellCorrelate(getCluster(), traitSet, left, right, correlationId, requiredColumns, joinType);
    }

    /**
     * The right input runs once per left row: its whole cost is paid that many times. That cost
     * is the planner's (for Volcano, the best plan of the right input's subset so far): the
     * metadata's cumulative cost of a subset is zero, which made every nested loop look free
     * and hid the hash join even where the inner side is a full scan or an aggregate.
     */
    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double leftRows = mq.getRowCount(getLeft());
        RelOptCost right = planner.getCost(getRight(), mq);
        if (right == null) {
            return planner.getCostFactory().makeInfiniteCost();
        }
        return right.multiplyBy(Math.max(1, leftRows));
    }

    /** Outer rows read at once when the inner side is an index scan that can read ahead. */
    static final int BATCH = 128;

    @Override
    public ExecNode implement(Implementor impl) {
        ExecNode leftNode = impl.visit(getLeft());
        ExecNode rightNode = impl.visit(getRight());
        TellIndexScan innerScan = impl.mayReadAhead() ? innerScan(getRight()) : null;
        ReadAhead readAhead = innerScan == null ? null : innerScan.readAhead(impl);
        int id = correlationId.getId();
        int rightWidth = getRight().getRowType().getFieldCount();
        JoinRelType type = joinType;
        return ctx -> {
            Cursor lc = leftNode.open(ctx);
            ArrayDeque<Object[]> lefts = new ArrayDeque<>();
            ArrayDeque<Object[]> out = new ArrayDeque<>();
            return () -> {
                while (out.isEmpty()) {
                    if (lefts.isEmpty()) {
                        fill(lc, lefts, readAhead, id, ctx);
                    }
                    Object[] l = lefts.poll();
                    if (l == null) {
                        return null;
                    }
                    ctx.bind(id, l);
                    Cursor rc = rightNode.open(ctx);
                    boolean matched = false;
                    for (Object[] r = rc.next(); r != null; r = rc.next()) {
                        matched = true;
                        if (type == JoinRelType.SEMI || type == JoinRelType.ANTI) {
                            break;
                        }
                        out.add(Rows.concat(l, r));
                    }
                    if (type == JoinRelType.SEMI && matched || type == JoinRelType.ANTI && !matched) {
                        out.add(l);
                    } else if (!matched && type == JoinRelType.LEFT) {
                        out.add(Rows.concat(l, new Object[rightWidth]));
                    }
                }
                return out.poll();
            };
        };
    }

    /**
     * The next outer rows: one at a time, or with an inner scan that reads ahead, up to
     * {@value #BATCH} of them with the inner scan's reads for all of them done in one go.
     */
    private static void fill(Cursor lc, ArrayDeque<Object[]> lefts, ReadAhead readAhead, int id, ExecContext ctx) {
        List<TableStore.Bounds> noted = new ArrayList<>();
        for (Object[] l = lc.next(); l != null; l = lefts.size() < BATCH ? lc.next() : null) {
            lefts.add(l);
            if (readAhead == null) {
                return;
            }
            ctx.bind(id, l);
            TableStore.Bounds b = readAhead.note(ctx);
            if (b != null) {
                noted.add(b);
            }
        }
        if (readAhead != null && noted.size() > 1) {
            readAhead.run(ctx, noted);
        }
    }

    /** The index scan under the inner side's filters and projections, if that is what it is. */
    private static TellIndexScan innerScan(RelNode rel) {
        while (rel instanceof TellFilter || rel instanceof TellProject) {
            rel = rel.getInput(0);
        }
        return rel instanceof TellIndexScan s ? s : null;
    }
}
