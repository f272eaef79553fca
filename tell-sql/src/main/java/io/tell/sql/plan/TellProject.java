package io.tell.sql.plan;

import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Expr;
import io.tell.sql.exec.ExprCompiler;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;

/** One output row per input row, computed by the projection expressions. */
public final class TellProject extends Project implements TellRel {
    public TellProject(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<? extends RexNode> projects,
                       RelDataType rowType) {
        super(cluster, traits, List.of(), input, projects, rowType, Set.of());
    }

    @Override
    public Project copy(RelTraitSet traitSet, RelNode input, List<RexNode> projects, RelDataType rowType) {
        return new TellProject(getCluster(), traitSet, input, projects, rowType);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        return implementOver(impl.visit(getInput()));
    }

    /** This projection over an already implemented input. */
    ExecNode implementOver(ExecNode in) {
        Expr[] exprs = exps.stream().map(ExprCompiler::compile).toArray(Expr[]::new);
        return ctx -> {
            Cursor c = in.open(ctx);
            return () -> {
                Object[] r = c.next();
                if (r == null) {
                    return null;
                }
                Object[] out = new Object[exprs.length];
                for (int i = 0; i < out.length; i++) {
                    out[i] = exprs[i].eval(r, ctx);
                }
                return out;
            };
        };
    }
}
