package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnInfo;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlFrontEnd;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.plan.FastPath;
import io.tell.sql.plan.ForeignKeyRules;
import io.tell.sql.plan.Implementor;
import io.tell.sql.plan.JoinRows;
import io.tell.sql.plan.Projections;
import io.tell.sql.plan.RowChecks;
import io.tell.sql.plan.TellRel;
import io.tell.sql.plan.TellRules;
import io.tell.sql.plan.Upsert;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;
import org.apache.calcite.tools.RelBuilder;

/**
 * Plans one query or DML statement (docs/sql-design.md): Calcite parse and validation over the
 * catalog snapshot, conversion to relational algebra, a rule-based phase ({@code [NOT] EXISTS}
 * to semi and anti joins: {@link SubqueryJoins}; other subqueries to correlated joins,
 * decorrelation, disjunctions factored ({@link Disjunctions}), filter push-down, inner joins of three or more
 * inputs ordered by the tables' sizes and the keys their equalities match: {@link JoinOrder}, columns no operator above uses
 * trimmed from every input so that scans decode and joins carry only what is needed), then cost-based choice among Tell's
 * physical operators (index scans, hash and index nested-loop joins; join row counts from
 * {@link JoinRows}), and finally the executable tree. Thread-safe; the Calcite objects are per call.
 */
final class StatementPlanner {
    private static final List<RelOptRule> REWRITES = List.of(
            CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW,
            CoreRules.FILTER_SUB_QUERY_TO_CORRELATE,
            CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE,
            CoreRules.JOIN_SUB_QUERY_TO_CORRELATE);
    private static final List<RelOptRule> PUSH_DOWNS = List.of(
            CoreRules.FILTER_INTO_JOIN,
            CoreRules.JOIN_CONDITION_PUSH,
            CoreRules.JOIN_PUSH_EXPRESSIONS,
            CoreRules.FILTER_PROJECT_TRANSPOSE,
            CoreRules.FILTER_MERGE,
            CoreRules.PROJECT_MERGE,
            CoreRules.PROJECT_REMOVE);

    private static final List<RelOptRule> GATHER_CONDITIONS = PUSH_DOWNS.stream()
            .filter(r -> r != CoreRules.JOIN_PUSH_EXPRESSIONS).toList();

    private StatementPlanner() {
    }

    static Plan plan(ProcessingNode node, SqlFrontEnd frontEnd, String text) {
        String sql = SqlText.trim(text);
        if (SqlText.firstWord(sql).equals("MERGE")) {
            return MergeStatement.plan(node, frontEnd, text, sql, false);
        }
        String explained = SqlText.explained(sql);
        if (explained != null && SqlText.firstWord(explained).equals("MERGE")) {
            return MergeStatement.plan(node, frontEnd, text, explained, true);
        }
        SqlText.Returning returning = SqlText.withoutReturning(sql);
        if (returning != null) {
            sql = returning.statement();
        }
        SqlText.OnConflict onConflict = SqlText.withoutOnConflict(sql);
        if (onConflict != null) {
            sql = onConflict.statement();
        }
        String query = SqlText.withoutForUpdate(sql);
        boolean forUpdate = query != null;
        SqlFrontEnd.Validated v = frontEnd.validate(forUpdate ? query : sql);
        SqlNode stmt = v.node();
        if (forUpdate && !stmt.getKind().belongsTo(SqlKind.QUERY)) {
            throw TellException.of(ErrorCode.SQL_INVALID, "FOR UPDATE applies to queries only");
        }
        boolean explain = stmt instanceof SqlExplain;
        SqlNode body = explain ? ((SqlExplain) stmt).getExplicandum() : stmt;
        GeneratedAlways.check(frontEnd, body);
        PreparedSql.Kind kind = explain || returning != null || body.getKind().belongsTo(SqlKind.QUERY)
                ? PreparedSql.Kind.QUERY : PreparedSql.Kind.DML;
        RelNode physical = Projections.pushDown(physical(frontEnd, v, body, rel -> rel));
        List<RelDataType> paramTypes = new ArrayList<>();
        List<ColumnInfo> params = new ArrayList<>();
        for (RelDataTypeField f : explain ? List.<RelDataTypeField>of() : v.parameterTypes().getFieldList()) {
            paramTypes.add(f.getType());
            params.add(ColumnInfos.of(f.getName(), f.getType(), null, null));
        }
        ExecNode exec;
        List<ColumnInfo> columns;
        java.util.Set<String> upsertTrees = java.util.Set.of();
        if (explain) {
            List<Object[]> lines = RelOptUtil.toString(physical).lines().map(l -> new Object[] {l}).toList();
            exec = ctx -> Cursor.of(lines);
            columns = ColumnInfos.of(v.rowType(), null);
        } else {
            Implementor impl = new Implementor(node, forUpdate);
            RowChecks checks = ReturningClause.checks(frontEnd, body);
            if (checks != null) {
                impl.checkRows(checks);
            }
            io.tell.sql.TableDef target = ReturningClause.target(frontEnd, body);
            if (target != null) {
                impl.keepForeignKeys(ForeignKeyRules.of(frontEnd.snapshot(), node, target));
            }
            if (onConflict != null) {
                Upsert upsert = ConflictClause.plan(frontEnd, body, onConflict.clause());
                impl.resolveConflicts(upsert);
                upsertTrees = upsert.trees();
            }
            if (returning != null) {
                ReturningClause clause = ReturningClause.plan(frontEnd, body, returning.list());
                impl.returnRows(clause::row);
                columns = clause.columns();
            } else {
                columns = kind == PreparedSql.Kind.QUERY
                        ? ColumnInfos.of(v.rowType(), v.validator().getFieldOrigins(body)) : List.of();
            }
            exec = impl.visit(physical);
        }
        long sizes = readsTables(physical) ? node.tableSizes().epoch() : Plan.ANY_SIZES;
        return new Plan(text, kind, columns, params, paramTypes, exec, frontEnd.catalogVersion(), sizes, forUpdate,
                returning != null, upsertTrees);
    }

    /**
     * Whether the plan reads a table (a scan, or a sub-query left in an expression): only then
     * can table sizes have chosen it. An INSERT of values reads none, so a load that moves the
     * sizes does not make it be planned again.
     */
    private static boolean readsTables(RelNode physical) {
        boolean[] reads = {false};
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (node instanceof TableScan || node instanceof Project p && RexUtil.SubQueryFinder.containsSubQuery(p)
                        || node instanceof Filter f && RexUtil.SubQueryFinder.containsSubQuery(f)
                        || node instanceof Join j && RexUtil.SubQueryFinder.containsSubQuery(j)) {
                    reads[0] = true;
                    return;
                }
                super.visit(node, ordinal, parent);
            }
        }.go(physical);
        return reads[0];
    }

    /** The physical plan of {@code body}, validated as {@code v}; {@code adjust} sees its relational form first. */
    static RelNode physical(SqlFrontEnd frontEnd, SqlFrontEnd.Validated v, SqlNode body,
                            java.util.function.UnaryOperator<RelNode> adjust) {
        VolcanoPlanner volcano = new VolcanoPlanner();
        volcano.addRelTraitDef(ConventionTraitDef.INSTANCE);
        RelOptCluster cluster = RelOptCluster.create(volcano, new RexBuilder(frontEnd.types()));
        cluster.setMetadataProvider(JoinRows.PROVIDER);
        RelRoot root = converter(frontEnd, v, cluster).convertQuery(body, false, true);
        RelNode rel = adjust.apply(root.project());
        UnsupportedFeatures.check(rel);
        RelNode fast = FastPath.plan(rel);
        if (fast != null) {
            return fast;
        }
        rel = hep(SubqueryJoins.rewrite(rel), REWRITES);
        rel = decorrelated(rel, RelFactories.LOGICAL_BUILDER.create(cluster, frontEnd.catalogReader()));
        // Join conditions gathered, but no expressions pushed below joins yet: projections there
        // would cut a tree of joins into pieces JoinOrder orders one by one.
        rel = hep(Disjunctions.factor(rel), GATHER_CONDITIONS);
        rel = hep(JoinOrder.order(rel), PUSH_DOWNS);
        RelNode narrowed = Disjunctions.implied(rel);
        if (narrowed != rel) {
            rel = hep(narrowed, PUSH_DOWNS);
        }
        rel = hep(new RelFieldTrimmer(null, RelFactories.LOGICAL_BUILDER.create(cluster, frontEnd.catalogReader())).trim(rel),
                PUSH_DOWNS);
        for (RelOptRule r : TellRules.all()) {
            volcano.addRule(r);
        }
        volcano.addRule(CoreRules.JOIN_TO_CORRELATE);
        volcano.addRule(CoreRules.FILTER_MERGE);
        volcano.setRoot(volcano.changeTraits(rel, rel.getTraitSet().replace(TellRel.TELL)));
        try {
            return volcano.findBestExp();
        } catch (RelOptPlanner.CannotPlanException e) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "Tell cannot execute this statement yet: "
                    + e.getMessage().lines().findFirst().orElse(""), e);
        }
    }

    /**
     * Calcite's SQL-to-relational converter over {@code v}'s validator, as Tell configures it.
     * A view read by the statement is expanded in place: its stored query validated and
     * converted in the same cluster.
     */
    static SqlToRelConverter converter(SqlFrontEnd frontEnd, SqlFrontEnd.Validated v, RelOptCluster cluster) {
        return new SqlToRelConverter((rowType, queryString, schemaPath, viewPath) -> {
            SqlFrontEnd.Validated view = frontEnd.validate(queryString);
            return converter(frontEnd, view, cluster).convertQuery(view.node(), true, false);
        }, v.validator(), frontEnd.catalogReader(), cluster, StandardConvertletTable.INSTANCE,
                SqlToRelConverter.config().withTrimUnusedFields(false).withExpand(false));
    }

    /**
     * {@code rel} with its correlated subqueries turned into joins by Calcite's decorrelator, or
     * as it is where the decorrelator fails (it throws on some shapes, e.g. a correlated scalar
     * COUNT over a common table expression): the correlated form runs as nested loops.
     */
    private static RelNode decorrelated(RelNode rel, RelBuilder builder) {
        try {
            return RelDecorrelator.decorrelateQuery(rel, builder);
        } catch (RuntimeException e) {
            return rel;
        }
    }

    private static RelNode hep(RelNode rel, List<RelOptRule> rules) {
        HepProgramBuilder program = new HepProgramBuilder();
        program.addRuleCollection(rules);
        HepPlanner hep = new HepPlanner(program.build());
        hep.setRoot(rel);
        return hep.findBestExp();
    }
}
