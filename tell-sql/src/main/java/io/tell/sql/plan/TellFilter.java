package io.tell.sql.plan;

import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Expr;
import io.tell.sql.exec.ExprCompiler;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/** Rows of its input for which the condition is TRUE. */
public final class TellFilter extends Filter implements TellRel {
    public TellFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition) {
        super(cluster, traits, input, condition);
    }

    @Override
    public Filter copy(RelTraitSet traitSet, RelNode input, RexNode condition) {
        return new TellFilter(getCluster(), traitSet, input, condition);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        Expr cond = ExprCompiler.compile(condition);
        if (getInput() instanceof TellTableScan scan && RexUtil.isDeterministic(condition)) {
            return scan.implementWhere(impl, cond); // filtered where the rows are read, on the scan's threads
        }
        ExecNode in = impl.visit(getInput());
        return ctx -> {
            Cursor c = in.open(ctx);
            return () -> {
                for (Object[] r = c.next(); r != null; r = c.next()) {
                    if (Boolean.TRUE.equals(cond.eval(r, ctx))) {
                        return r;
                    }
                }
                return null;
            };
        };
    }
}
