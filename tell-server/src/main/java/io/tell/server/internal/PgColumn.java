package io.tell.server.internal;

/**
 * One column of a RowDescription: its name, type, modifier and whether it travels in binary;
 * for a plain column of a table, that table's OID and the column's number (1-based), else 0.
 */
record PgColumn(String name, PgType type, int typeModifier, boolean binary, int tableOid, short attnum) {
    PgColumn(String name, PgType type, int typeModifier, boolean binary) {
        this(name, type, typeModifier, binary, 0, (short) 0);
    }

    PgColumn withBinary(boolean b) {
        return new PgColumn(name, type, typeModifier, b, tableOid, attnum);
    }
}
