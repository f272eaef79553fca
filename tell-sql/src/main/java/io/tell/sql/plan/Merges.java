package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.TableStore;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Expr;
import io.tell.sql.exec.Rows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One execution of MERGE. Its input holds, per source row joined to the target: the target row
 * (all NULL when none matched), then what the WHEN clauses compute (their conditions and values).
 * For each input row the first clause of its kind (MATCHED or NOT MATCHED) whose condition holds
 * chooses the action: update the target row, delete it, insert a new row, or nothing. Every new
 * row is validated before the first write; a matched row is then found again by its primary key
 * (in the transaction's view) and updated or deleted, and the new rows inserted. A target row
 * matched by two source rows fails the statement (21000), as in PostgreSQL. The result is the
 * number of rows inserted, updated and deleted.
 */
public final class Merges {
    /** What a WHEN clause does. */
    public enum Action { UPDATE, DELETE, INSERT, NOTHING }

    /**
     * One WHEN clause over the input row.
     *
     * @param condition the input column of its AND condition, -1 for none
     * @param columns   the table columns UPDATE sets or INSERT fills (INSERT: every column)
     * @param sources   per column, the input column holding its value, or -1 for its default
     * @param defaults  per column, its DEFAULT (evaluated per row) where {@code sources} says -1
     */
    public record Clause(boolean matched, int condition, Action action, int[] columns, int[] sources, Expr[] defaults) {
        Object value(int i, Object[] row, ExecContext ctx) {
            return sources[i] >= 0 ? row[sources[i]] : defaults[i].eval(row, ctx);
        }
    }

    private final TableStore store;
    private final List<Clause> clauses;
    private final int matchedColumn;
    private final int width;
    private final int[] primaryKey;
    private final RowWrites writes;
    private final ExecContext ctx;

    private Merges(TableStore store, List<Clause> clauses, int matchedColumn, RowWrites writes, ExecContext ctx) {
        this.store = store;
        this.clauses = clauses;
        this.matchedColumn = matchedColumn;
        this.width = store.def().columns().size();
        this.primaryKey = store.def().columnIndexes(store.def().primaryKey());
        this.writes = writes;
        this.ctx = ctx;
    }

    /**
     * MERGE into {@code store} over {@code input}, whose first columns are the target row; {@code matchedColumn}, a
     * column of it that is never NULL in a stored row, tells matched rows apart (UPDATE and DELETE find the row again
     * by its primary key). The CHECK constraints and foreign keys {@code impl} keeps apply.
     */
    public static ExecNode exec(Implementor impl, TableStore store, ExecNode input, List<Clause> clauses, int matchedColumn) {
        RowChecks checks = impl.rowChecks();
        ForeignKeyRules fks = impl.foreignKeys();
        return ctx -> Cursor.of(new Merges(store, clauses, matchedColumn, new RowWrites(store, null, checks, fks, ctx), ctx)
                .run(input.open(ctx)));
    }

    private List<Object[]> run(Cursor input) {
        List<Object[]> inserts = new ArrayList<>();
        List<Object[]> targets = new ArrayList<>();
        List<Object[]> updates = new ArrayList<>(); // the new row, or null to delete
        for (Object[] r = input.next(); r != null; r = input.next()) {
            ctx.check();
            boolean matched = r[matchedColumn] != null;
            Clause clause = chosen(r, matched);
            if (clause == null || clause.action() == Action.NOTHING) {
                continue;
            }
            Object[] target = Arrays.copyOf(r, width);
            switch (clause.action()) {
                case UPDATE -> {
                    Object[] next = target.clone();
                    for (int i = 0; i < clause.columns().length; i++) {
                        next[clause.columns()[i]] = clause.value(i, r, ctx);
                    }
                    targets.add(target);
                    updates.add(writes.validated(next));
                }
                case DELETE -> {
                    targets.add(target);
                    updates.add(null);
                }
                default -> {
                    Object[] row = new Object[width];
                    for (int i = 0; i < clause.columns().length; i++) {
                        row[clause.columns()[i]] = clause.value(i, r, ctx);
                    }
                    inserts.add(writes.validated(row));
                }
            }
        }
        List<Long> rids = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            Object[] key = Rows.keyValues(targets.get(i), primaryKey);
            TableStore.Row current = store.holding(ctx.transaction(), null, key).orElseThrow(() -> TellException.of(
                    ErrorCode.INTERNAL, "MERGE matched a row of " + store.def().name() + " it cannot find by its key"));
            if (!writes.touch(current.rid())) {
                throw TellException.of(ErrorCode.CARDINALITY_VIOLATION, "MERGE command cannot affect row a second time:"
                        + " more than one source row matches the same row of " + store.def().name());
            }
            if (updates.get(i) == null) {
                writes.delete(current.rid(), current.values());
            } else {
                writes.update(current.rid(), current.values(), updates.get(i));
                rids.add(current.rid());
            }
        }
        for (Object[] row : inserts) {
            if (ctx.checksAtStatement()) {
                store.checkUniqueKeys(ctx.transaction(), row);
            }
            writes.insert(row);
        }
        if (ctx.checksAtStatement() && !rids.isEmpty()) {
            store.checkCurrent(ctx.transaction(), rids);
        }
        return writes.result();
    }

    /** The first clause for a matched (or not matched) row whose condition holds; null when none does. */
    private Clause chosen(Object[] row, boolean matched) {
        for (Clause c : clauses) {
            if (c.matched() == matched && (c.condition() < 0 || Boolean.TRUE.equals(row[c.condition()]))) {
                return c;
            }
        }
        return null;
    }
}
