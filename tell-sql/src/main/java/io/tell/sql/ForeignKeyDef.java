package io.tell.sql;

import java.util.List;

/**
 * A FOREIGN KEY / REFERENCES constraint. Stored in the catalog and reported as metadata; not
 * enforced yet.
 */
public record ForeignKeyDef(String name, List<String> columns, String refTable, List<String> refColumns) {
    public ForeignKeyDef {
        Names.check("foreign key", name);
        Names.check("table", refTable);
        columns = List.copyOf(columns);
        refColumns = List.copyOf(refColumns);
    }
}
