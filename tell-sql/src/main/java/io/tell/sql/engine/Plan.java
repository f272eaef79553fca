package io.tell.sql.engine;

import io.tell.sql.ColumnInfo;
import io.tell.sql.PreparedSql;
import io.tell.sql.exec.ExecNode;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A planned statement: what JDBC metadata needs, the parameter types values are converted to,
 * and the executable tree (null for DDL, which runs from its text). {@code returning}: an
 * INSERT, UPDATE or DELETE with RETURNING, a query whose rows are the changed ones.
 * {@code upsertTrees}: of an INSERT … ON CONFLICT, the trees of the unique keys it checks (empty otherwise). Valid for one catalog
 * version and, as {@code sizesEpoch}, the table sizes it was made for ({@link io.tell.sql.TableSizes#epoch}; any
 * sizes, {@link #ANY_SIZES}, for a plan that reads no table);
 * shared by every session of a node through the {@link PlanCache}.
 */
record Plan(String sql, Kind kind, List<ColumnInfo> columns, List<ColumnInfo> parameters,
            List<RelDataType> parameterTypes, ExecNode exec, long catalogVersion, long sizesEpoch, boolean forUpdate,
            boolean returning, java.util.Set<String> upsertTrees) implements PreparedSql {
    /** The {@code sizesEpoch} of a plan that reads no table, which no table size can change. */
    static final long ANY_SIZES = -1;

    @Override
    public boolean writes() {
        return kind == Kind.DML || returning;
    }
}
