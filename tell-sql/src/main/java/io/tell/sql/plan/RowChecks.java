package io.tell.sql.plan;

import io.tell.sql.Checks;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.Expr;
import java.util.List;

/** The CHECK constraints of a data modification's table, compiled over a whole row of it. */
public record RowChecks(String table, List<String> names, List<Expr> conditions) {
    public RowChecks {
        names = List.copyOf(names);
        conditions = List.copyOf(conditions);
    }

    /** CHECK_VIOLATION when a condition finds {@code row} FALSE (NULL passes). */
    public void check(Object[] row, ExecContext ctx) {
        for (int i = 0; i < conditions.size(); i++) {
            if (Boolean.FALSE.equals(conditions.get(i).eval(row, ctx))) {
                throw Checks.violation(table, names.get(i), row);
            }
        }
    }
}
