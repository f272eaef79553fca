package io.tell.sql.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Properties;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Turns SQL into the Rex trees the executor compiles: parse, validate and convert with Calcite
 * (no rules, so no constant folding) over one table {@code T} whose columns are all nullable:
 * {@code I INTEGER, B BIGINT, SI SMALLINT, D DECIMAL(10,2), F DOUBLE, R REAL, S VARCHAR(10),
 * C CHAR(5), BO BOOLEAN, DT DATE, TS TIMESTAMP(3), TM TIME, D2 DECIMAL(5,3), J INTEGER, BP BOOLEAN}.
 * Evaluation checks that every non-null value has the Java class of its expression's type.
 */
final class RexFixture {
    static final List<String> COLUMNS = List.of("I", "B", "SI", "D", "F", "R", "S", "C", "BO", "DT", "TS", "TM", "D2", "J", "BP");
    /** The statement time of {@link #ctx}. */
    static final LocalDateTime NOW = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_789);

    final RelDataTypeFactory types = new JavaTypeFactoryImpl();
    final RexBuilder rexBuilder = new RexBuilder(types);
    private final CalciteCatalogReader catalogReader;
    private Object[] params = new Object[0];

    RexFixture() {
        CalciteSchema root = CalciteSchema.createRootSchema(false, false);
        root.add("T", new AbstractTable() {
            @Override
            public RelDataType getRowType(RelDataTypeFactory f) {
                RelDataTypeFactory.Builder row = f.builder();
                add(row, f, "I", f.createSqlType(SqlTypeName.INTEGER));
                add(row, f, "B", f.createSqlType(SqlTypeName.BIGINT));
                add(row, f, "SI", f.createSqlType(SqlTypeName.SMALLINT));
                add(row, f, "D", f.createSqlType(SqlTypeName.DECIMAL, 10, 2));
                add(row, f, "F", f.createSqlType(SqlTypeName.DOUBLE));
                add(row, f, "R", f.createSqlType(SqlTypeName.REAL));
                add(row, f, "S", f.createSqlType(SqlTypeName.VARCHAR, 10));
                add(row, f, "C", f.createSqlType(SqlTypeName.CHAR, 5));
                add(row, f, "BO", f.createSqlType(SqlTypeName.BOOLEAN));
                add(row, f, "DT", f.createSqlType(SqlTypeName.DATE));
                add(row, f, "TS", f.createSqlType(SqlTypeName.TIMESTAMP, 3));
                add(row, f, "TM", f.createSqlType(SqlTypeName.TIME));
                add(row, f, "D2", f.createSqlType(SqlTypeName.DECIMAL, 5, 3));
                add(row, f, "J", f.createSqlType(SqlTypeName.INTEGER));
                add(row, f, "BP", f.createSqlType(SqlTypeName.BOOLEAN));
                return row.build();
            }
        });
        Properties props = new Properties();
        props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
        catalogReader = new CalciteCatalogReader(root, List.of(), types, new CalciteConnectionConfigImpl(props));
    }

    private static void add(RelDataTypeFactory.Builder row, RelDataTypeFactory f, String name, RelDataType type) {
        row.add(name, f.createTypeWithNullability(type, true));
    }

    /** The converted plan of {@code sql}. */
    RelNode rel(String sql) {
        try {
            SqlNode parsed = SqlParser.create(sql, SqlParser.config()
                    .withQuoting(Quoting.DOUBLE_QUOTE)
                    .withUnquotedCasing(Casing.TO_UPPER)
                    .withQuotedCasing(Casing.UNCHANGED)
                    .withCaseSensitive(true)
                    .withConformance(SqlConformanceEnum.DEFAULT)).parseStmt();
            SqlValidator validator = SqlValidatorUtil.newValidator(SqlStdOperatorTable.instance(), catalogReader, types,
                    SqlValidator.Config.DEFAULT.withIdentifierExpansion(true));
            SqlNode validated = validator.validate(parsed);
            RelOptCluster cluster = RelOptCluster.create(new HepPlanner(HepProgram.builder().build()), rexBuilder);
            SqlToRelConverter converter = new SqlToRelConverter(null, validator, catalogReader, cluster,
                    StandardConvertletTable.INSTANCE, SqlToRelConverter.config().withExpand(false));
            return converter.convertQuery(validated, false, true).rel;
        } catch (SqlParseException e) {
            throw new IllegalArgumentException(sql, e);
        }
    }

    /** The one expression of {@code SELECT expr FROM T}. */
    RexNode rex(String expr) {
        RelNode rel = rel("SELECT " + expr + " FROM T");
        if (!(rel instanceof Project project)) {
            throw new IllegalStateException("not a project: " + rel.explain());
        }
        return project.getProjects().get(0);
    }

    /** The aggregate of {@code SELECT aggs FROM T [WHERE …]}. */
    Aggregate aggregate(String select) {
        RelNode rel = rel(select);
        while (!(rel instanceof Aggregate)) {
            rel = rel.getInput(0);
        }
        return (Aggregate) rel;
    }

    /** The input reference to column {@code name} of T, with its type. */
    RexNode ref(String name) {
        int i = COLUMNS.indexOf(name);
        return rexBuilder.makeInputRef(rel("SELECT * FROM T").getRowType().getFieldList().get(i).getType(), i);
    }

    RelDataType type(SqlTypeName name, int... precisionScale) {
        RelDataType t = switch (precisionScale.length) {
            case 0 -> types.createSqlType(name);
            case 1 -> types.createSqlType(name, precisionScale[0]);
            default -> types.createSqlType(name, precisionScale[0], precisionScale[1]);
        };
        return types.createTypeWithNullability(t, true);
    }

    RexFixture params(Object... values) {
        params = values;
        return this;
    }

    ExecContext ctx() {
        return new ExecContext(null, params, NOW, 0);
    }

    /** Evaluates {@code SELECT expr FROM T} on {@code row}. */
    Object eval(String expr, Object[] row) {
        return eval(rex(expr), row);
    }

    Object eval(RexNode node, Object[] row) {
        Object v = ExprCompiler.compile(node).eval(row, ctx());
        if (v != null) {
            assertEquals(Values.javaClass(node.getType().getSqlTypeName()), v.getClass(), node + " : " + node.getType());
        }
        return v;
    }

    /** The error code evaluating {@code expr} on {@code row} fails with. */
    ErrorCode failure(String expr, Object[] row) {
        return failure(rex(expr), row);
    }

    ErrorCode failure(RexNode node, Object[] row) {
        return assertThrows(TellException.class, () -> eval(node, row), node.toString()).code();
    }

    /** The error code compiling {@code node} fails with. */
    static ErrorCode compileFailure(RexNode node) {
        return assertThrows(TellException.class, () -> ExprCompiler.compile(node), node.toString()).code();
    }

    /** A row of T from column names and values; the other columns are null. */
    static Object[] row(Object... namesAndValues) {
        Object[] row = new Object[COLUMNS.size()];
        for (int i = 0; i < namesAndValues.length; i += 2) {
            int column = COLUMNS.indexOf((String) namesAndValues[i]);
            if (column < 0) {
                throw new IllegalArgumentException("no column " + namesAndValues[i]);
            }
            row[column] = namesAndValues[i + 1];
        }
        return row;
    }
}
