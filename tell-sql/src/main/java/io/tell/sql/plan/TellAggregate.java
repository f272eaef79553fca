package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.exec.Accumulator;
import io.tell.sql.exec.AggregateCompiler;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Rows;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A hash aggregate: one group per distinct key (NULLs group together), accumulators per
 * aggregate call. Without GROUP BY, empty input still gives one row (COUNT 0, SUM NULL).
 */
public final class TellAggregate extends Aggregate implements TellRel {
    public TellAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet groupSet,
                         List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        super(cluster, traits, List.of(), input, groupSet, groupSets, aggCalls);
    }

    @Override
    public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
                          List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        return new TellAggregate(getCluster(), traitSet, input, groupSet, groupSets, aggCalls);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        if (getGroupType() != Group.SIMPLE) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "GROUPING SETS, ROLLUP and CUBE are not supported");
        }
        ExecNode in = impl.visit(getInput());
        int[] keys = groupSet.toArray();
        List<Supplier<Accumulator>> accs = new ArrayList<>();
        for (AggregateCall call : aggCalls) {
            accs.add(AggregateCompiler.compile(call, getInput().getRowType()));
        }
        return ctx -> {
            Map<List<Object>, Object[]> groups = new LinkedHashMap<>();
            Map<List<Object>, Accumulator[]> states = new LinkedHashMap<>();
            Cursor c = in.open(ctx);
            for (Object[] r = c.next(); r != null; r = c.next()) {
                List<Object> k = Rows.groupKey(r, keys);
                Accumulator[] state = states.get(k);
                if (state == null) {
                    state = fresh(accs);
                    states.put(k, state);
                    Object[] keyValues = new Object[keys.length];
                    for (int i = 0; i < keys.length; i++) {
                        keyValues[i] = r[keys[i]];
                    }
                    groups.put(k, keyValues);
                }
                for (Accumulator a : state) {
                    a.add(r);
                }
            }
            if (states.isEmpty() && keys.length == 0) {
                states.put(List.of(), fresh(accs));
                groups.put(List.of(), new Object[0]);
            }
            List<Object[]> out = new ArrayList<>(states.size());
            for (Map.Entry<List<Object>, Accumulator[]> e : states.entrySet()) {
                Object[] keyValues = groups.get(e.getKey());
                Object[] row = new Object[keys.length + accs.size()];
                System.arraycopy(keyValues, 0, row, 0, keys.length);
                for (int i = 0; i < accs.size(); i++) {
                    row[keys.length + i] = e.getValue()[i].result();
                }
                out.add(row);
            }
            return Cursor.of(out);
        };
    }

    private static Accumulator[] fresh(List<Supplier<Accumulator>> accs) {
        Accumulator[] state = new Accumulator[accs.size()];
        for (int i = 0; i < state.length; i++) {
            state[i] = accs.get(i).get();
        }
        return state;
    }
}
