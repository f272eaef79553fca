package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.DuplicateKeyException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Constraint violations worded as PostgreSQL words them, from what the transaction layer knows
 * (an index's tree name and an encoded key) and the catalog: the constraint's name and the
 * key's columns and values. The primary key's constraint is {@code <TABLE>_PK}, as
 * DatabaseMetaData reports it.
 */
public final class ConstraintErrors {
    private ConstraintErrors() {
    }

    /** {@code e} reworded when it is a duplicate key of a table in {@code catalog}; otherwise {@code e}. */
    public static RuntimeException readable(CatalogSnapshot catalog, RuntimeException e) {
        if (!(e instanceof DuplicateKeyException d)) {
            return e;
        }
        for (TableDef t : catalog.tables()) {
            String constraint = null;
            List<String> columns = null;
            if (d.index().equals(t.pkTree())) {
                constraint = t.primaryKeyName();
                columns = t.primaryKey();
            } else {
                for (IndexDef ix : t.indexes()) {
                    if (d.index().equals(ix.treeName())) {
                        constraint = ix.name();
                        columns = ix.columns();
                    }
                }
            }
            if (constraint != null) {
                return duplicate(constraint, columns, values(t, columns, d.key()), d);
            }
        }
        return e;
    }

    /** What separates a message from its PostgreSQL-style Detail line; the PN server sends that line as the Detail field. */
    public static final String DETAIL = "\n  Detail: ";

    /** An error with PostgreSQL's two lines: {@code message} and {@code detail}. */
    public static TellException withDetail(ErrorCode code, String message, String detail, Throwable cause) {
        return TellException.of(code, message + DETAIL + detail, cause);
    }

    /** {@code Key (a, b)=(1, x)}. */
    public static String key(List<String> columns, Object[] values) {
        return "Key (" + String.join(", ", columns) + ")=(" + joined(values) + ")";
    }

    /** {@code Failing row contains (1, x).} */
    public static String failingRow(Object[] row) {
        return "Failing row contains (" + joined(row) + ").";
    }

    /** DUPLICATE_KEY for {@code values} of the key over {@code columns} of unique constraint {@code constraint}. */
    public static TellException duplicate(String constraint, List<String> columns, Object[] values, Throwable cause) {
        return withDetail(ErrorCode.DUPLICATE_KEY, "duplicate key value violates unique constraint \"" + Names.local(constraint) + "\"",
                key(columns, values) + " already exists.", cause);
    }

    /** FOREIGN_KEY_VIOLATION: a row of {@code table} names key {@code values} that {@code parent} does not hold. */
    public static TellException missingParent(String table, String fk, List<String> columns, Object[] values,
                                              String parent) {
        return withDetail(ErrorCode.FOREIGN_KEY_VIOLATION, "insert or update on table \"" + Names.local(table)
                + "\" violates foreign key constraint \"" + Names.local(fk) + "\"", key(columns, values)
                + " is not present in table \"" + Names.local(parent) + "\".", null);
    }

    private static String joined(Object[] values) {
        return java.util.Arrays.stream(values).map(String::valueOf).collect(Collectors.joining(", "));
    }

    private static Object[] values(TableDef t, List<String> columns, byte[] key) {
        try {
            return t.keyEncoder(columns).decode(key);
        } catch (TellException undecodable) {
            return new Object[] {java.util.HexFormat.of().formatHex(key)};
        }
    }
}
