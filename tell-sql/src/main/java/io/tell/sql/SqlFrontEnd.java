package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.exec.PostgresFunctions;
import io.tell.sql.exec.SequenceFunctions;
import io.tell.sql.exec.UuidFunctions;
import io.tell.sql.internal.CatalogSchema;
import java.util.List;
import java.util.Properties;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlConformance;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlDelegatingConformance;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlNameMatchers;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

/**
 * The first step of planning (docs/sql-design.md): parse SQL and validate it against a catalog
 * snapshot with Calcite. Unquoted identifiers fold to upper case; double quotes keep case.
 * Errors come out as {@link ErrorCode#SQL_SYNTAX} or {@link ErrorCode#SQL_INVALID} with the
 * line and column in the message. One front end per catalog snapshot; thread-safe.
 */
public final class SqlFrontEnd {
    /**
     * Calcite's default conformance, except: {@code !=} is accepted, and CASE/UNION over
     * strings of different lengths yield VARCHAR (no padding), as PostgreSQL and H2 do.
     */
    static final SqlConformance CONFORMANCE = new SqlDelegatingConformance(SqlConformanceEnum.DEFAULT) {
        @Override
        public boolean isBangEqualAllowed() {
            return true;
        }

        @Override
        public boolean shouldConvertRaggedUnionTypesToVarying() {
            return true;
        }

        @Override
        public boolean isPercentRemainderAllowed() {
            return true;
        }
    };

    /**
     * Calcite's standard operators and functions, plus PostgreSQL's {@code nextval}, {@code currval},
     * {@code gen_random_uuid} and those of {@link PostgresFunctions}.
     */
    static final SqlOperatorTable OPERATORS = SqlOperatorTables.chain(SqlStdOperatorTable.instance(),
            SqlOperatorTables.of(SequenceFunctions.NEXTVAL, SequenceFunctions.CURRVAL, UuidFunctions.GEN_RANDOM_UUID),
            SqlOperatorTables.of(PostgresFunctions.OPERATORS));

    /**
     * Calcite's default type system, except that CASE/UNION over strings of different lengths
     * yield VARCHAR, and SUM of SMALLINT/INTEGER is BIGINT (as in PostgreSQL), so sums of
     * small columns do not overflow their column's type.
     */
    static final RelDataTypeSystem TYPE_SYSTEM = new RelDataTypeSystemImpl() {
        @Override
        public boolean shouldConvertRaggedUnionTypesToVarying() {
            return true;
        }

        @Override
        public RelDataType deriveSumType(RelDataTypeFactory factory, RelDataType argumentType) {
            return switch (argumentType.getSqlTypeName()) {
                case TINYINT, SMALLINT, INTEGER -> factory.createTypeWithNullability(
                        factory.createSqlType(SqlTypeName.BIGINT), argumentType.isNullable());
                default -> super.deriveSumType(factory, argumentType);
            };
        }
    };

    static final SqlParser.Config PARSER = SqlParser.config()
            .withQuoting(Quoting.DOUBLE_QUOTE)
            .withUnquotedCasing(Casing.TO_UPPER)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(true)
            .withConformance(CONFORMANCE);

    /**
     * A validated statement: its tree, result row type, the types of its {@code ?} parameters,
     * and the validator that holds the tree's scopes (conversion to relational algebra needs it).
     */
    public record Validated(SqlNode node, RelDataType rowType, RelDataType parameterTypes, SqlValidator validator) {
    }

    private final CatalogSnapshot snapshot;
    private final RelDataTypeFactory types = new JavaTypeFactoryImpl(TYPE_SYSTEM);
    private final CalciteCatalogReader catalogReader;

    /** A front end that finds names written without a schema along {@code path}; every table taken to hold {@link TableSizes#ASSUMED_ROWS}. */
    public SqlFrontEnd(CatalogSnapshot snapshot, SchemaPath path) {
        this(snapshot, path, TableSizes.ASSUMED);
    }

    /** A front end that finds names written without a schema along {@code path}, its planner seeing the tables' {@code sizes}. */
    public SqlFrontEnd(CatalogSnapshot snapshot, SchemaPath path, TableSizes sizes) {
        this.snapshot = snapshot;
        Properties props = new Properties();
        props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
        List<List<String>> lookIn = new java.util.ArrayList<>();
        path.schemas().stream().filter(snapshot::hasSchema).forEach(s -> lookIn.add(List.of(s)));
        lookIn.add(List.of()); // the root: schema-qualified names, INFORMATION_SCHEMA, type names
        this.catalogReader = new CalciteCatalogReader(CatalogSchema.of(snapshot, sizes), SqlNameMatchers.withCaseSensitive(true),
                lookIn, types, new CalciteConnectionConfigImpl(props)) {
        };
    }

    public CatalogSnapshot snapshot() {
        return snapshot;
    }

    /** The table {@code id} names (a target of INSERT, UPDATE, DELETE or MERGE) along the path; null when none. */
    public TableDef table(org.apache.calcite.sql.SqlIdentifier id) {
        org.apache.calcite.prepare.Prepare.PreparingTable t = catalogReader.getTable(id.names);
        CatalogSchema.Table table = t == null ? null : t.unwrap(CatalogSchema.Table.class);
        return table == null ? null : table.def();
    }

    public RelDataTypeFactory types() {
        return types;
    }

    public CalciteCatalogReader catalogReader() {
        return catalogReader;
    }

    public long catalogVersion() {
        return snapshot.version();
    }

    /** Parses one statement; {@link ErrorCode#SQL_SYNTAX} with its position when it does not parse. */
    public static SqlNode parse(String sql) {
        try {
            return SqlParser.create(sql, PARSER).parseStmt();
        } catch (SqlParseException e) {
            String first = e.getMessage() == null ? "syntax error" : e.getMessage().lines().findFirst().orElse("syntax error");
            throw TellException.of(ErrorCode.SQL_SYNTAX, first + position(e.getPos().getLineNum(), e.getPos().getColumnNum()), e);
        }
    }

    /** Parses and validates one statement. */
    public Validated validate(String sql) {
        SqlNode parsed = parse(sql);
        SqlValidator validator = SqlValidatorUtil.newValidator(OPERATORS, catalogReader, types,
                SqlValidator.Config.DEFAULT.withConformance(CONFORMANCE).withIdentifierExpansion(true));
        try {
            if (parsed instanceof SqlExplain explain) {
                // EXPLAIN PLAN FOR q: q is validated; the result is one text column with the plan.
                SqlNode query = validator.validate(explain.getExplicandum());
                explain.setOperand(0, query);
                RelDataType plan = types.builder().add("PLAN", types.createSqlType(SqlTypeName.VARCHAR)).build();
                return new Validated(explain, plan, validator.getParameterRowType(query), validator);
            }
            SqlNode node = validator.validate(parsed);
            return new Validated(node, validator.getValidatedNodeType(node), validator.getParameterRowType(node), validator);
        } catch (CalciteContextException e) {
            String message = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage() : e.getMessage();
            if (message.endsWith(NOT_NULL_WITHOUT_DEFAULT)) {
                // An INSERT leaving out a NOT NULL column without DEFAULT: a not-null violation, as in other databases.
                throw TellException.of(ErrorCode.NOT_NULL_VIOLATION, message, e);
            }
            if (message.equals("Illegal use of dynamic parameter")) {
                message += ": nothing around this ? gives it a type (as in a VALUES list or a SELECT list);"
                        + " give it one with CAST(? AS type)";
            }
            throw TellException.of(ErrorCode.SQL_INVALID, message + position(e.getPosLine(), e.getPosColumn()), e);
        }
    }

    /** The end of Calcite's message for an INSERT that leaves out a NOT NULL column without DEFAULT. */
    private static final String NOT_NULL_WITHOUT_DEFAULT = "has no default value and does not allow NULLs";

    private static String position(int line, int column) {
        return " (at line " + line + ", column " + column + ")";
    }
}
