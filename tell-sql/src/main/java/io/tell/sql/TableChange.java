package io.tell.sql;

import java.util.List;

/**
 * One change of an ALTER TABLE, as the catalog applies it ({@link Catalog#alterTable}); values
 * already coerced to their column types.
 */
public sealed interface TableChange {
    /** Adds {@code column} last; rows already stored read {@code fill} in it. */
    record AddColumn(ColumnDef column, Object fill, List<TableSpec.ForeignKeySpec> references, boolean ifNotExists)
            implements TableChange {
        public AddColumn {
            references = List.copyOf(references);
        }
    }

    /**
     * Drops a column with the indexes, UNIQUE constraints and foreign keys of this table that
     * use it; foreign keys of other tables that reference it only with {@code cascade}.
     */
    record DropColumn(String column, boolean ifExists, boolean cascade) implements TableChange {
    }

    record RenameColumn(String from, String to) implements TableChange {
    }

    /** A UNIQUE (and its index), FOREIGN KEY or CHECK constraint under another name. */
    record RenameConstraint(String from, String to) implements TableChange {
    }

    record RenameTable(String to) implements TableChange {
    }

    /** A new DEFAULT: {@code value}, the next value of {@code sequence}, or the time ({@code function}); none drops it. */
    record SetDefault(String column, Object value, String sequence, String function) implements TableChange {
    }

    /** A column's type widened to one its stored values already have the form of ({@link ColumnType#storedAs}). */
    record SetType(String column, ColumnType type) implements TableChange {
    }

    record SetNullable(String column, boolean nullable) implements TableChange {
    }

    record AddForeignKey(TableSpec.ForeignKeySpec foreignKey) implements TableChange {
    }

    /** Adds a CHECK constraint (named when {@code check.name()} is null). */
    record AddCheck(TableSpec.CheckSpec check) implements TableChange {
    }

    /** Drops a foreign key, a CHECK or a UNIQUE constraint (its index goes too). */
    record DropConstraint(String name, boolean ifExists) implements TableChange {
    }
}
