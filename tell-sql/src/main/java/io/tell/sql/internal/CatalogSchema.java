package io.tell.sql.internal;

import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.Names;
import io.tell.sql.SequenceDef;
import io.tell.sql.TableDef;
import io.tell.sql.TableSizes;
import io.tell.sql.ViewDef;
import java.util.List;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ColumnStrategy;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;
import org.apache.calcite.sql2rel.NullInitializerExpressionFactory;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/** The catalog as Calcite sees it: one immutable root schema per catalog snapshot. */
public final class CatalogSchema {
    private CatalogSchema() {
    }

    public static CalciteSchema of(CatalogSnapshot snapshot, TableSizes sizes) {
        CalciteSchema root = CalciteSchema.createRootSchema(false, false);
        java.util.Map<String, CalciteSchema> schemas = new java.util.HashMap<>();
        for (String name : snapshot.schemas()) {
            schemas.put(name, root.add(name, new AbstractSchema()));
        }
        for (TableDef def : snapshot.tables()) {
            schemas.get(Names.schemaOf(def.name())).add(Names.local(def.name()), new Table(def, sizes));
        }
        for (SequenceDef q : snapshot.sequences()) {
            schemas.get(Names.schemaOf(q.name())).add(Names.local(q.name()), new Sequence(q));
        }
        for (ViewDef v : snapshot.views()) {
            schemas.get(Names.schemaOf(v.name())).add(Names.local(v.name()), new View(v));
        }
        root.add(InformationSchema.NAME, new InformationSchema(snapshot));
        // Type names DDL takes that Calcite's grammar lacks, for CAST: unbounded, as in PostgreSQL.
        root.add("TEXT", types -> types.createSqlType(SqlTypeName.VARCHAR));
        root.add("CLOB", types -> types.createSqlType(SqlTypeName.VARCHAR));
        root.add("BYTEA", types -> types.createSqlType(SqlTypeName.VARBINARY));
        root.add("BLOB", types -> types.createSqlType(SqlTypeName.VARBINARY));
        return root;
    }

    /**
     * A view: its stored query expanded in place wherever it is read (through the planner's view
     * expander), cast to the columns it was created with.
     */
    public static final class View extends AbstractTable implements TranslatableTable {
        private final ViewDef def;

        View(ViewDef def) {
            this.def = def;
        }

        public ViewDef def() {
            return def;
        }

        @Override
        public Schema.TableType getJdbcTableType() {
            return Schema.TableType.VIEW;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            RelDataTypeFactory.Builder row = types.builder();
            for (ColumnDef c : def.columns()) {
                row.add(c.name(), types.createTypeWithNullability(sqlType(types, c.type()), c.nullable()));
            }
            return row.build();
        }

        @Override
        public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable table) {
            RelRoot root = context.expandView(table.getRowType(), def.sql(), List.of(), List.of(def.name()));
            return RelOptUtil.createCastRel(root.rel, table.getRowType(), true);
        }
    }

    /** A sequence, for the validator of NEXT VALUE FOR (which looks for a table of type SEQUENCE). */
    public static final class Sequence extends AbstractTable {
        private final SequenceDef def;

        Sequence(SequenceDef def) {
            this.def = def;
        }

        public SequenceDef def() {
            return def;
        }

        @Override
        public Schema.TableType getJdbcTableType() {
            return Schema.TableType.SEQUENCE;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory types) {
            return types.builder().add("NEXT_VALUE", SqlTypeName.BIGINT).build();
        }
    }

    /** A table's row type for the validator; the definition rides along for the planner. */
    public static final class Table extends AbstractTable {
        private final TableDef def;
        private final TableSizes sizes;

        Table(TableDef def, TableSizes sizes) {
            this.def = def;
            this.sizes = sizes;
        }

        public TableDef def() {
            return def;
        }

        @Override
        public Statistic getStatistic() {
            List<ImmutableBitSet> keys = new java.util.ArrayList<>();
            if (!def.primaryKey().isEmpty()) {
                keys.add(ImmutableBitSet.of(def.columnIndexes(def.primaryKey())));
            }
            for (io.tell.sql.IndexDef ix : def.indexes()) {
                if (ix.unique() && !ix.writeOnly()) {
                    keys.add(ImmutableBitSet.of(def.columnIndexes(ix.columns())));
                }
            }
            return Statistics.of(sizes.rows(def), keys);
        }

        @Override
        public <C> C unwrap(Class<C> type) {
            if (type == InitializerExpressionFactory.class) {
                return type.cast(new Defaults(def));
            }
            return super.unwrap(type);
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

    /** Column DEFAULTs for INSERTs that omit columns (NULL where there is none). */
    private static final class Defaults extends NullInitializerExpressionFactory {
        private final TableDef def;

        Defaults(TableDef def) {
            this.def = def;
        }

        @Override
        public ColumnStrategy generationStrategy(RelOptTable table, int column) {
            ColumnDef c = def.columns().get(column);
            if (c.hasDefault()) {
                return ColumnStrategy.DEFAULT;
            }
            return c.nullable() ? ColumnStrategy.NULLABLE : ColumnStrategy.NOT_NULLABLE;
        }

        @Override
        public RexNode newColumnDefaultValue(RelOptTable table, int column, InitializerContext context) {
            ColumnDef c = def.columns().get(column);
            RelDataType type = table.getRowType().getFieldList().get(column).getType();
            RexBuilder rex = context.getRexBuilder();
            if (c.defaultFunction() != null) {
                org.apache.calcite.sql.SqlOperator now = switch (c.defaultFunction()) {
                    case "CURRENT_DATE" -> SqlStdOperatorTable.CURRENT_DATE;
                    case "LOCALTIMESTAMP" -> SqlStdOperatorTable.LOCALTIMESTAMP;
                    case ColumnDef.RANDOM_UUID -> io.tell.sql.exec.UuidFunctions.GEN_RANDOM_UUID;
                    default -> SqlStdOperatorTable.CURRENT_TIMESTAMP;
                };
                return rex.makeCast(type, rex.makeCall(now));
            }
            if (c.sequence() != null) {
                // named as the validator names the sequence of NEXT VALUE FOR: quoted, so the case stays
                RexNode name = rex.makeLiteral(Names.quotedQualified(c.sequence()));
                RexNode next = rex.makeCall(context.getRexBuilder().getTypeFactory().createSqlType(SqlTypeName.BIGINT),
                        SqlStdOperatorTable.NEXT_VALUE, List.of(name));
                return rex.makeCast(type, next);
            }
            if (c.defaultValue() == null) {
                return rex.makeNullLiteral(type);
            }
            return rex.makeLiteral(literalValue(c.defaultValue()), type, true);
        }

        private static Object literalValue(Object v) {
            if (v instanceof java.time.LocalDate d) {
                return new DateString(d.toString());
            }
            if (v instanceof java.time.LocalDateTime t) {
                return TimestampString.fromMillisSinceEpoch(t.toInstant(java.time.ZoneOffset.UTC).toEpochMilli());
            }
            if (v instanceof java.time.LocalTime t) {
                return new TimeString(t.getHour(), t.getMinute(), t.getSecond()).withNanos(t.getNano());
            }
            if (v instanceof byte[] b) {
                return new org.apache.calcite.avatica.util.ByteString(b);
            }
            if (v instanceof Number n && !(v instanceof java.math.BigDecimal)) {
                return v instanceof Double || v instanceof Float ? java.math.BigDecimal.valueOf(n.doubleValue())
                        : java.math.BigDecimal.valueOf(n.longValue());
            }
            return v;
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
            case TIME -> types.createSqlType(SqlTypeName.TIME, 3);
            case TIMESTAMPTZ -> types.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3);
            case VARBINARY -> types.createSqlType(SqlTypeName.VARBINARY, t.length());
            case UUID -> types.createSqlType(SqlTypeName.UUID);
            case DECIMAL -> types.createSqlType(SqlTypeName.DECIMAL, t.precision(), t.scale());
            case VARCHAR -> types.createSqlType(SqlTypeName.VARCHAR, t.length());
            case CHAR -> types.createSqlType(SqlTypeName.CHAR, t.length());
        };
    }
}
