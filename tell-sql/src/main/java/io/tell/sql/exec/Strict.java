package io.tell.sql.exec;

import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Closures for strict functions: a NULL argument makes the result NULL without calling the
 * function, so the functions themselves never see null.
 */
final class Strict {
    private Strict() {
    }

    /** A function of three non-null arguments. */
    @FunctionalInterface
    interface Ternary {
        Object apply(Object a, Object b, Object c);
    }

    static Expr unary(Expr arg, UnaryOperator<Object> f) {
        return (row, ctx) -> {
            Object a = arg.eval(row, ctx);
            return a == null ? null : f.apply(a);
        };
    }

    static Expr binary(Expr left, Expr right, BinaryOperator<Object> f) {
        return (row, ctx) -> {
            Object a = left.eval(row, ctx);
            if (a == null) {
                return null;
            }
            Object b = right.eval(row, ctx);
            return b == null ? null : f.apply(a, b);
        };
    }

    static Expr ternary(Expr first, Expr second, Expr third, Ternary f) {
        return (row, ctx) -> {
            Object a = first.eval(row, ctx);
            if (a == null) {
                return null;
            }
            Object b = second.eval(row, ctx);
            if (b == null) {
                return null;
            }
            Object c = third.eval(row, ctx);
            return c == null ? null : f.apply(a, b, c);
        };
    }

    /** Any number of arguments, passed as an array to {@code f}. */
    static Expr nary(List<Expr> args, Function<Object[], Object> f) {
        Expr[] exprs = args.toArray(Expr[]::new);
        return (row, ctx) -> {
            Object[] values = new Object[exprs.length];
            for (int i = 0; i < exprs.length; i++) {
                Object v = exprs[i].eval(row, ctx);
                if (v == null) {
                    return null;
                }
                values[i] = v;
            }
            return f.apply(values);
        };
    }

    /** An expression that always yields {@code value}. */
    static Expr constant(Object value) {
        return (row, ctx) -> value;
    }
}
