package io.tell.sql;

import java.util.List;

/**
 * A FOREIGN KEY / REFERENCES constraint: the referencing columns, the referenced table and
 * columns (its primary key or a unique constraint), and what a delete or key update of a
 * referenced row does to the rows that reference it.
 */
public record ForeignKeyDef(String name, List<String> columns, String refTable, List<String> refColumns,
                            Action onDelete, Action onUpdate) {
    /** ON DELETE / ON UPDATE. NO ACTION and RESTRICT both refuse the change while references remain. */
    public enum Action {
        NO_ACTION(java.sql.DatabaseMetaData.importedKeyNoAction),
        RESTRICT(java.sql.DatabaseMetaData.importedKeyRestrict),
        CASCADE(java.sql.DatabaseMetaData.importedKeyCascade),
        SET_NULL(java.sql.DatabaseMetaData.importedKeySetNull);

        private final int jdbcRule;

        Action(int jdbcRule) {
            this.jdbcRule = jdbcRule;
        }

        /** UPDATE_RULE / DELETE_RULE as {@link java.sql.DatabaseMetaData} codes them. */
        public int jdbcRule() {
            return jdbcRule;
        }

        /** As SQL writes it: {@code NO ACTION}, {@code SET NULL}, … */
        public String sql() {
            return name().replace('_', ' ');
        }
    }

    public ForeignKeyDef {
        Names.check("foreign key", name);
        Names.check("table", refTable);
        columns = List.copyOf(columns);
        refColumns = List.copyOf(refColumns);
    }

    public ForeignKeyDef(String name, List<String> columns, String refTable, List<String> refColumns) {
        this(name, columns, refTable, refColumns, Action.NO_ACTION, Action.NO_ACTION);
    }

    /** This key under another name or with other columns, its actions kept. */
    public ForeignKeyDef with(String newName, List<String> newColumns, String newRefTable, List<String> newRefColumns) {
        return new ForeignKeyDef(newName, newColumns, newRefTable, newRefColumns, onDelete, onUpdate);
    }
}
