package io.tell.sql.plan;

import io.tell.sql.TableStore;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import java.util.Iterator;
import java.util.List;

/**
 * Rows a scan read from a table: publishes each row's rid when the scan feeds a data
 * modification, and locks each row for {@code SELECT ... FOR UPDATE}.
 */
final class ScanCursor implements Cursor {
    private final Iterator<TableStore.Row> rows;
    private final ExecContext ctx;
    private final TableStore table;
    private final boolean publishRid;
    private final boolean lock;

    ScanCursor(List<TableStore.Row> rows, ExecContext ctx, TableStore table, boolean publishRid, boolean lock) {
        this.rows = rows.iterator();
        this.ctx = ctx;
        this.table = table;
        this.publishRid = publishRid;
        this.lock = lock;
    }

    @Override
    public Object[] next() {
        if (!rows.hasNext()) {
            return null;
        }
        ctx.check();
        TableStore.Row r = rows.next();
        if (publishRid) {
            ctx.setTargetRid(r.rid());
        }
        if (lock) {
            table.lock(ctx.transaction(), r.rid());
        }
        return r.values();
    }
}
