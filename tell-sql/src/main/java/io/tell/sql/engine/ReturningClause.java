package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnInfo;
import io.tell.sql.Names;
import io.tell.sql.SqlFrontEnd;
import io.tell.sql.TableDef;
import io.tell.sql.exec.Expr;
import io.tell.sql.exec.ExprCompiler;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;

/**
 * The RETURNING clause of an INSERT, UPDATE or DELETE (PostgreSQL's): expressions over the
 * columns of the target table, evaluated on each row the statement inserted, updated (the new
 * row) or deleted. Planned as {@code SELECT <list> FROM <table> [AS alias]}, so its names,
 * types and errors are those of a query; aggregates, subqueries and parameters are refused.
 *
 * @param exprs   over a whole row of the target table
 * @param columns the result's columns
 */
record ReturningClause(List<Expr> exprs, List<ColumnInfo> columns) {

    static ReturningClause plan(SqlFrontEnd frontEnd, SqlNode dml, String list) {
        String from = from(dml);
        SqlFrontEnd.Validated v = frontEnd.validate(caseMatched(frontEnd, dml, "SELECT " + list + " FROM " + from));
        if (v.parameterTypes().getFieldCount() > 0) {
            throw unsupported("parameters (?) in RETURNING");
        }
        RelOptCluster cluster = RelOptCluster.create(new HepPlanner(HepProgram.builder().build()),
                new RexBuilder(frontEnd.types()));
        RelNode rel = StatementPlanner.converter(frontEnd, v, cluster).convertQuery(v.node(), false, true).project();
        List<RexNode> projects;
        if (rel instanceof Project p && p.getInput() instanceof TableScan) {
            projects = p.getProjects();
        } else if (rel instanceof TableScan scan) {
            projects = new ArrayList<>();
            for (int i = 0; i < scan.getRowType().getFieldCount(); i++) {
                projects.add(cluster.getRexBuilder().makeInputRef(scan, i));
            }
        } else {
            throw unsupported("RETURNING " + list + " (only expressions over the changed row's columns)");
        }
        List<Expr> exprs = projects.stream().map(ExprCompiler::compile).toList();
        return new ReturningClause(exprs, ColumnInfos.of(v.rowType(), v.validator().getFieldOrigins(v.node())));
    }

    /**
     * The RETURNING list that answers a request for generated keys ({@link
     * io.tell.sql.SqlSession#prepareReturning}) on {@code dml}'s target table, quoted.
     */
    static String keyList(SqlFrontEnd frontEnd, SqlNode dml, List<String> requested) {
        TableDef def = frontEnd.table(targetId(dml));
        if (def == null) {
            throw TellException.of(ErrorCode.SQL_INVALID, "table " + targetId(dml) + " does not exist");
        }
        List<String> names = new ArrayList<>();
        if (requested.isEmpty()) {
            def.columns().stream().filter(c -> c.sequence() != null).forEach(c -> names.add(c.name()));
            if (names.isEmpty()) {
                return "*";
            }
        }
        for (String r : requested) {
            names.add(matching(def, r));
        }
        return String.join(", ", names.stream().map(Names::quoted).toList());
    }

    /** The table's column named {@code name}: exactly, else the only one equal ignoring case. */
    private static String matching(TableDef def, String name) {
        List<String> like = spellings(def, name);
        if (like.size() != 1) {
            throw TellException.of(ErrorCode.SQL_INVALID, "table " + def.name() + (like.isEmpty()
                    ? " has no column " + name : " has several columns named " + name + " but for case"));
        }
        return like.get(0);
    }

    /** {@code name} when it is a column of {@code def}; else every column spelled so ignoring case. */
    private static List<String> spellings(TableDef def, String name) {
        if (def.columnIndex(name) >= 0) {
            return List.of(name);
        }
        return def.columns().stream().map(ColumnDef::name).filter(n -> n.equalsIgnoreCase(name)).toList();
    }

    /**
     * The CHECK constraints of an INSERT's or UPDATE's target table compiled over its rows; null for other
     * statements and tables without checks.
     */
    static io.tell.sql.plan.RowChecks checks(SqlFrontEnd frontEnd, SqlNode dml) {
        if (!(dml instanceof SqlInsert) && !(dml instanceof SqlUpdate)) {
            return null;
        }
        TableDef def = frontEnd.table(targetId(dml));
        return def == null ? null : checks(frontEnd, def);
    }

    /** The CHECK constraints of {@code def} compiled over its rows (as a RETURNING list of the conditions); null for none. */
    static io.tell.sql.plan.RowChecks checks(SqlFrontEnd frontEnd, TableDef def) {
        if (def.checks().isEmpty()) {
            return null;
        }
        String list = String.join(", ", def.checks().stream().map(c -> "(" + c.condition() + ")").toList());
        List<String> names = def.checks().stream().map(io.tell.sql.CheckDef::name).toList();
        SqlNode table = SqlFrontEnd.parse("DELETE FROM " + Names.quotedQualified(def.name()));
        return new io.tell.sql.plan.RowChecks(def.name(), names, plan(frontEnd, table, list).exprs());
    }

    /** The target table of an INSERT, UPDATE or DELETE; null for other statements. */
    static TableDef target(SqlFrontEnd frontEnd, SqlNode statement) {
        if (!(statement instanceof SqlInsert) && !(statement instanceof SqlUpdate) && !(statement instanceof SqlDelete)) {
            return null;
        }
        return frontEnd.table(targetId(statement));
    }

    /**
     * {@code select} with each column name of its list that names no column of the target table
     * as written, but exactly one ignoring case, spelled as the table spells it: PostgreSQL's
     * clients quote names in lower case ({@code RETURNING "id"}, as its JDBC driver asks for
     * generated keys) where Tell keeps unquoted names in upper case.
     */
    private static String caseMatched(SqlFrontEnd frontEnd, SqlNode dml, String select) {
        TableDef def = frontEnd.table(targetId(dml));
        if (def == null) {
            return select;
        }
        SqlNode parsed = SqlFrontEnd.parse(select);
        boolean[] changed = {false};
        SqlNodeList items = ((org.apache.calcite.sql.SqlSelect) parsed).getSelectList();
        for (int i = 0; i < items.size(); i++) {
            items.set(i, items.get(i).accept(new org.apache.calcite.sql.util.SqlShuttle() {
                @Override
                public SqlNode visit(SqlIdentifier id) {
                    String name = id.names.get(id.names.size() - 1);
                    List<String> like = id.isStar() ? List.of() : spellings(def, name);
                    if (like.size() != 1 || like.get(0).equals(name)) {
                        return id;
                    }
                    changed[0] = true;
                    List<String> names = new ArrayList<>(id.names);
                    names.set(names.size() - 1, like.get(0));
                    return new SqlIdentifier(names, id.getParserPosition());
                }
            }));
        }
        return changed[0] ? parsed.toSqlString(org.apache.calcite.sql.dialect.CalciteSqlDialect.DEFAULT).getSql() : select;
    }

    /** Evaluates the clause on one changed row. */
    Object[] row(Object[] changed, io.tell.sql.exec.ExecContext ctx) {
        Object[] out = new Object[exprs.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = exprs.get(i).eval(changed, ctx);
        }
        return out;
    }

    private static SqlIdentifier targetId(SqlNode dml) {
        SqlNode table = switch (dml) {
            case SqlInsert i -> i.getTargetTable();
            case SqlUpdate u -> u.getTargetTable();
            case SqlDelete d -> d.getTargetTable();
            default -> null;
        };
        if (!(table instanceof SqlIdentifier id)) {
            throw unsupported("RETURNING for this statement");
        }
        return id;
    }

    /** The FROM clause naming the statement's target table (and its alias) as the catalog spells them. */
    private static String from(SqlNode dml) {
        SqlIdentifier alias = switch (dml) {
            case SqlUpdate u -> u.getAlias();
            case SqlDelete d -> d.getAlias();
            default -> null;
        };
        String name = String.join(".", targetId(dml).names.stream().map(Names::quoted).toList());
        return alias == null ? name : name + " AS " + Names.quoted(alias.getSimple());
    }

    private static TellException unsupported(String what) {
        return TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, what + " is not supported");
    }
}
