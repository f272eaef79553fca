package io.tell.sql.internal;

import io.tell.sql.CatalogSnapshot;
import io.tell.sql.CheckDef;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.ForeignKeyDef;
import io.tell.sql.IndexDef;
import io.tell.sql.Names;
import io.tell.sql.SequenceDef;
import io.tell.sql.TableDef;
import io.tell.sql.ViewDef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The SQL standard's {@code INFORMATION_SCHEMA} views over one catalog snapshot, as PostgreSQL
 * words them (upper-case names here, as Tell folds unquoted ones): SCHEMATA, TABLES, COLUMNS,
 * VIEWS, TABLE_CONSTRAINTS, KEY_COLUMN_USAGE, REFERENTIAL_CONSTRAINTS, CHECK_CONSTRAINTS and
 * SEQUENCES. Each is computed from the snapshot when a statement is planned (a plan lives for one
 * catalog version) and read as constant rows. Each relation is in its schema.
 */
final class InformationSchema extends AbstractSchema {
    static final String NAME = "INFORMATION_SCHEMA";
    private static final String INT = ":INT";

    private final CatalogSnapshot cat;

    InformationSchema(CatalogSnapshot cat) {
        this.cat = cat;
    }

    @Override
    protected Map<String, Table> getTableMap() {
        Map<String, Table> out = new HashMap<>();
        out.put("SCHEMATA", new View(List.of("CATALOG_NAME", "SCHEMA_NAME", "SCHEMA_OWNER"), schemata()));
        out.put("TABLES", new View(List.of("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "TABLE_TYPE"), baseTables()));
        out.put("COLUMNS", new View(List.of("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME",
                "ORDINAL_POSITION" + INT, "COLUMN_DEFAULT", "IS_NULLABLE", "DATA_TYPE", "CHARACTER_MAXIMUM_LENGTH" + INT,
                "NUMERIC_PRECISION" + INT, "NUMERIC_SCALE" + INT, "IS_IDENTITY", "IDENTITY_GENERATION"), columns()));
        out.put("VIEWS", new View(List.of("TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "VIEW_DEFINITION"), views()));
        out.put("TABLE_CONSTRAINTS", new View(List.of("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME",
                "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "CONSTRAINT_TYPE"), constraints()));
        out.put("KEY_COLUMN_USAGE", new View(List.of("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME",
                "TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "COLUMN_NAME", "ORDINAL_POSITION" + INT,
                "POSITION_IN_UNIQUE_CONSTRAINT" + INT), keyColumns()));
        out.put("REFERENTIAL_CONSTRAINTS", new View(List.of("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME",
                "UNIQUE_CONSTRAINT_CATALOG", "UNIQUE_CONSTRAINT_SCHEMA", "UNIQUE_CONSTRAINT_NAME", "MATCH_OPTION",
                "UPDATE_RULE", "DELETE_RULE"), references()));
        out.put("CHECK_CONSTRAINTS", new View(List.of("CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME",
                "CHECK_CLAUSE"), checks()));
        out.put("SEQUENCES", new View(List.of("SEQUENCE_CATALOG", "SEQUENCE_SCHEMA", "SEQUENCE_NAME", "DATA_TYPE",
                "START_VALUE", "MINIMUM_VALUE", "MAXIMUM_VALUE", "INCREMENT", "CYCLE_OPTION"), sequences()));
        return out;
    }

    private List<Object[]> schemata() {
        List<Object[]> out = new ArrayList<>();
        cat.schemas().forEach(s -> out.add(new Object[] {null, s, null}));
        out.add(new Object[] {null, NAME, null});
        return out;
    }

    private List<Object[]> baseTables() {
        List<Object[]> out = new ArrayList<>();
        cat.tables().forEach(t -> out.add(new Object[] {null, Names.schemaOf(t.name()), Names.local(t.name()), "BASE TABLE"}));
        cat.views().forEach(v -> out.add(new Object[] {null, Names.schemaOf(v.name()), Names.local(v.name()), "VIEW"}));
        return out;
    }

    private List<Object[]> columns() {
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : cat.tables()) {
            addColumns(out, t.name(), t.columns());
        }
        for (ViewDef v : cat.views()) {
            addColumns(out, v.name(), v.columns());
        }
        return out;
    }

    private static void addColumns(List<Object[]> out, String table, List<ColumnDef> columns) {
        for (int i = 0; i < columns.size(); i++) {
            ColumnDef c = columns.get(i);
            ColumnType type = c.type();
            boolean identity = c.identity() != ColumnDef.Identity.NONE;
            out.add(new Object[] {null, Names.schemaOf(table), Names.local(table), c.name(), i + 1, defaultText(c), c.nullable() ? "YES" : "NO",
                    dataType(type), switch (type.type()) {
                        case VARCHAR, CHAR, VARBINARY -> type.length();
                        default -> null;
                    }, numericPrecision(type), switch (type.type()) {
                        case SMALLINT, INTEGER, BIGINT -> 0;
                        case DECIMAL -> type.scale();
                        default -> null;
                    }, identity ? "YES" : "NO",
                    identity ? (c.identity() == ColumnDef.Identity.ALWAYS ? "ALWAYS" : "BY DEFAULT") : null});
        }
    }

    private List<Object[]> views() {
        return cat.views().stream().map(v -> new Object[] {null, Names.schemaOf(v.name()), Names.local(v.name()), v.sql()}).toList();
    }

    private List<Object[]> constraints() {
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : cat.tables()) {
            if (!t.primaryKey().isEmpty()) {
                out.add(constraint(t.primaryKeyName(), t, "PRIMARY KEY"));
            }
            for (IndexDef ix : t.indexes()) {
                if (ix.constraint() && !ix.writeOnly()) {
                    out.add(constraint(ix.name(), t, "UNIQUE"));
                }
            }
            t.foreignKeys().forEach(fk -> out.add(constraint(fk.name(), t, "FOREIGN KEY")));
            t.checks().forEach(c -> out.add(constraint(c.name(), t, "CHECK")));
        }
        return out;
    }

    private static Object[] constraint(String name, TableDef t, String type) {
        return new Object[] {null, Names.schemaOf(t.name()), Names.local(name), null, Names.schemaOf(t.name()), Names.local(t.name()), type};
    }

    private List<Object[]> keyColumns() {
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : cat.tables()) {
            keyColumns(out, t.primaryKeyName(), t, t.primaryKey(), null);
            for (IndexDef ix : t.indexes()) {
                if (ix.constraint() && !ix.writeOnly()) {
                    keyColumns(out, ix.name(), t, ix.columns(), null);
                }
            }
            for (ForeignKeyDef fk : t.foreignKeys()) {
                keyColumns(out, fk.name(), t, fk.columns(), fk.refColumns());
            }
        }
        return out;
    }

    /** One row per column of a key; a foreign key's columns also give their place in the key they reference. */
    private static void keyColumns(List<Object[]> out, String name, TableDef t, List<String> columns, List<String> referenced) {
        for (int i = 0; i < columns.size(); i++) {
            out.add(new Object[] {null, Names.schemaOf(t.name()), Names.local(name), null, Names.schemaOf(t.name()), Names.local(t.name()), columns.get(i), i + 1,
                    referenced == null ? null : i + 1});
        }
    }

    private List<Object[]> references() {
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : cat.tables()) {
            for (ForeignKeyDef fk : t.foreignKeys()) {
                String key = cat.table(fk.refTable()).map(ref -> ref.keyName(fk.refColumns())).orElse(null);
                out.add(new Object[] {null, Names.schemaOf(t.name()), Names.local(fk.name()), null, key == null ? null : Names.schemaOf(key), key == null ? null : Names.local(key), "NONE", fk.onUpdate().sql(),
                        fk.onDelete().sql()});
            }
        }
        return out;
    }

    private List<Object[]> checks() {
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : cat.tables()) {
            for (CheckDef c : t.checks()) {
                out.add(new Object[] {null, Names.schemaOf(t.name()), Names.local(c.name()), c.condition()});
            }
        }
        return out;
    }

    private List<Object[]> sequences() {
        return cat.sequences().stream().map(q -> new Object[] {null, Names.schemaOf(q.name()), Names.local(q.name()), "bigint",
                Long.toString(q.start()), Long.toString(q.min()), Long.toString(q.max()), Long.toString(q.increment()), "NO"})
                .toList();
    }

    /** A column's DEFAULT as SQL text; null for none (identity columns too, whose values are generated). */
    private static String defaultText(ColumnDef c) {
        if (c.defaultFunction() != null) {
            return c.defaultFunctionSql();
        }
        if (c.sequence() != null) {
            return c.identity() == ColumnDef.Identity.NONE ? "nextval('" + c.sequence() + "')" : null;
        }
        Object v = c.defaultValue();
        if (v == null || v instanceof Number || v instanceof Boolean) {
            return v == null ? null : v instanceof java.math.BigDecimal d ? d.toPlainString() : v.toString();
        }
        return "'" + (v instanceof byte[] b ? "\\x" + java.util.HexFormat.of().formatHex(b) : v.toString()).replace("'", "''") + "'";
    }

    /** The type's name as PostgreSQL's information_schema writes it. */
    private static String dataType(ColumnType type) {
        return switch (type.type()) {
            case SMALLINT, INTEGER, BIGINT, REAL, BOOLEAN, DATE, UUID -> type.type().name().toLowerCase(Locale.ROOT);
            case DECIMAL -> "numeric";
            case DOUBLE -> "double precision";
            case VARCHAR -> "character varying";
            case CHAR -> "character";
            case TIMESTAMP -> "timestamp without time zone";
            case TIMESTAMPTZ -> "timestamp with time zone";
            case TIME -> "time without time zone";
            case VARBINARY -> "bytea";
        };
    }

    private static Integer numericPrecision(ColumnType type) {
        return switch (type.type()) {
            case SMALLINT -> 16;
            case INTEGER -> 32;
            case BIGINT -> 64;
            case REAL -> 24;
            case DOUBLE -> 53;
            case DECIMAL -> type.precision();
            default -> null;
        };
    }

    /** Constant rows with VARCHAR columns, and INTEGER ones named with {@value #INT}. */
    private static final class View extends AbstractTable implements TranslatableTable {
        private final List<String> columns;
        private final List<Object[]> rows;

        View(List<String> columns, List<Object[]> rows) {
            this.columns = columns;
            this.rows = rows;
        }

        @Override
        public Schema.TableType getJdbcTableType() {
            return Schema.TableType.SYSTEM_TABLE;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            RelDataTypeFactory.Builder row = types.builder();
            for (String c : columns) {
                boolean integer = c.endsWith(INT);
                row.add(integer ? c.substring(0, c.length() - INT.length()) : c, types.createTypeWithNullability(
                        integer ? types.createSqlType(SqlTypeName.INTEGER) : types.createSqlType(SqlTypeName.VARCHAR), true));
            }
            return row.build();
        }

        @Override
        public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
            RexBuilder rex = context.getCluster().getRexBuilder();
            RelDataType type = table.getRowType();
            List<List<RexLiteral>> tuples = new ArrayList<>();
            for (Object[] r : rows) {
                List<RexLiteral> tuple = new ArrayList<>(r.length);
                for (int i = 0; i < r.length; i++) {
                    tuple.add((RexLiteral) rex.makeLiteral(r[i] instanceof Integer n ? java.math.BigDecimal.valueOf(n) : r[i],
                            type.getFieldList().get(i).getType(), false));
                }
                tuples.add(tuple);
            }
            return LogicalValues.create(context.getCluster(), type, com.google.common.collect.ImmutableList.copyOf(
                    tuples.stream().map(com.google.common.collect.ImmutableList::copyOf).toList()));
        }
    }
}
