package io.tell.sql.plan;

import io.tell.sql.TableStore;
import io.tell.sql.exec.ExecContext;
import java.util.List;
import java.util.function.Function;

/**
 * Reads ahead for an index scan that a join runs once per outer row: the scan's bounds are
 * noted for a batch of outer rows (each bound in turn), then read together, so the scans
 * themselves find their entries and rows in the transaction and cost no round trip.
 */
record ReadAhead(TableStore store, String index, Function<ExecContext, TableStore.Bounds> bounds) {

    /** The scan's bounds for the outer row bound in {@code ctx} now; null when it matches nothing. */
    TableStore.Bounds note(ExecContext ctx) {
        return bounds.apply(ctx);
    }

    void run(ExecContext ctx, List<TableStore.Bounds> noted) {
        if (!noted.isEmpty()) {
            store.prefetch(ctx.transaction(), index, noted);
        }
    }
}
