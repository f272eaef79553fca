package io.tell.server.internal;

import io.tell.sql.Catalog;
import io.tell.sql.ColumnInfo;
import io.tell.sql.TableDef;

/** Where a connection's catalog queries are answered from: the node's catalog, and the database name the client gave. */
record CatalogSource(Catalog catalog, String database) {
    /**
     * A result column as RowDescription gives it: its type, and where it comes from (table OID and
     * column number, from the node's cached catalog) when it is a plain column of a table, so that
     * the JDBC driver's ResultSetMetaData can ask for the table's name and the column's nullability.
     */
    PgColumn column(ColumnInfo c) {
        PgType type = PgType.of(c);
        int typeModifier = PgType.typeModifier(type, c);
        if (c.table() != null && c.column() != null) {
            TableDef t = catalog.cached().table(c.table()).orElse(null);
            int index = t == null ? -1 : t.columnIndex(c.column());
            if (index >= 0) {
                return new PgColumn(c.label(), type, typeModifier, false, PgCatalogView.oid(t), (short) (index + 1));
            }
        }
        return new PgColumn(c.label(), type, typeModifier, false);
    }
}
