package io.tell.sql;

import java.util.List;

/**
 * A view as the catalog stores it: the query (as validated, with {@code *} and every name
 * spelled out, so that columns added later to its tables do not change it), its columns, and the
 * relations it reads (a table or view it depends on cannot be dropped, or its columns dropped
 * or renamed, while it stands).
 */
public record ViewDef(String name, String sql, List<ColumnDef> columns, List<String> dependsOn) {
    public ViewDef {
        Names.check("view", name);
        columns = List.copyOf(columns);
        dependsOn = List.copyOf(dependsOn);
    }
}
