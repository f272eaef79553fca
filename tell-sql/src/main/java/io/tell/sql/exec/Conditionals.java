package io.tell.sql.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

/**
 * CASE, COALESCE and NULLIF. Every branch is converted to the call's result type at compile
 * time, so the value has the result's class whichever branch produced it.
 */
final class Conditionals {
    private Conditionals() {
    }

    /** {@code CASE WHEN c1 THEN v1 … ELSE e END}: operands c1, v1, …, e; a null condition is not true. */
    static Expr caseWhen(RexCall call, List<Expr> operands) {
        List<RexNode> nodes = call.getOperands();
        int pairs = nodes.size() / 2;
        Expr[] conditions = new Expr[pairs];
        Expr[] values = new Expr[pairs];
        for (int i = 0; i < pairs; i++) {
            conditions[i] = operands.get(2 * i);
            values[i] = as(operands.get(2 * i + 1), nodes.get(2 * i + 1), call.getType());
        }
        Expr otherwise = nodes.size() % 2 == 1
                ? as(operands.get(nodes.size() - 1), nodes.get(nodes.size() - 1), call.getType())
                : Strict.constant(null);
        if (pairs == 1) {
            Expr condition = conditions[0];
            Expr value = values[0];
            return (row, ctx) -> Boolean.TRUE.equals(condition.eval(row, ctx)) ? value.eval(row, ctx) : otherwise.eval(row, ctx);
        }
        return (row, ctx) -> {
            for (int i = 0; i < conditions.length; i++) {
                if (Boolean.TRUE.equals(conditions[i].eval(row, ctx))) {
                    return values[i].eval(row, ctx);
                }
            }
            return otherwise.eval(row, ctx);
        };
    }

    /** The first operand that is not null. */
    static Expr coalesce(RexCall call, List<Expr> operands) {
        List<Expr> converted = new ArrayList<>();
        for (int i = 0; i < operands.size(); i++) {
            converted.add(as(operands.get(i), call.getOperands().get(i), call.getType()));
        }
        Expr[] exprs = converted.toArray(Expr[]::new);
        return (row, ctx) -> {
            for (Expr e : exprs) {
                Object v = e.eval(row, ctx);
                if (v != null) {
                    return v;
                }
            }
            return null;
        };
    }

    /** NULL when the operands are equal, else the first. */
    static Expr nullIf(RexCall call, List<Expr> operands) {
        RelDataType type = call.getOperands().get(0).getType();
        var cmp = Comparisons.comparator(type, call.getOperands().get(1).getType());
        UnaryOperator<Object> convert = Casts.needsConversion(type, call.getType())
                ? Casts.converter(type, call.getType()) : UnaryOperator.identity();
        Expr first = operands.get(0);
        Expr second = operands.get(1);
        return (row, ctx) -> {
            Object a = first.eval(row, ctx);
            if (a == null) {
                return null;
            }
            Object b = second.eval(row, ctx);
            return b != null && cmp.compare(a, b) == 0 ? null : convert.apply(a);
        };
    }

    private static Expr as(Expr expr, RexNode node, RelDataType type) {
        return Casts.compile(expr, node.getType(), type);
    }
}
