package io.tell.sql.plan;

import io.tell.sql.exec.ExecNode;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.SetOp;

/** EXCEPT [ALL] (Calcite's Minus) by hashing ({@link SetDifference}). */
public final class TellMinus extends Minus implements TellRel {
    public TellMinus(RelOptCluster cluster, RelTraitSet traits, List<RelNode> inputs, boolean all) {
        super(cluster, traits, List.of(), inputs, all);
    }

    @Override
    public SetOp copy(RelTraitSet traitSet, List<RelNode> inputs, boolean all) {
        return new TellMinus(getCluster(), traitSet, inputs, all);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        return SetDifference.except(getInputs().stream().map(impl::visit).toList(), getRowType().getFieldCount(), all);
    }
}
