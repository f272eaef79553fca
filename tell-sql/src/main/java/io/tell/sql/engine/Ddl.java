package io.tell.sql.engine;

import io.tell.sql.ColumnInfo;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SchemaPath;
import io.tell.sql.ddl.DdlExecutor;
import io.tell.sql.ddl.DdlParser;
import io.tell.sql.ddl.DdlStatement;
import java.util.List;

/** A DDL statement, parsed by Tell's own DDL parser (Calcite's core grammar has no DDL) and run against the catalog. */
record Ddl(String sql, DdlStatement statement) implements PreparedSql {
    static boolean isDdl(String sql) {
        return DdlParser.isDdl(sql);
    }

    static Ddl prepare(String sql) {
        return new Ddl(sql, DdlParser.parse(sql));
    }

    static void execute(ProcessingNode node, PreparedSql ddl, SchemaPath path) {
        DdlExecutor.execute(node, ((Ddl) ddl).statement(), path);
    }

    @Override
    public Kind kind() {
        return Kind.DDL;
    }

    @Override
    public List<ColumnInfo> columns() {
        return List.of();
    }

    @Override
    public List<ColumnInfo> parameters() {
        return List.of();
    }
}
