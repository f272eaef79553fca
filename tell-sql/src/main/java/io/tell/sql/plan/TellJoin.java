package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Expr;
import io.tell.sql.exec.ExprCompiler;
import io.tell.sql.exec.Rows;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;

/**
 * A hash join: the right input is read into a hash table on the equi-join keys (a plain list
 * when there are none), the left input streams past it. Any non-equi part of the condition is
 * checked on each candidate pair. All join types: inner, left, right, full, semi, anti. An inner
 * join whose left input the planner expects to be the smaller builds that one instead, and the
 * right input streams ({@code build=[left]} in EXPLAIN).
 */
public final class TellJoin extends Join implements TellRel {
    public TellJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
                    Set<CorrelationId> variablesSet, JoinRelType joinType) {
        super(cluster, traits, List.of(), left, right, condition, variablesSet, joinType);
    }

    @Override
    public Join copy(RelTraitSet traitSet, RexNode conditionExpr, RelNode left, RelNode right, JoinRelType joinType,
                     boolean semiJoinDone) {
        return new TellJoin(getCluster(), traitSet, left, right, conditionExpr, variablesSet, joinType);
    }

    /** Each built row is hashed and kept, each streamed row probes, each result row is made: the built side counts twice. */
    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double left = mq.getRowCount(getLeft());
        double right = mq.getRowCount(getRight());
        double rows = mq.getRowCount(this) + (buildsLeft(mq) ? right + 2 * left : left + 2 * right);
        return planner.getCostFactory().makeCost(rows, rows, 0);
    }

    /** Whether this is an inner join that builds its left input: the one the planner expects to be smaller. */
    private boolean buildsLeft(RelMetadataQuery mq) {
        return joinType == JoinRelType.INNER && mq.getRowCount(getLeft()) < mq.getRowCount(getRight());
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).itemIf("build", "left", buildsLeft(getCluster().getMetadataQuery()));
    }

    @Override
    public ExecNode implement(Implementor impl) {
        ExecNode leftNode = impl.visit(getLeft());
        ExecNode rightNode = impl.visit(getRight());
        JoinInfo info = analyzeCondition();
        int[] leftKeys = info.leftKeys.toIntArray();
        int[] rightKeys = info.rightKeys.toIntArray();
        RexNode rest = info.getRemaining(getCluster().getRexBuilder());
        Expr residual = rest.isAlwaysTrue() ? null : ExprCompiler.compile(rest);
        int leftWidth = getLeft().getRowType().getFieldCount();
        int rightWidth = getRight().getRowType().getFieldCount();
        JoinRelType type = joinType;
        if (type == JoinRelType.ASOF || type == JoinRelType.LEFT_ASOF) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "ASOF joins are not supported");
        }
        Object key = impl.key(this);
        boolean buildsLeft = buildsLeft(getCluster().getMetadataQuery());
        java.util.function.Function<ExecContext, Built> build = buildsLeft ? ctx -> Built.of(leftNode.open(ctx), leftKeys)
                : ctx -> Built.of(rightNode.open(ctx), rightKeys);
        impl.shareable(this, build, buildsLeft ? getRight() : getLeft());
        if (buildsLeft) {
            return ctx -> innerBuildingLeft(ctx, key, build, rightNode, rightKeys, residual);
        }
        return ctx -> {
            Built built = ctx.sharedByParts(key, () -> build.apply(ctx));
            Map<List<Object>, List<Object[]>> table = built.table();
            List<Object[]> all = built.all();
            Map<Object[], Boolean> matchedRight = new java.util.IdentityHashMap<>();
            Cursor lc = leftNode.open(ctx);
            ArrayDeque<Object[]> out = new ArrayDeque<>();
            boolean[] leftDone = {false};
            return () -> {
                while (out.isEmpty() && !leftDone[0]) {
                    Object[] l = lc.next();
                    if (l == null) {
                        leftDone[0] = true;
                        if (type == JoinRelType.RIGHT || type == JoinRelType.FULL) {
                            for (Object[] r : all) {
                                if (!matchedRight.containsKey(r)) {
                                    out.add(Rows.concat(new Object[leftWidth], r));
                                }
                            }
                        }
                        break;
                    }
                    probe(l, ctx, leftKeys.length == 0 ? all : candidates(table, l, leftKeys), residual, type,
                            rightWidth, matchedRight, out);
                }
                return out.poll();
            };
        };
    }

    /** An inner join with the left input in the hash table and the right streaming past it; rows as (left, right). */
    private static Cursor innerBuildingLeft(ExecContext ctx, Object key, java.util.function.Function<ExecContext, Built> build,
                                            ExecNode rightNode, int[] rightKeys, Expr residual) {
        Built built = ctx.sharedByParts(key, () -> build.apply(ctx));
        Map<List<Object>, List<Object[]>> table = built.table();
        List<Object[]> all = built.all();
        Cursor rc = rightNode.open(ctx);
        ArrayDeque<Object[]> out = new ArrayDeque<>();
        return () -> {
            while (out.isEmpty()) {
                Object[] r = rc.next();
                if (r == null) {
                    return null;
                }
                for (Object[] l : rightKeys.length == 0 ? all : candidates(table, r, rightKeys)) {
                    Object[] joined = Rows.concat(l, r);
                    if (residual == null || Boolean.TRUE.equals(residual.eval(joined, ctx))) {
                        out.add(joined);
                    }
                }
            }
            return out.poll();
        };
    }

    /**
     * The built side of a join: its rows ({@code all}), and by their keys ({@code table}; a row
     * with a null key matches nothing). Read only once made, so the parts of a parallel execution
     * can probe one together ({@link ExecContext#sharedByParts}).
     */
    private record Built(Map<List<Object>, List<Object[]>> table, List<Object[]> all) {
        static Built of(Cursor input, int[] keys) {
            Map<List<Object>, List<Object[]>> table = new HashMap<>();
            List<Object[]> all = new ArrayList<>();
            for (Object[] row = input.next(); row != null; row = input.next()) {
                all.add(row);
                List<Object> k = Rows.key(row, keys);
                if (k != null) {
                    table.computeIfAbsent(k, x -> new ArrayList<>()).add(row);
                }
            }
            return new Built(table, all);
        }
    }

    private static List<Object[]> candidates(Map<List<Object>, List<Object[]>> table, Object[] row, int[] keys) {
        List<Object> k = Rows.key(row, keys);
        List<Object[]> found = k == null ? null : table.get(k);
        return found == null ? List.of() : found;
    }

    private static void probe(Object[] l, ExecContext ctx, List<Object[]> candidates, Expr residual, JoinRelType type,
                              int rightWidth, Map<Object[], Boolean> matchedRight, ArrayDeque<Object[]> out) {
        boolean matched = false;
        for (Object[] r : candidates) {
            Object[] joined = Rows.concat(l, r);
            if (residual != null && !Boolean.TRUE.equals(residual.eval(joined, ctx))) {
                continue;
            }
            matched = true;
            switch (type) {
                case SEMI, ANTI -> {
                }
                default -> {
                    matchedRight.put(r, Boolean.TRUE);
                    out.add(joined);
                }
            }
            if (type == JoinRelType.SEMI || type == JoinRelType.ANTI) {
                break;
            }
        }
        if (type == JoinRelType.SEMI && matched || type == JoinRelType.ANTI && !matched) {
            out.add(l);
        } else if (!matched && (type == JoinRelType.LEFT || type == JoinRelType.FULL)) {
            out.add(Rows.concat(l, new Object[rightWidth]));
        }
    }
}
