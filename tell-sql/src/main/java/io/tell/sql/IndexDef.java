package io.tell.sql;

import java.util.List;

/**
 * A secondary index of a table, or the index backing a UNIQUE constraint ({@code constraint}
 * true). {@code treeName} is the B+tree that holds its entries; the catalog assigns it.
 */
public record IndexDef(String name, List<String> columns, boolean unique, boolean constraint, String treeName) {
    public IndexDef {
        Names.check("index", name);
        columns = List.copyOf(columns);
    }
}
