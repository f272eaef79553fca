package io.tell.server.internal;

/** One column of a RowDescription: its name, type, modifier and whether it travels in binary. */
record PgColumn(String name, PgType type, int typeModifier, boolean binary) {
    PgColumn withBinary(boolean b) {
        return new PgColumn(name, type, typeModifier, b);
    }
}
