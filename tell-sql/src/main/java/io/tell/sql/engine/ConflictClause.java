package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.IndexDef;
import io.tell.sql.Names;
import io.tell.sql.SqlFrontEnd;
import io.tell.sql.TableDef;
import io.tell.sql.exec.Expr;
import io.tell.sql.exec.ExprCompiler;
import io.tell.sql.plan.Upsert;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * PostgreSQL's {@code INSERT … ON CONFLICT [(columns) | ON CONSTRAINT name] DO NOTHING | DO
 * UPDATE SET c = expr, … [WHERE condition]}: which unique keys a proposed row is checked
 * against, and what DO UPDATE makes of the row already there. The SET expressions and the
 * condition see the existing row's columns (unqualified or by the table's name) and the
 * proposed row as {@code EXCLUDED}; they are planned as {@code SELECT … FROM t, t AS EXCLUDED}.
 */
final class ConflictClause {
    private ConflictClause() {
    }

    static Upsert plan(SqlFrontEnd frontEnd, SqlNode insert, String clause) {
        if (!(insert instanceof SqlInsert ins) || !(ins.getTargetTable() instanceof SqlIdentifier target)) {
            throw TellException.of(ErrorCode.SQL_INVALID, "ON CONFLICT belongs to INSERT");
        }
        TableDef def = frontEnd.table(target);
        if (def == null) {
            throw TellException.of(ErrorCode.SQL_INVALID, "table " + target + " does not exist");
        }
        Words in = new Words(clause);
        List<Upsert.Key> keys = keys(def, in);
        in.expect("DO");
        if (in.accept("NOTHING")) {
            in.expectEnd();
            return new Upsert(keys, List.of(), List.of(), null);
        }
        in.expect("UPDATE");
        if (keys.size() != 1 || in.rest().isEmpty()) {
            throw TellException.of(ErrorCode.SQL_INVALID, "ON CONFLICT DO UPDATE needs a conflict target: the columns"
                    + " of the primary key or of a unique constraint, or ON CONSTRAINT name");
        }
        // SET … [WHERE …] parsed as the UPDATE it resembles, then planned over (existing row, EXCLUDED row).
        SqlUpdate update = (SqlUpdate) SqlFrontEnd.parse("UPDATE " + Names.quotedQualified(def.name()) + " " + in.rest());
        List<Integer> columns = new ArrayList<>();
        List<String> items = new ArrayList<>();
        SqlNodeList targets = update.getTargetColumnList();
        SqlNodeList sources = update.getSourceExpressionList();
        for (int i = 0; i < targets.size(); i++) {
            String column = ((SqlIdentifier) targets.get(i)).getSimple();
            int at = def.columnIndex(column);
            if (at < 0) {
                throw TellException.of(ErrorCode.SQL_INVALID, "column " + column + " of table " + def.name()
                        + " does not exist");
            }
            columns.add(at);
            items.add(qualified(def, sources.get(i)));
        }
        boolean conditional = update.getCondition() != null;
        if (conditional) {
            items.add(qualified(def, update.getCondition()));
        }
        String from = " FROM " + Names.quotedQualified(def.name()) + ", " + Names.quotedQualified(def.name()) + " AS \"EXCLUDED\"";
        SqlFrontEnd.Validated v = frontEnd.validate("SELECT " + String.join(", ", items) + from);
        if (v.parameterTypes().getFieldCount() > 0) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "parameters (?) in ON CONFLICT DO UPDATE are not supported");
        }
        RelOptCluster cluster = RelOptCluster.create(new HepPlanner(HepProgram.builder().build()),
                new RexBuilder(frontEnd.types()));
        RelNode rel = StatementPlanner.converter(frontEnd, v, cluster).convertQuery(v.node(), false, true).project();
        if (!(rel instanceof Project p && p.getInput() instanceof Join)) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "ON CONFLICT DO UPDATE with subqueries or"
                    + " aggregates is not supported");
        }
        List<Expr> exprs = new ArrayList<>();
        for (RexNode e : p.getProjects()) {
            exprs.add(ExprCompiler.compile(e));
        }
        Expr condition = conditional ? exprs.remove(exprs.size() - 1) : null;
        return new Upsert(keys, columns, exprs, condition);
    }

    /** The unique keys named by the conflict target; all of them without one. */
    private static List<Upsert.Key> keys(TableDef def, Words in) {
        List<Upsert.Key> all = new ArrayList<>();
        if (!def.primaryKey().isEmpty()) {
            all.add(new Upsert.Key(null, def.columnIndexes(def.primaryKey()), def.pkTree()));
        }
        for (IndexDef ix : def.indexes()) {
            if (ix.unique() && !ix.writeOnly()) {
                all.add(new Upsert.Key(ix.name(), def.columnIndexes(ix.columns()), ix.treeName()));
            }
        }
        if (in.accept("ON")) {
            in.expect("CONSTRAINT");
            String name = Names.sibling(def.name(), in.identifier()); // a table's constraints are in its schema
            if (name.equals(def.primaryKeyName()) && !def.primaryKey().isEmpty()) {
                return List.of(all.get(0));
            }
            return all.stream().filter(k -> name.equals(k.index())).findFirst().map(List::of).orElseThrow(() ->
                    TellException.of(ErrorCode.UNDEFINED_OBJECT, "constraint " + Names.local(name) + " of table " + def.name()
                            + " does not exist"));
        }
        if (!in.acceptSymbol('(')) {
            return all;
        }
        Set<Integer> wanted = new HashSet<>();
        do {
            String column = in.identifier();
            int at = def.columnIndex(column);
            if (at < 0) {
                throw TellException.of(ErrorCode.SQL_INVALID, "column " + column + " of table " + def.name()
                        + " does not exist");
            }
            wanted.add(at);
        } while (in.acceptSymbol(','));
        in.expectSymbol(')');
        for (Upsert.Key k : all) {
            Set<Integer> have = new HashSet<>();
            for (int c : k.columns()) {
                have.add(c);
            }
            if (have.equals(wanted)) {
                return List.of(k);
            }
        }
        throw TellException.of(ErrorCode.SQL_INVALID, "there is no unique or primary key of table " + def.name()
                + " matching the ON CONFLICT columns");
    }

    /** {@code e} as text, its bare column names qualified by the table's name (EXCLUDED's must be written so). */
    private static String qualified(TableDef def, SqlNode e) {
        SqlNode q = e.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                if (id.isSimple() && def.columnIndex(id.getSimple()) >= 0) {
                    return new SqlIdentifier(List.of(def.name(), id.getSimple()), SqlParserPos.ZERO);
                }
                return id;
            }
        });
        return q.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    }

    /** The words of an ON CONFLICT clause before its SET list, read one at a time. */
    private static final class Words {
        private final String text;
        private int at;

        Words(String text) {
            this.text = text;
        }

        private void blanks() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        boolean accept(String word) {
            blanks();
            int end = at + word.length();
            if (text.regionMatches(true, at, word, 0, word.length())
                    && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)) && text.charAt(end) != '_')) {
                at = end;
                return true;
            }
            return false;
        }

        void expect(String word) {
            if (!accept(word)) {
                throw syntax(word);
            }
        }

        boolean acceptSymbol(char c) {
            blanks();
            if (at < text.length() && text.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        void expectSymbol(char c) {
            if (!acceptSymbol(c)) {
                throw syntax("\"" + c + "\"");
            }
        }

        /** An identifier: unquoted (folded to upper case) or "quoted". */
        String identifier() {
            blanks();
            int start = at;
            if (at < text.length() && text.charAt(at) == '"') {
                int end = text.indexOf('"', at + 1);
                if (end < 0) {
                    throw syntax("a closing quote");
                }
                at = end + 1;
                return text.substring(start + 1, end);
            }
            while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_')) {
                at++;
            }
            if (at == start) {
                throw syntax("a name");
            }
            return text.substring(start, at).toUpperCase(Locale.ROOT);
        }

        String rest() {
            return text.substring(at).strip();
        }

        void expectEnd() {
            if (!rest().isEmpty()) {
                throw syntax("the end of the statement (or RETURNING)");
            }
        }

        private TellException syntax(String expected) {
            blanks();
            String found = at >= text.length() ? "the end" : "\"" + text.substring(at, Math.min(text.length(), at + 20)) + "\"";
            return TellException.of(ErrorCode.SQL_SYNTAX, "ON CONFLICT: expected " + expected + " but found " + found);
        }
    }
}
