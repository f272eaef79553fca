package io.tell.sql.exec;

/**
 * An executable operator, built once from a physical plan and opened once per execution (or,
 * below a correlated join, once per outer row). Stateless: all state lives in the cursor.
 */
@FunctionalInterface
public interface ExecNode {
    Cursor open(ExecContext ctx);
}
