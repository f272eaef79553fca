package io.tell.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * What a CREATE TABLE asks for, before the catalog validates it and gives it storage. Build
 * one with {@link #builder}; an index or foreign key without a name gets one from the catalog.
 */
public record TableSpec(String name, List<ColumnDef> columns, List<String> primaryKey,
                        List<IndexSpec> indexes, List<ForeignKeySpec> foreignKeys, List<CheckSpec> checks) {
    public TableSpec {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        indexes = List.copyOf(indexes);
        foreignKeys = List.copyOf(foreignKeys);
        checks = List.copyOf(checks);
    }

    public TableSpec(String name, List<ColumnDef> columns, List<String> primaryKey, List<IndexSpec> indexes,
                     List<ForeignKeySpec> foreignKeys) {
        this(name, columns, primaryKey, indexes, foreignKeys, List.of());
    }

    /** A CHECK constraint as written: its name (may be null) and condition (SQL text over the row's columns). */
    public record CheckSpec(String name, String condition) {
    }

    /** A UNIQUE constraint ({@code constraint}) or an index created with the table; name may be null. */
    public record IndexSpec(String name, List<String> columns, boolean unique, boolean constraint) {
        public IndexSpec {
            columns = List.copyOf(columns);
        }
    }

    /** A FOREIGN KEY; name may be null; empty refColumns mean the referenced table's primary key. */
    public record ForeignKeySpec(String name, List<String> columns, String refTable, List<String> refColumns,
                                 ForeignKeyDef.Action onDelete, ForeignKeyDef.Action onUpdate) {
        public ForeignKeySpec {
            columns = List.copyOf(columns);
            refColumns = List.copyOf(refColumns);
        }

        public ForeignKeySpec(String name, List<String> columns, String refTable, List<String> refColumns) {
            this(name, columns, refTable, refColumns, ForeignKeyDef.Action.NO_ACTION, ForeignKeyDef.Action.NO_ACTION);
        }
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public static final class Builder {
        private final String name;
        private final List<ColumnDef> columns = new ArrayList<>();
        private List<String> primaryKey = List.of();
        private final List<IndexSpec> indexes = new ArrayList<>();
        private final List<ForeignKeySpec> foreignKeys = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        public Builder column(ColumnDef column) {
            columns.add(column);
            return this;
        }

        public Builder column(String name, ColumnType type) {
            return column(ColumnDef.of(name, type));
        }

        public Builder notNull(String name, ColumnType type) {
            return column(ColumnDef.notNull(name, type));
        }

        public Builder primaryKey(String... columns) {
            primaryKey = List.of(columns);
            return this;
        }

        public Builder unique(String... columns) {
            indexes.add(new IndexSpec(null, List.of(columns), true, true));
            return this;
        }

        public Builder index(String name, boolean unique, String... columns) {
            indexes.add(new IndexSpec(name, List.of(columns), unique, false));
            return this;
        }

        public Builder foreignKey(List<String> columns, String refTable, List<String> refColumns) {
            foreignKeys.add(new ForeignKeySpec(null, columns, refTable, refColumns));
            return this;
        }

        public TableSpec build() {
            return new TableSpec(name, columns, primaryKey, indexes, foreignKeys);
        }
    }
}
