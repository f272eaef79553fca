package io.tell.sql.plan;

import io.tell.sql.TableStore;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Expr;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.core.TableScan;

/**
 * All rows of a table, in primary-key order (a full range scan of its primary-key tree), with
 * all columns or only those at {@code columns} (ascending; decoded alone, see {@link Projections}).
 */
public final class TellTableScan extends TableScan implements TellRel {
    private final int[] columns;

    public TellTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table) {
        this(cluster, traits, table, null);
    }

    private TellTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, int[] columns) {
        super(cluster, traits, List.of(), table);
        this.columns = columns;
    }

    /** This scan producing only the columns at {@code columns} (ascending table positions). */
    TellTableScan withColumns(int[] columns) {
        return new TellTableScan(getCluster(), traitSet, table, columns);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new TellTableScan(getCluster(), traitSet, table, columns);
    }

    @Override
    public RelDataType deriveRowType() {
        return Projections.rowType(this, columns);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return Projections.explain(super.explainTerms(pw), this, columns);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        return implementWhere(impl, null);
    }

    /**
     * This scan with only the rows for which {@code condition} (deterministic: evaluated on the
     * scan's threads, in no particular order) is TRUE; null for all.
     */
    ExecNode implementWhere(Implementor impl, Expr condition) {
        TableStore store = impl.table(table);
        boolean publish = impl.publishesRid(this);
        boolean lock = impl.forUpdate();
        int[] wanted = columns;
        Object key = impl.key(this);
        return ctx -> {
            ctx.statementTime(); // fixed before any scan thread asks for CURRENT_TIMESTAMP
            java.util.function.Predicate<Object[]> keep = condition == null ? null : r -> Boolean.TRUE.equals(condition.eval(r, ctx));
            io.tell.index.ScanRange part = ctx.rangeOf(key); // set when this scan drives a part of a parallel execution
            return new ScanCursor(part != null ? store.scanPart(ctx.transaction(), wanted, part, keep)
                    : store.scanAll(ctx.transaction(), wanted, ctx.workers(), keep), ctx, store, publish, lock);
        };
    }
}
