package io.tell.sql.plan;

import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * Subplans a query reads more than once, computed once per execution (docs/sql-design.md, "Shared
 * subplans"). The cost-based planner keeps one operator for equal subtrees, so a common table
 * expression read twice (CH-benCHmark's Q15: the revenue per supplier, and its maximum) is one
 * node reached along two paths; executed as it stands, it ran twice. A node reached more than once
 * whose subtree joins or aggregates, reads no correlation variable and calls only deterministic
 * functions has its rows kept by the execution ({@code ExecContext#spooled}) at its first opening
 * and handed out again at the others. Not in data modifications, whose reads may follow their
 * own writes.
 */
final class SharedSubplans {
    private final Map<RelNode, Integer> uses = new IdentityHashMap<>();
    private final Map<RelNode, ExecNode> built = new IdentityHashMap<>();

    /** The shared subplans of the plan {@code root}. */
    SharedSubplans(RelNode root) {
        if (!(root instanceof TableModify)) {
            count(root);
        }
    }

    private void count(RelNode rel) {
        if (uses.merge(rel, 1, Integer::sum) == 1) {
            rel.getInputs().forEach(this::count);
        }
    }

    /** How many times the plan reaches {@code rel}; 0 in a data modification. */
    int uses(RelNode rel) {
        return uses.getOrDefault(rel, 0);
    }

    /** {@code rel}'s executable node, shared with its other uses when it is worth computing once; null when it is not. */
    ExecNode shared(RelNode rel, java.util.function.Supplier<ExecNode> implement) {
        if (uses.getOrDefault(rel, 0) < 2 || !worthSharing(rel)) {
            return null;
        }
        ExecNode node = built.get(rel);
        if (node == null) {
            ExecNode inner = implement.get();
            Object key = new Object(); // not rel: the executable tree keeps no planner node
            node = ctx -> Cursor.of(ctx.spooled(key, () -> inner.open(ctx).rest()));
            built.put(rel, node);
        }
        return node;
    }

    private static boolean worthSharing(RelNode rel) {
        return computes(rel) && RelOptUtil.getVariablesUsed(rel).isEmpty() && deterministic(rel);
    }

    /** Whether the subtree joins or aggregates (rather than only reading and filtering a table). */
    private static boolean computes(RelNode rel) {
        if (rel instanceof TellJoin || rel instanceof TellCorrelate || rel instanceof TellAggregate) {
            return true;
        }
        return rel.getInputs().stream().anyMatch(SharedSubplans::computes);
    }

    static boolean deterministic(RelNode rel) {
        boolean[] ok = {true};
        rel.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                ok[0] &= call.getOperator().isDeterministic();
                return super.visitCall(call);
            }
        });
        return ok[0] && rel.getInputs().stream().allMatch(SharedSubplans::deterministic);
    }
}
