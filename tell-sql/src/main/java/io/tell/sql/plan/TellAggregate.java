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
 * aggregate call. Without GROUP BY, empty input still gives one row (COUNT 0, SUM NULL). Its
 * input may run in parts on the node's workers, each part grouping its own rows, the partial
 * groups merged ({@link PartedInput}).
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
        PartedInput parted = aggCalls.stream().allMatch(AggregateCompiler::mergeable) ? PartedInput.of(getInput(), impl) : null;
        return ctx -> {
            List<Groups> parts = parted == null ? null : parted.run(in, ctx, c -> new Groups(keys, accs).addAll(c));
            Groups all;
            if (parts == null) {
                all = new Groups(keys, accs).addAll(in.open(ctx));
            } else {
                all = parts.get(0);
                for (Groups part : parts.subList(1, parts.size())) {
                    all.merge(part);
                }
            }
            return Cursor.of(all.rows());
        };
    }

    /**
     * The groups of some input rows and their accumulators, in the order their first rows came:
     * of the whole input, or of a part of it (partial aggregates, merged part after part).
     */
    private static final class Groups {
        private final int[] keys;
        private final List<Supplier<Accumulator>> accs;
        private final Map<List<Object>, Object[]> keyValues = new LinkedHashMap<>();
        private final Map<List<Object>, Accumulator[]> states = new LinkedHashMap<>();

        Groups(int[] keys, List<Supplier<Accumulator>> accs) {
            this.keys = keys;
            this.accs = accs;
        }

        Groups addAll(Cursor c) {
            for (Object[] r = c.next(); r != null; r = c.next()) {
                List<Object> k = Rows.groupKey(r, keys);
                Accumulator[] state = states.get(k);
                if (state == null) {
                    state = fresh();
                    states.put(k, state);
                    Object[] values = new Object[keys.length];
                    for (int i = 0; i < keys.length; i++) {
                        values[i] = r[keys[i]];
                    }
                    keyValues.put(k, values);
                }
                for (Accumulator a : state) {
                    a.add(r);
                }
            }
            return this;
        }

        /** Takes in {@code later}'s groups, which were accumulated over rows that come after this one's. */
        void merge(Groups later) {
            for (Map.Entry<List<Object>, Accumulator[]> e : later.states.entrySet()) {
                Accumulator[] state = states.get(e.getKey());
                if (state == null) {
                    states.put(e.getKey(), e.getValue());
                    keyValues.put(e.getKey(), later.keyValues.get(e.getKey()));
                } else {
                    for (int i = 0; i < state.length; i++) {
                        state[i].merge(e.getValue()[i]);
                    }
                }
            }
        }

        /** A row per group: its key values, then each aggregate's result; without GROUP BY one row even over no input. */
        List<Object[]> rows() {
            if (states.isEmpty() && keys.length == 0) {
                states.put(List.of(), fresh());
                keyValues.put(List.of(), new Object[0]);
            }
            List<Object[]> out = new ArrayList<>(states.size());
            for (Map.Entry<List<Object>, Accumulator[]> e : states.entrySet()) {
                Object[] row = new Object[keys.length + accs.size()];
                System.arraycopy(keyValues.get(e.getKey()), 0, row, 0, keys.length);
                for (int i = 0; i < accs.size(); i++) {
                    row[keys.length + i] = e.getValue()[i].result();
                }
                out.add(row);
            }
            return out;
        }

        private Accumulator[] fresh() {
            Accumulator[] state = new Accumulator[accs.size()];
            for (int i = 0; i < state.length; i++) {
                state[i] = accs.get(i).get();
            }
            return state;
        }
    }
}
