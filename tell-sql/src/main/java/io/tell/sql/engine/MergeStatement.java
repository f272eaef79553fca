package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnInfo;
import io.tell.sql.Names;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlFrontEnd;
import io.tell.sql.TableDef;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Expr;
import io.tell.sql.exec.ExprCompiler;
import io.tell.sql.plan.ForeignKeyRules;
import io.tell.sql.plan.Implementor;
import io.tell.sql.plan.Merges;
import io.tell.sql.plan.Projections;
import io.tell.sql.plan.RowChecks;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql2rel.InitializerContext;
import org.apache.calcite.sql2rel.InitializerExpressionFactory;

/**
 * MERGE (PostgreSQL's, {@link MergeText}) planned as one query: the source left-joined to the target
 * (an inner join when every clause is WHEN MATCHED), selecting the target row and then, clause by
 * clause, its AND condition and the values it writes. {@link Merges} turns the rows into writes. The
 * query's {@code ?} parameters stand in another order than in the statement (the select list comes
 * before the source), so they are renumbered in the plan to the statement's order.
 */
final class MergeStatement {
    private MergeStatement() {
    }

    /** The plan of MERGE {@code sql}; with {@code explain}, of EXPLAIN PLAN FOR it: the query's plan under a TellMerge line. */
    static Plan plan(ProcessingNode node, SqlFrontEnd frontEnd, String text, String sql, boolean explain) {
        if (SqlText.topLevel(sql, 0, "RETURNING") >= 0) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "MERGE ... RETURNING is not supported");
        }
        MergeText m = MergeText.parse(sql);
        String target = m.target() + (m.alias() == null ? "" : " AS " + m.alias());
        SqlIdentifier targetId = (SqlIdentifier) ((SqlDelete) SqlFrontEnd.parse("DELETE FROM " + target)).getTargetTable();
        TableDef def = frontEnd.table(targetId);
        if (def == null) {
            throw TellException.of(ErrorCode.SQL_INVALID, "MERGE target " + m.target()
                    + " is not a table (it does not exist, or is a view or a sequence)");
        }
        String ref = m.alias() != null ? m.alias() : m.target();
        List<String> items = new ArrayList<>();
        for (ColumnDef c : def.columns()) {
            items.add(ref + "." + Names.quoted(c.name()));
        }
        List<Merges.Clause> clauses = new ArrayList<>();
        for (MergeText.Clause c : m.clauses()) {
            clauses.add(clause(frontEnd, def, targetId, target, c, items));
        }
        boolean inserts = m.clauses().stream().anyMatch(c -> !c.matched());
        String select = "SELECT " + String.join(", ", items) + " FROM " + m.source() + (inserts ? " LEFT" : "")
                + " JOIN " + target + " ON " + m.on();
        SqlFrontEnd.Validated v = frontEnd.validate(select);
        int[] order = statementOrder(SqlText.placeholders(String.join(", ", items)),
                SqlText.placeholders(m.source() + " " + m.on()));
        RelNode physical = Projections.pushDown(StatementPlanner.physical(frontEnd, v, v.node(), rel -> renumbered(rel, order)));
        if (explain) {
            List<Object[]> lines = new ArrayList<>();
            lines.add(new Object[] {"TellMerge(table=[" + def.name() + "], clauses=" + m.clauses().stream()
                    .map(c -> (c.matched() ? "MATCHED" : "NOT MATCHED") + (c.condition() == null ? "" : " AND ...") + " "
                            + c.action()).toList() + ")"});
            org.apache.calcite.plan.RelOptUtil.toString(physical).lines().forEach(l -> lines.add(new Object[] {"  " + l}));
            RelDataType line = frontEnd.types().builder().add("PLAN", org.apache.calcite.sql.type.SqlTypeName.VARCHAR).build();
            return new Plan(text, PreparedSql.Kind.QUERY, ColumnInfos.of(line, null), List.of(), List.of(),
                    ctx -> io.tell.sql.exec.Cursor.of(lines), frontEnd.catalogVersion(), node.tableSizes().epoch(), false, false,
                    java.util.Set.of());
        }
        Implementor impl = new Implementor(node, false);
        RowChecks checks = ReturningClause.checks(frontEnd, def);
        if (checks != null) {
            impl.checkRows(checks);
        }
        impl.keepForeignKeys(ForeignKeyRules.of(frontEnd.snapshot(), node, def));
        ExecNode exec = Merges.exec(impl, node.table(def), impl.visit(physical), clauses,
                matchedColumn(def, clauses));
        List<RelDataType> paramTypes = new ArrayList<>(java.util.Collections.nCopies(order.length, (RelDataType) null));
        List<ColumnInfo> params = new ArrayList<>(java.util.Collections.nCopies(order.length, (ColumnInfo) null));
        List<RelDataTypeField> fields = v.parameterTypes().getFieldList();
        for (int i = 0; i < fields.size(); i++) {
            paramTypes.set(order[i], fields.get(i).getType());
            params.set(order[i], ColumnInfos.of(fields.get(i).getName(), fields.get(i).getType(), null, null));
        }
        return new Plan(text, PreparedSql.Kind.DML, List.of(), params, paramTypes, exec, frontEnd.catalogVersion(),
                node.tableSizes().epoch(), false, false, java.util.Set.of());
    }

    /** One WHEN clause: its condition and values added to the select list {@code items}. */
    private static Merges.Clause clause(SqlFrontEnd frontEnd, TableDef def, SqlIdentifier targetId, String target,
                                        MergeText.Clause c, List<String> items) {
        int condition = -1;
        if (c.condition() != null) {
            condition = items.size();
            items.add("(" + c.condition() + ")");
        }
        Merges.Action action = Merges.Action.valueOf(c.action().name());
        List<Integer> columns = new ArrayList<>();
        List<SqlNode> values = new ArrayList<>();
        if (c.action() == MergeText.Action.UPDATE) {
            SqlUpdate update = (SqlUpdate) SqlFrontEnd.parse("UPDATE " + target + " " + c.body());
            if (update.getCondition() != null) {
                throw TellException.of(ErrorCode.SQL_SYNTAX, "MERGE: WHEN MATCHED THEN UPDATE takes no WHERE;"
                        + " write the condition as WHEN MATCHED AND condition");
            }
            GeneratedAlways.check(frontEnd, update);
            for (SqlNode column : update.getTargetColumnList()) {
                columns.add(column(def, ((SqlIdentifier) column).getSimple()));
            }
            values.addAll(update.getSourceExpressionList());
        } else if (c.action() == MergeText.Action.INSERT) {
            insertValues(frontEnd, def, targetId, c.body(), columns, values);
        }
        int[] sources = new int[columns.size()];
        Expr[] defaults = new Expr[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            if (values.get(i) == null || values.get(i).getKind() == SqlKind.DEFAULT) {
                sources[i] = -1;
                defaults[i] = defaultOf(frontEnd, targetId, columns.get(i));
            } else {
                sources[i] = items.size();
                items.add(values.get(i).toSqlString(CalciteSqlDialect.DEFAULT).getSql());
            }
        }
        return new Merges.Clause(c.matched(), condition, action, columns.stream().mapToInt(Integer::intValue).toArray(),
                sources, defaults);
    }

    /**
     * {@code INSERT [(columns)] VALUES (…)} or {@code INSERT DEFAULT VALUES}: every column of the table, with the
     * expression given for it, or null where it takes its DEFAULT.
     */
    private static void insertValues(SqlFrontEnd frontEnd, TableDef def, SqlIdentifier target, String body,
                                     List<Integer> columns, List<SqlNode> values) {
        SqlNode[] given = new SqlNode[def.columns().size()];
        if (!body.replaceAll("\\s+", " ").equalsIgnoreCase("DEFAULT VALUES")) {
            SqlInsert insert = (SqlInsert) SqlFrontEnd.parse("INSERT INTO " + target.toSqlString(CalciteSqlDialect.DEFAULT)
                    .getSql() + " " + body);
            if (!(insert.getSource() instanceof SqlBasicCall rows) || rows.getKind() != SqlKind.VALUES
                    || rows.operandCount() != 1) {
                throw TellException.of(ErrorCode.SQL_SYNTAX, "MERGE: WHEN NOT MATCHED THEN INSERT takes one row of VALUES");
            }
            GeneratedAlways.check(frontEnd, insert);
            List<SqlNode> row = ((SqlBasicCall) rows.operand(0)).getOperandList();
            SqlNodeList named = insert.getTargetColumnList();
            if (row.size() != (named == null ? given.length : named.size())) {
                throw TellException.of(ErrorCode.SQL_INVALID, "MERGE: INSERT has " + row.size() + " values for "
                        + (named == null ? given.length : named.size()) + " columns");
            }
            for (int i = 0; i < row.size(); i++) {
                int column = named == null ? i : column(def, ((SqlIdentifier) named.get(i)).getSimple());
                if (given[column] != null) {
                    throw TellException.of(ErrorCode.SQL_INVALID, "MERGE: INSERT names column "
                            + def.columns().get(column).name() + " twice");
                }
                given[column] = row.get(i);
            }
        }
        for (int i = 0; i < given.length; i++) {
            columns.add(i);
            values.add(given[i]);
        }
    }

    private static int column(TableDef def, String name) {
        int at = def.columnIndex(name);
        if (at < 0) {
            throw TellException.of(ErrorCode.SQL_INVALID, "column " + name + " of table " + def.name() + " does not exist");
        }
        return at;
    }

    /** Column {@code column}'s DEFAULT (NULL when it has none) as the table gives it to INSERT, compiled. */
    private static Expr defaultOf(SqlFrontEnd frontEnd, SqlIdentifier targetId, int column) {
        Prepare.PreparingTable table = frontEnd.catalogReader().getTable(targetId.names);
        RexBuilder rex = new RexBuilder(frontEnd.types());
        RexNode value = table.unwrap(InitializerExpressionFactory.class).newColumnDefaultValue(table, column,
                new InitializerContext() {
                    @Override
                    public RexBuilder getRexBuilder() {
                        return rex;
                    }

                    @Override
                    public SqlNode validateExpression(RelDataType rowType, SqlNode expr) {
                        throw new UnsupportedOperationException("a DEFAULT is a constant or a function");
                    }

                    @Override
                    public RexNode convertExpression(SqlNode e) {
                        throw new UnsupportedOperationException("a DEFAULT is a constant or a function");
                    }
                });
        return ExprCompiler.compile(value);
    }

    /**
     * A column of the target row that a stored row never holds NULL in, so that NULL there means no target row
     * matched: the primary key's first, else the first NOT NULL column. A matched row is found again by its primary
     * key to be updated or deleted.
     */
    private static int matchedColumn(TableDef def, List<Merges.Clause> clauses) {
        if (!def.primaryKey().isEmpty()) {
            return def.columnIndex(def.primaryKey().get(0));
        }
        if (clauses.stream().anyMatch(c -> c.matched() && c.action() != Merges.Action.NOTHING)) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "MERGE ... WHEN MATCHED THEN UPDATE or DELETE needs a"
                    + " table with a primary key, and " + def.name() + " has none");
        }
        for (int i = 0; i < def.columns().size(); i++) {
            if (!def.columns().get(i).nullable()) {
                return i;
            }
        }
        throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "MERGE into " + def.name() + " needs a primary key or"
                + " a NOT NULL column, to tell matched rows apart");
    }

    /**
     * Where each parameter of the query stands in the statement: the query has the select list's {@code listed}
     * parameters first, then the source's and the join condition's {@code joined}; the statement the other way round.
     */
    private static int[] statementOrder(int listed, int joined) {
        int[] order = new int[listed + joined];
        for (int i = 0; i < order.length; i++) {
            order[i] = i < listed ? joined + i : i - listed;
        }
        return order;
    }

    /** {@code rel} with every parameter {@code ?i} made {@code ?order[i]}, in subqueries too. */
    private static RelNode renumbered(RelNode rel, int[] order) {
        if (java.util.stream.IntStream.range(0, order.length).allMatch(i -> order[i] == i)) {
            return rel;
        }
        RelHomogeneousShuttle rels = new RelHomogeneousShuttle() {
            private final RelHomogeneousShuttle self = this;
            private final RexShuttle params = new RexShuttle() {
                @Override
                public RexNode visitDynamicParam(RexDynamicParam p) {
                    return new RexDynamicParam(p.getType(), order[p.getIndex()]);
                }

                @Override
                public RexNode visitSubQuery(RexSubQuery subQuery) {
                    RexSubQuery operands = (RexSubQuery) super.visitSubQuery(subQuery);
                    return operands.clone(subQuery.rel.accept(self));
                }
            };

            @Override
            public RelNode visit(RelNode other) {
                return super.visit(other).accept(params);
            }
        };
        return rel.accept(rels);
    }
}
