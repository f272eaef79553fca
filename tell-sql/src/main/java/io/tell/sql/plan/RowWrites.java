package io.tell.sql.plan;

import io.tell.sql.TableStore;
import io.tell.sql.exec.ExecContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The row-at-a-time writes of one execution of a statement that both inserts and updates
 * (INSERT … ON CONFLICT, MERGE, which also deletes): rows validated against the table and its CHECK constraints,
 * foreign keys checked, the rows it changed remembered (so none is changed twice), and the count
 * or the RETURNING rows of what changed.
 */
final class RowWrites {
    private final TableStore store;
    private final Implementor.RowReturner returner;
    private final RowChecks checks;
    private final ForeignKeyRules fks;
    private final ExecContext ctx;
    private final Set<Long> touched = new HashSet<>();
    private final List<Object[]> returned = new ArrayList<>();
    private long count;

    RowWrites(TableStore store, Implementor.RowReturner returner, RowChecks checks, ForeignKeyRules fks, ExecContext ctx) {
        this.store = store;
        this.returner = returner;
        this.checks = checks;
        this.fks = fks;
        this.ctx = ctx;
    }

    /** {@code row} with its columns' types, lengths and NOT NULL checked, and the table's CHECK constraints. */
    Object[] validated(Object[] row) {
        Object[] out = store.validate(row);
        if (checks != null) {
            checks.check(out, ctx);
        }
        return out;
    }

    /** Inserts a validated row. */
    void insert(Object[] row) {
        if (fks != null) {
            fks.checkParents(ctx.transaction(), row, null);
        }
        touched.add(store.insert(ctx.transaction(), row));
        changed(row);
    }

    /** False when this statement already inserted or updated the row at {@code rid}; else remembers it. */
    boolean touch(long rid) {
        return touched.add(rid);
    }

    /** Replaces the row at {@code rid}, which held {@code old}, by the validated row {@code next}. */
    void update(long rid, Object[] old, Object[] next) {
        if (fks != null) {
            fks.checkParents(ctx.transaction(), next, old);
            fks.beforeUpdate(ctx.transaction(), old, next);
        }
        if (store.update(ctx.transaction(), rid, next)) {
            changed(next);
        }
    }

    /** Deletes the row at {@code rid}, which held {@code old}. */
    void delete(long rid, Object[] old) {
        if (fks != null) {
            fks.beforeDelete(ctx.transaction(), old);
        }
        if (store.delete(ctx.transaction(), rid)) {
            changed(old);
        }
    }

    /** The statement's result: the number of rows changed, or their RETURNING rows. */
    List<Object[]> result() {
        return returner != null ? returned : List.<Object[]>of(new Object[] {count});
    }

    private void changed(Object[] row) {
        count++;
        if (returner != null) {
            returned.add(returner.row(row, ctx));
        }
    }
}
