package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * CHECK conditions: validated when they are defined, as a boolean expression over one row of
 * the table (its columns by name; no subqueries, aggregates or parameters, which a single row
 * cannot answer), and put in the words PostgreSQL uses when a row breaks one.
 */
public final class Checks {
    private Checks() {
    }

    /** Validates {@code check} of {@code table} against {@code catalog}, which must hold that table. */
    static void validate(CatalogSnapshot catalog, TableDef table, CheckDef check) {
        String sql = "SELECT (" + check.condition() + ") FROM " + Names.quotedQualified(table.name());
        SqlNode parsed = SqlFrontEnd.parse(sql);
        SqlNode condition = ((SqlSelect) parsed).getSelectList().get(0);
        condition.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect || call.getOperator().isAggregator()) {
                    throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "check constraint " + check.name()
                            + " of table " + table.name() + " may only use the row's columns: no subqueries or aggregates");
                }
                return super.visit(call);
            }
        });
        SqlFrontEnd.Validated v = new SqlFrontEnd(catalog, SchemaPath.DEFAULT).validate(sql);
        if (v.parameterTypes().getFieldCount() > 0) {
            throw TellException.of(ErrorCode.SQL_INVALID, "check constraint " + check.name() + " cannot have parameters (?)");
        }
        SqlTypeName type = v.rowType().getFieldList().get(0).getType().getSqlTypeName();
        if (type != SqlTypeName.BOOLEAN) {
            throw TellException.of(ErrorCode.TYPE_MISMATCH, "check constraint " + check.name() + " of table "
                    + table.name() + " must be a condition (BOOLEAN), not " + type);
        }
    }

    /** CHECK_VIOLATION for {@code row} of {@code table} that {@code check} finds FALSE. */
    public static TellException violation(String table, String check, Object[] row) {
        return ConstraintErrors.withDetail(ErrorCode.CHECK_VIOLATION, "new row for relation \"" + Names.local(table)
                + "\" violates check constraint \"" + Names.local(check) + "\"", ConstraintErrors.failingRow(row), null);
    }

    /** Whether {@code check}'s condition names column {@code column}. */
    static boolean mentions(CheckDef check, String column) {
        boolean[] found = {false};
        condition(check).accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                found[0] |= id.names.get(id.names.size() - 1).equals(column);
                return null;
            }
        });
        return found[0];
    }

    /**
     * {@code check} with column {@code from} called {@code to}: its condition parsed, every name
     * of the column replaced, and written back (names quoted, so their case stays).
     */
    static CheckDef renamed(CheckDef check, String from, String to) {
        SqlNode replaced = condition(check).accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                if (!id.names.getLast().equals(from)) {
                    return id;
                }
                List<String> names = new ArrayList<>(id.names);
                names.set(names.size() - 1, to);
                return new SqlIdentifier(names, id.getParserPosition());
            }
        });
        return new CheckDef(check.name(), replaced.toSqlString(CalciteSqlDialect.DEFAULT).getSql());
    }

    /** The parsed condition of {@code check}. */
    private static SqlNode condition(CheckDef check) {
        return ((SqlSelect) SqlFrontEnd.parse("SELECT (" + check.condition() + ") FROM T")).getSelectList().get(0);
    }

    /** The checks' names of {@code table} (for DROP CONSTRAINT). */
    static List<String> names(TableDef table) {
        return table.checks().stream().map(CheckDef::name).toList();
    }
}
