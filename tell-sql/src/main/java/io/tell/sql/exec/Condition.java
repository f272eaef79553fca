package io.tell.sql.exec;

/**
 * A compiled boolean expression used to keep or drop rows (WHERE, ON, HAVING, FILTER): true only
 * when the expression is TRUE, so UNKNOWN (null) drops the row like FALSE does.
 */
@FunctionalInterface
public interface Condition {
    boolean test(Object[] row, ExecContext ctx);
}
