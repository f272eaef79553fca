package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;

/**
 * A column: its name, type, whether it takes NULL, and its default: a value (already coerced to
 * the type; null when there is none, which means DEFAULT NULL) or the next value of a sequence.
 *
 * @param sequence the sequence whose next value is the DEFAULT (identity and SERIAL columns,
 *                 {@code DEFAULT NEXT VALUE FOR s}); null when the default is {@code defaultValue}
 * @param identity whether the column is an identity column, and of which kind
 * @param defaultFunction CURRENT_DATE, CURRENT_TIMESTAMP or LOCALTIMESTAMP when the DEFAULT is
 *                 the statement's time, GEN_RANDOM_UUID when it is a new random UUID per row; null
 *                 otherwise
 */
public record ColumnDef(String name, ColumnType type, boolean nullable, Object defaultValue, String sequence,
                        Identity identity, String defaultFunction) {
    /** The DEFAULT {@code gen_random_uuid()}: a new random UUID for each row. */
    public static final String RANDOM_UUID = "GEN_RANDOM_UUID";
    /** The functions a DEFAULT may name: the statement's date or time, or a random UUID. */
    public static final java.util.Set<String> DEFAULT_FUNCTIONS = java.util.Set.of("CURRENT_DATE", "CURRENT_TIMESTAMP",
            "LOCALTIMESTAMP", RANDOM_UUID);

    /** {@code GENERATED ALWAYS / BY DEFAULT AS IDENTITY}, or neither. */
    public enum Identity {
        NONE,
        /** Values come from the sequence only: an INSERT or UPDATE that gives one fails (428C9). */
        ALWAYS,
        /** The sequence fills the column when an INSERT gives no value. */
        BY_DEFAULT
    }

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
        if (sequence != null && defaultValue != null) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "column " + name + " has two defaults");
        }
        if (identity != Identity.NONE && sequence == null) {
            throw TellException.of(ErrorCode.INTERNAL, "identity column " + name + " has no sequence");
        }
        if (defaultFunction != null) {
            if (!DEFAULT_FUNCTIONS.contains(defaultFunction) || defaultValue != null || sequence != null) {
                throw TellException.of(ErrorCode.INVALID_DEFINITION, "column " + name + " has a bad DEFAULT " + defaultFunction);
            }
            if (defaultFunction.equals(RANDOM_UUID) ? type.type() != SqlType.UUID
                    : type.type() != SqlType.DATE && type.type() != SqlType.TIMESTAMP && type.type() != SqlType.TIMESTAMPTZ) {
                throw TellException.of(ErrorCode.INVALID_DEFINITION, "DEFAULT " + defaultFunction + " needs a "
                        + (defaultFunction.equals(RANDOM_UUID) ? "UUID" : "DATE or TIMESTAMP") + " column, and " + name
                        + " is " + type);
            }
        }
    }

    public ColumnDef(String name, ColumnType type, boolean nullable, Object defaultValue, String sequence,
                     Identity identity) {
        this(name, type, nullable, defaultValue, sequence, identity, null);
    }

    public ColumnDef(String name, ColumnType type, boolean nullable, Object defaultValue) {
        this(name, type, nullable, defaultValue, null, Identity.NONE, null);
    }

    /** This column defaulting to the statement's date or time ({@link #DEFAULT_FUNCTIONS}). */
    public ColumnDef withDefaultFunction(String function) {
        return new ColumnDef(name, type, nullable, null, null, Identity.NONE, function);
    }

    public static ColumnDef of(String name, ColumnType type) {
        return new ColumnDef(name, type, true, null);
    }

    public static ColumnDef notNull(String name, ColumnType type) {
        return new ColumnDef(name, type, false, null);
    }

    public ColumnDef withDefault(Object value) {
        return new ColumnDef(name, type, nullable, value, null, Identity.NONE);
    }

    /** This column under another name. */
    public ColumnDef renamed(String newName) {
        return new ColumnDef(newName, type, nullable, defaultValue, sequence, identity, defaultFunction);
    }

    /** The DEFAULT function as SQL writes it ({@code CURRENT_TIMESTAMP}, {@code gen_random_uuid()}); null for none. */
    public String defaultFunctionSql() {
        return RANDOM_UUID.equals(defaultFunction) ? "gen_random_uuid()" : defaultFunction;
    }

    /** This column with type {@code t}, its default converted to it. */
    public ColumnDef withType(ColumnType t) {
        return new ColumnDef(name, t, nullable, t.coerce(defaultValue), sequence, identity, defaultFunction);
    }

    /** This column with nullability {@code on}. */
    public ColumnDef withNullable(boolean on) {
        return new ColumnDef(name, type, on, defaultValue, sequence, identity, defaultFunction);
    }

    /** This column filled from {@code seq} when an INSERT omits it. */
    public ColumnDef withSequence(String seq, Identity kind) {
        return new ColumnDef(name, type, nullable, null, seq, kind);
    }

    /** True when an INSERT that omits the column gets something other than NULL. */
    public boolean hasDefault() {
        return defaultValue != null || sequence != null || defaultFunction != null;
    }
}
