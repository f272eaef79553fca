package io.tell.sql.exec;

import java.math.BigDecimal;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/** TEMPORARY minimal compiler (replaced by the full one on merge). */
public final class ExprCompiler {
    private ExprCompiler() {
    }

    public static Expr compile(RexNode node) {
        if (node instanceof RexInputRef ref) {
            int i = ref.getIndex();
            return (row, ctx) -> row[i];
        }
        if (node instanceof RexDynamicParam p) {
            int i = p.getIndex();
            return (row, ctx) -> ctx.param(i);
        }
        if (node instanceof RexLiteral lit) {
            Object v = literal(lit);
            return (row, ctx) -> v;
        }
        if (node instanceof org.apache.calcite.rex.RexFieldAccess fa) {
            int id = ((org.apache.calcite.rex.RexCorrelVariable) fa.getReferenceExpr()).id.getId();
            int f = fa.getField().getIndex();
            return (row, ctx) -> ctx.correlated(id)[f];
        }
        RexCall call = (RexCall) node;
        Expr[] ops = call.getOperands().stream().map(ExprCompiler::compile).toArray(Expr[]::new);
        return switch (call.getKind()) {
            case EQUALS -> cmp(ops, c -> c == 0);
            case NOT_EQUALS -> cmp(ops, c -> c != 0);
            case LESS_THAN -> cmp(ops, c -> c < 0);
            case LESS_THAN_OR_EQUAL -> cmp(ops, c -> c <= 0);
            case GREATER_THAN -> cmp(ops, c -> c > 0);
            case GREATER_THAN_OR_EQUAL -> cmp(ops, c -> c >= 0);
            case AND -> (row, ctx) -> {
                for (Expr e : ops) {
                    if (!Boolean.TRUE.equals(e.eval(row, ctx))) {
                        return false;
                    }
                }
                return true;
            };
            case CAST -> ops[0];
            case MINUS -> (row, ctx) -> ((Integer) ops[0].eval(row, ctx)) - ((Integer) ops[1].eval(row, ctx));
            case PLUS -> (row, ctx) -> {
                Object a = ops[0].eval(row, ctx);
                Object b = ops[1].eval(row, ctx);
                if (a == null || b == null) {
                    return null;
                }
                if (a instanceof Integer x && b instanceof Integer y) {
                    return x + y;
                }
                return new BigDecimal(a.toString()).add(new BigDecimal(b.toString()));
            };
            default -> throw new UnsupportedOperationException(call.getKind().toString());
        };
    }

    public static Object literal(RexLiteral lit) {
        return switch (lit.getType().getSqlTypeName()) {
            case INTEGER -> lit.getValueAs(Integer.class);
            case BIGINT -> lit.getValueAs(Long.class);
            case SMALLINT -> lit.getValueAs(Short.class);
            case DECIMAL -> lit.getValueAs(BigDecimal.class);
            case DOUBLE -> lit.getValueAs(Double.class);
            case CHAR, VARCHAR -> lit.getValueAs(String.class);
            case BOOLEAN -> lit.getValueAs(Boolean.class);
            default -> lit.getValue2();
        };
    }

    private interface Test {
        boolean ok(int c);
    }

    private static Expr cmp(Expr[] ops, Test t) {
        return (row, ctx) -> {
            Object a = ops[0].eval(row, ctx);
            Object b = ops[1].eval(row, ctx);
            if (a == null || b == null) {
                return null;
            }
            return t.ok(Rows.compare(a, b));
        };
    }
}
