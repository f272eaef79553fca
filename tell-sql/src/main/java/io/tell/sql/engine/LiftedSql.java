package io.tell.sql.engine;

import io.tell.sql.ColumnInfo;
import io.tell.sql.PreparedSql;
import java.util.List;

/** A plain statement run through the cached plan of its lifted form with its own literal values. */
record LiftedSql(String sql, Plan plan, Object[] values) implements PreparedSql {
    @Override
    public Kind kind() {
        return plan.kind();
    }

    @Override
    public boolean writes() {
        return plan.writes();
    }

    @Override
    public List<ColumnInfo> columns() {
        return plan.columns();
    }

    @Override
    public List<ColumnInfo> parameters() {
        return List.of();
    }
}
