package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.TableStore;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.Rows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One execution of INSERT … ON CONFLICT ({@link Upsert}): every proposed row is validated
 * first; then each is looked up by the unique keys checked (in the transaction's view, its own
 * writes included) and inserted, left alone (DO NOTHING, or a DO UPDATE whose WHERE fails) or
 * used to update the row already there. A row the statement already inserted or updated
 * cannot be updated by it again (21000), as in PostgreSQL. Returns the count, or the RETURNING
 * rows of the rows inserted and updated.
 */
final class Upserts {
    private final TableStore store;
    private final Upsert upsert;
    private final ExecContext ctx;
    private final RowWrites writes;

    Upserts(TableStore store, Upsert upsert, RowWrites writes, ExecContext ctx) {
        this.store = store;
        this.upsert = upsert;
        this.writes = writes;
        this.ctx = ctx;
    }

    List<Object[]> run(Cursor input) {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] r = input.next(); r != null; r = input.next()) {
            ctx.check();
            rows.add(writes.validated(r));
        }
        for (Object[] row : rows) {
            TableStore.Row existing = existing(row);
            if (existing == null) {
                writes.insert(row);
            } else if (!upsert.doNothing()) {
                update(existing, row);
            }
        }
        return writes.result();
    }

    /** The row holding one of {@code row}'s unique keys, or null (a key with a NULL conflicts with nothing). */
    private TableStore.Row existing(Object[] row) {
        for (Upsert.Key k : upsert.keys()) {
            Object[] key = Rows.keyValues(row, k.columns());
            if (key == null) {
                continue;
            }
            java.util.Optional<TableStore.Row> found = store.holding(ctx.transaction(), k.index(), key);
            if (found.isPresent()) {
                return found.get();
            }
        }
        return null;
    }

    private void update(TableStore.Row existing, Object[] proposed) {
        if (!writes.touch(existing.rid())) {
            throw TellException.of(ErrorCode.CARDINALITY_VIOLATION, "ON CONFLICT DO UPDATE command cannot affect row a"
                    + " second time: the statement proposes rows with the same key twice");
        }
        Object[] both = Arrays.copyOf(existing.values(), existing.values().length + proposed.length);
        System.arraycopy(proposed, 0, both, existing.values().length, proposed.length);
        if (upsert.condition() != null && !Boolean.TRUE.equals(upsert.condition().eval(both, ctx))) {
            return;
        }
        Object[] next = existing.values().clone();
        for (int i = 0; i < upsert.columns().size(); i++) {
            next[upsert.columns().get(i)] = upsert.values().get(i).eval(both, ctx);
        }
        writes.update(existing.rid(), existing.values(), writes.validated(next));
    }
}
