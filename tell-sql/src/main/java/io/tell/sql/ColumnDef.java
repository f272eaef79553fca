package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;

/**
 * A column: its name, type, whether it takes NULL, and its default (already coerced to the
 * type; null when there is none, which means DEFAULT NULL).
 */
public record ColumnDef(String name, ColumnType type, boolean nullable, Object defaultValue) {
    public ColumnDef {
        Names.check("column", name);
        if (type == null) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "column " + name + " has no type");
        }
        try {
            defaultValue = type.coerce(defaultValue);
        } catch (TellException e) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "bad DEFAULT for column " + name + ": " + e.getMessage(), e);
        }
    }

    public static ColumnDef of(String name, ColumnType type) {
        return new ColumnDef(name, type, true, null);
    }

    public static ColumnDef notNull(String name, ColumnType type) {
        return new ColumnDef(name, type, false, null);
    }

    public ColumnDef withDefault(Object value) {
        return new ColumnDef(name, type, nullable, value);
    }
}
