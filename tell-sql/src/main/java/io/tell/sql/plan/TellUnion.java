package io.tell.sql.plan;

import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Rows;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Union;

/** UNION ALL (concatenation) or UNION (without duplicates, NULLs equal). */
public final class TellUnion extends Union implements TellRel {
    public TellUnion(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs, boolean all) {
        super(cluster, traits, List.of(), inputs, all);
    }

    @Override
    public SetOp copy(RelTraitSet traitSet, List<RelNode> inputs, boolean all) {
        return new TellUnion(getCluster(), traitSet, inputs, all);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        List<ExecNode> ins = getInputs().stream().map(impl::visit).toList();
        int[] all = new int[getRowType().getFieldCount()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        boolean distinct = !this.all;
        return ctx -> {
            Set<List<Object>> seen = distinct ? new HashSet<>() : null;
            int[] at = {0};
            Cursor[] cur = {ins.get(0).open(ctx)};
            return () -> {
                while (true) {
                    Object[] r = cur[0].next();
                    if (r == null) {
                        if (++at[0] == ins.size()) {
                            return null;
                        }
                        cur[0] = ins.get(at[0]).open(ctx);
                        continue;
                    }
                    if (seen == null || seen.add(Rows.groupKey(r, all))) {
                        return r;
                    }
                }
            };
        };
    }
}
