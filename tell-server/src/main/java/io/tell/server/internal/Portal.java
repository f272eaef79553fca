package io.tell.server.internal;

import io.tell.sql.SqlResult;
import java.util.Iterator;
import java.util.List;

/**
 * A bound statement ready to run (Bind), or running: its result stays open between Executes
 * with a row limit, positioned on the next row to send ({@code pending}).
 */
final class Portal {
    final PgStatement statement;
    final List<Object> parameters;
    final List<PgColumn> columns;
    SqlResult result;
    Iterator<Object[]> catalogRows;
    boolean pending;
    boolean done;

    Portal(PgStatement statement, List<Object> parameters, List<PgColumn> columns) {
        this.statement = statement;
        this.parameters = parameters;
        this.columns = columns;
    }

    void close() {
        done = true;
        pending = false;
        if (result != null) {
            SqlResult r = result;
            result = null;
            r.close();
        }
    }
}
