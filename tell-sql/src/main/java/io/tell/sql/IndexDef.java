package io.tell.sql;

import java.util.List;

/**
 * A secondary index of a table, or the index backing a UNIQUE constraint ({@code constraint}
 * true). {@code treeName} is the B+tree that holds its entries; the catalog assigns it.
 *
 * @param writeOnly being built by CREATE INDEX: writers keep it (and a unique one refuses
 *                  duplicates) but queries do not read it until its backfill is done
 * @param descending the columns declared DESC. Tell keeps every index in ascending key order
 *                  (it reads indexes for lookups and ranges, never for their order), so this
 *                  is what CREATE INDEX said, for DatabaseMetaData and tools
 */
public record IndexDef(String name, List<String> columns, boolean unique, boolean constraint, String treeName,
                       boolean writeOnly, List<String> descending) {
    public IndexDef {
        Names.check("index", name);
        columns = List.copyOf(columns);
        descending = List.copyOf(descending);
    }

    /** This index under another name (the same tree). */
    public IndexDef renamed(String to) {
        return new IndexDef(to, columns, unique, constraint, treeName, writeOnly, descending);
    }

    public IndexDef(String name, List<String> columns, boolean unique, boolean constraint, String treeName) {
        this(name, columns, unique, constraint, treeName, false, List.of());
    }

    /** This index readable by queries. */
    IndexDef published() {
        return new IndexDef(name, columns, unique, constraint, treeName, false, descending);
    }

    /** This index over other column names (a rename) or in another tree (TRUNCATE's fresh storage). */
    IndexDef moved(List<String> newColumns, List<String> newDescending, String newTree) {
        return new IndexDef(name, newColumns, unique, constraint, newTree, writeOnly, newDescending);
    }
}
