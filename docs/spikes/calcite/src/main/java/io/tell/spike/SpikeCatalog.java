package io.tell.spike;

import java.util.List;
import java.util.Map;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Spike: a catalog from plain Java objects. The real one is read from the store at a catalog
 * version; Calcite only ever sees row types, statistics and (via unwrap) our table object.
 */
final class SpikeCatalog {
    private SpikeCatalog() {
    }

    record Column(String name, SqlTypeName type, int precision, boolean nullable) {
    }

    /** A table: columns, primary-key columns, secondary indexes (name to column ordinals), rows. */
    static final class SpikeTable extends AbstractTable {
        private final List<Column> columns;
        private final List<Integer> primaryKey;
        private final Map<String, List<Integer>> indexes;
        private final List<Object[]> rows;
        private final double estimatedRows;

        SpikeTable(List<Column> columns, List<Integer> primaryKey, Map<String, List<Integer>> indexes,
                List<Object[]> rows, double estimatedRows) {
            this.columns = columns;
            this.primaryKey = primaryKey;
            this.indexes = indexes;
            this.rows = rows;
            this.estimatedRows = estimatedRows;
        }

        Map<String, List<Integer>> indexes() {
            return indexes;
        }

        List<Object[]> rows() {
            return rows;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory typeFactory) {
            RelDataTypeFactory.Builder b = typeFactory.builder();
            for (Column c : columns) {
                RelDataType t = c.precision() > 0 ? typeFactory.createSqlType(c.type(), c.precision())
                        : typeFactory.createSqlType(c.type());
                b.add(c.name(), typeFactory.createTypeWithNullability(t, c.nullable()));
            }
            return b.build();
        }

        @Override
        public Statistic getStatistic() {
            return Statistics.of(estimatedRows, List.of(ImmutableBitSet.of(primaryKey)));
        }
    }

    /** {@code T(ID INTEGER PRIMARY KEY, A VARCHAR(10), B INTEGER)} with index {@code T_B(B)}. */
    static CalciteSchema sample() {
        CalciteSchema root = CalciteSchema.createRootSchema(false, false);
        List<Object[]> rows = List.of(
                new Object[] {1, "x", 1}, new Object[] {2, "y", 2}, new Object[] {3, "x", 2},
                new Object[] {4, "x", 2}, new Object[] {5, "z", 3});
        root.add("T", new SpikeTable(
                List.of(new Column("ID", SqlTypeName.INTEGER, 0, false),
                        new Column("A", SqlTypeName.VARCHAR, 10, true),
                        new Column("B", SqlTypeName.INTEGER, 0, true)),
                List.of(0), Map.of("T_PK", List.of(0), "T_B", List.of(2)), rows, 10_000));
        return root;
    }
}
