package io.tell.sql.plan;

import io.tell.sql.exec.ExecNode;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.SetOp;

/** INTERSECT [ALL] by hashing ({@link SetDifference}). */
public final class TellIntersect extends Intersect implements TellRel {
    public TellIntersect(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs, boolean all) {
        super(cluster, traits, List.of(), inputs, all);
    }

    @Override
    public SetOp copy(RelTraitSet traitSet, List<RelNode> inputs, boolean all) {
        return new TellIntersect(getCluster(), traitSet, inputs, all);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        return SetDifference.intersect(getInputs().stream().map(impl::visit).toList(), getRowType().getFieldCount(), all);
    }
}
