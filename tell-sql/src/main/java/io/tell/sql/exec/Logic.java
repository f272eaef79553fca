package io.tell.sql.exec;

import java.util.List;
import org.apache.calcite.sql.SqlKind;

/**
 * Boolean connectives with SQL's three-valued logic (null is UNKNOWN) and the IS tests, which
 * never return null.
 */
final class Logic {
    private Logic() {
    }

    static Expr compile(SqlKind kind, List<Expr> operands) {
        return switch (kind) {
            case AND -> and(operands.toArray(Expr[]::new));
            case OR -> or(operands.toArray(Expr[]::new));
            case NOT -> not(operands.get(0));
            case IS_NULL, IS_UNKNOWN -> isNull(operands.get(0), true);
            case IS_NOT_NULL -> isNull(operands.get(0), false);
            case IS_TRUE -> is(operands.get(0), Boolean.TRUE, true);
            case IS_NOT_TRUE -> is(operands.get(0), Boolean.TRUE, false);
            case IS_FALSE -> is(operands.get(0), Boolean.FALSE, true);
            case IS_NOT_FALSE -> is(operands.get(0), Boolean.FALSE, false);
            default -> throw ExecErrors.unsupported("operator " + kind);
        };
    }

    /** FALSE if any operand is FALSE, else UNKNOWN if any is UNKNOWN, else TRUE. */
    private static Expr and(Expr[] operands) {
        if (operands.length == 2) {
            Expr first = operands[0];
            Expr second = operands[1];
            return (row, ctx) -> {
                Object a = first.eval(row, ctx);
                if (Boolean.FALSE.equals(a)) {
                    return false;
                }
                Object b = second.eval(row, ctx);
                if (Boolean.FALSE.equals(b)) {
                    return false;
                }
                return a == null || b == null ? null : Boolean.TRUE;
            };
        }
        return (row, ctx) -> {
            boolean unknown = false;
            for (Expr e : operands) {
                Object v = e.eval(row, ctx);
                if (Boolean.FALSE.equals(v)) {
                    return false;
                }
                unknown |= v == null;
            }
            return unknown ? null : Boolean.TRUE;
        };
    }

    /** TRUE if any operand is TRUE, else UNKNOWN if any is UNKNOWN, else FALSE. */
    private static Expr or(Expr[] operands) {
        return (row, ctx) -> {
            boolean unknown = false;
            for (Expr e : operands) {
                Object v = e.eval(row, ctx);
                if (Boolean.TRUE.equals(v)) {
                    return true;
                }
                unknown |= v == null;
            }
            return unknown ? null : Boolean.FALSE;
        };
    }

    private static Expr not(Expr operand) {
        return (row, ctx) -> {
            Object v = operand.eval(row, ctx);
            return v == null ? null : !(Boolean) v;
        };
    }

    private static Expr isNull(Expr operand, boolean whenNull) {
        return (row, ctx) -> (operand.eval(row, ctx) == null) == whenNull;
    }

    private static Expr is(Expr operand, Boolean value, boolean when) {
        return (row, ctx) -> value.equals(operand.eval(row, ctx)) == when;
    }
}
