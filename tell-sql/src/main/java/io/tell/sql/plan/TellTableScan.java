package io.tell.sql.plan;

import io.tell.sql.TableStore;
import io.tell.sql.exec.ExecNode;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableScan;

/** All rows of a table, in primary-key order (a full range scan of its primary-key tree). */
public final class TellTableScan extends TableScan implements TellRel {
    public TellTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table) {
        super(cluster, traits, List.of(), table);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new TellTableScan(getCluster(), traitSet, table);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        TableStore store = impl.table(table);
        boolean publish = impl.publishesRid(this);
        boolean lock = impl.forUpdate();
        return ctx -> new ScanCursor(store.scanAll(ctx.transaction()), ctx, store, publish, lock);
    }
}
