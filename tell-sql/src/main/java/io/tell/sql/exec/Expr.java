package io.tell.sql.exec;

/**
 * A scalar expression compiled once from a Calcite {@code RexNode} and evaluated per row. The
 * value has the Java class of the expression's SQL type (see {@link Values}); SQL NULL is
 * {@code null}. A boolean condition yields {@link Boolean} or null (unknown).
 */
@FunctionalInterface
public interface Expr {
    Object eval(Object[] row, ExecContext ctx);
}
