package io.tell.sql;

import java.util.List;

/**
 * A secondary index of a table, or the index backing a UNIQUE constraint ({@code constraint}
 * true). {@code treeName} is the B+tree that holds its entries; the catalog assigns it.
 *
 * @param writeOnly being built by CREATE INDEX: writers keep it (and a unique one refuses
 *                  duplicates) but queries do not read it until its backfill is done
 */
public record IndexDef(String name, List<String> columns, boolean unique, boolean constraint, String treeName,
                       boolean writeOnly) {
    public IndexDef {
        Names.check("index", name);
        columns = List.copyOf(columns);
    }

    public IndexDef(String name, List<String> columns, boolean unique, boolean constraint, String treeName) {
        this(name, columns, unique, constraint, treeName, false);
    }

    /** This index readable by queries. */
    IndexDef published() {
        return new IndexDef(name, columns, unique, constraint, treeName, false);
    }
}
