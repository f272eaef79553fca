package io.tell.sql.plan;

import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.ExprCompiler;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexLiteral;

/** Literal rows. */
public final class TellValues extends Values implements TellRel {
    public TellValues(RelOptCluster cluster, RelDataType rowType, List<? extends List<RexLiteral>> tuples,
                      RelTraitSet traits) {
        super(cluster, List.of(), rowType, com.google.common.collect.ImmutableList.copyOf(
                tuples.stream().map(com.google.common.collect.ImmutableList::copyOf).toList()), traits);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        List<Object[]> rows = new ArrayList<>();
        for (List<RexLiteral> t : tuples) {
            Object[] row = new Object[t.size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = ExprCompiler.compile(t.get(i)).eval(null, null);
            }
            rows.add(row);
        }
        return ctx -> Cursor.of(rows);
    }
}
