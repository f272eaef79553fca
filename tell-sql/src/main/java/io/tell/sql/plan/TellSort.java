package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Expr;
import io.tell.sql.exec.ExprCompiler;
import io.tell.sql.exec.Rows;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexNode;

/**
 * ORDER BY with OFFSET and LIMIT / FETCH FIRST. Without an order it only skips and limits
 * (streaming); with one it sorts its whole input (NULLs last ascending, first descending,
 * unless NULLS FIRST/LAST says otherwise), which it may read in parts on the node's workers
 * ({@link PartedInput}).
 */
public final class TellSort extends Sort implements TellRel {
    public TellSort(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation, RexNode offset,
                    RexNode fetch) {
        super(cluster, traits, input, collation, offset, fetch);
    }

    @Override
    public Sort copy(RelTraitSet traitSet, RelNode newInput, RelCollation newCollation, RexNode offset, RexNode fetch) {
        return new TellSort(getCluster(), traitSet, newInput, newCollation, offset, fetch);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        Expr off = offset == null ? null : ExprCompiler.compile(offset);
        Expr lim = fetch == null ? null : ExprCompiler.compile(fetch);
        ExecNode limited = limitedScan(impl, lim);
        ExecNode in = limited != null ? limited : impl.visit(getInput());
        Comparator<Object[]> order = Rows.order(collation.getFieldCollations());
        PartedInput parted = order != null && limited == null ? PartedInput.of(getInput(), impl) : null;
        return ctx -> {
            long skip = count(off, ctx, 0);
            long limit = count(lim, ctx, Long.MAX_VALUE);
            Cursor c;
            if (order != null) {
                List<Object[]> rows = parted == null ? null : parted.rows(in, ctx); // in the input's order, which the stable sort keeps among equals
                if (rows == null) {
                    rows = in.open(ctx).rest();
                }
                rows.sort(order);
                c = Cursor.of(rows);
            } else {
                c = in.open(ctx);
            }
            Cursor src = c;
            long[] seen = {0};
            return () -> {
                while (seen[0] < skip) {
                    if (src.next() == null) {
                        return null;
                    }
                    seen[0]++;
                }
                if (seen[0] - skip >= limit) {
                    return null;
                }
                Object[] r = src.next();
                if (r != null) {
                    seen[0]++;
                }
                return r;
            };
        };
    }

    /**
     * ORDER BY a prefix of an index scan's order with LIMIT and no OFFSET: the scan (under
     * projections of plain columns) reads only that many rows. The sort above still runs, over
     * at most that many rows. Null when the shape does not match.
     */
    private ExecNode limitedScan(Implementor impl, Expr lim) {
        if (lim == null || offset != null || collation.getFieldCollations().isEmpty()) {
            return null;
        }
        List<Integer> columns = new ArrayList<>();
        for (RelFieldCollation f : collation.getFieldCollations()) {
            if (f.getDirection() != RelFieldCollation.Direction.ASCENDING) {
                return null;
            }
            columns.add(f.getFieldIndex());
        }
        java.util.Deque<TellProject> projects = new java.util.ArrayDeque<>();
        RelNode r = getInput();
        while (r instanceof TellProject p) {
            for (int i = 0; i < columns.size(); i++) {
                if (!(p.getProjects().get(columns.get(i)) instanceof org.apache.calcite.rex.RexInputRef ref)) {
                    return null;
                }
                columns.set(i, ref.getIndex());
            }
            projects.push(p);
            r = p.getInput();
        }
        if (!(r instanceof TellIndexScan scan) || !scan.ordersBy(columns)) {
            return null;
        }
        ExecNode node = scan.implement(impl, lim);
        while (!projects.isEmpty()) {
            node = projects.pop().implementOver(node);
        }
        return node;
    }

    private static long count(Expr e, ExecContext ctx, long dflt) {
        if (e == null) {
            return dflt;
        }
        Object v = e.eval(null, ctx);
        if (v == null) {
            return dflt;
        }
        long n = ((Number) v).longValue();
        if (n < 0) {
            throw TellException.of(ErrorCode.DATA_EXCEPTION, "OFFSET and LIMIT must not be negative: " + n);
        }
        return n;
    }

}
