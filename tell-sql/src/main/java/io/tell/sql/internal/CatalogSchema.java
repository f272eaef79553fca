package io.tell.sql.internal;

import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.TableDef;
import java.util.List;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/** The catalog as Calcite sees it: one immutable root schema per catalog snapshot. */
public final class CatalogSchema {
    private CatalogSchema() {
    }

    public static CalciteSchema of(CatalogSnapshot snapshot) {
        CalciteSchema root = CalciteSchema.createRootSchema(false, false);
        for (TableDef def : snapshot.tables()) {
            root.add(def.name(), new Table(def));
        }
        return root;
    }

    /** A table's row type for the validator; the definition rides along for the planner. */
    public static final class Table extends AbstractTable {
        private final TableDef def;

        Table(TableDef def) {
            this.def = def;
        }

        public TableDef def() {
            return def;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            RelDataTypeFactory.Builder row = types.builder();
            List<ColumnDef> columns = def.columns();
            for (ColumnDef c : columns) {
                row.add(c.name(), types.createTypeWithNullability(sqlType(types, c.type()), c.nullable()));
            }
            return row.build();
        }
    }

    static RelDataType sqlType(RelDataTypeFactory types, ColumnType t) {
        return switch (t.type()) {
            case SMALLINT -> types.createSqlType(SqlTypeName.SMALLINT);
            case INTEGER -> types.createSqlType(SqlTypeName.INTEGER);
            case BIGINT -> types.createSqlType(SqlTypeName.BIGINT);
            case REAL -> types.createSqlType(SqlTypeName.REAL);
            case DOUBLE -> types.createSqlType(SqlTypeName.DOUBLE);
            case BOOLEAN -> types.createSqlType(SqlTypeName.BOOLEAN);
            case DATE -> types.createSqlType(SqlTypeName.DATE);
            case TIMESTAMP -> types.createSqlType(SqlTypeName.TIMESTAMP, 3);
            case DECIMAL -> types.createSqlType(SqlTypeName.DECIMAL, t.precision(), t.scale());
            case VARCHAR -> types.createSqlType(SqlTypeName.VARCHAR, t.length());
            case CHAR -> types.createSqlType(SqlTypeName.CHAR, t.length());
        };
    }
}
