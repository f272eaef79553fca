package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.SqlFrontEnd;
import io.tell.sql.ColumnDef;
import io.tell.sql.TableDef;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;

/**
 * Columns {@code GENERATED ALWAYS AS IDENTITY} take values from their sequence only: an INSERT
 * may name one only to give it {@code DEFAULT}, and an UPDATE may not set one (PostgreSQL's
 * rules, SQLState 428C9). Checked on the validated statement, before planning.
 */
final class GeneratedAlways {
    private GeneratedAlways() {
    }

    static void check(SqlFrontEnd frontEnd, SqlNode statement) {
        if (statement instanceof SqlInsert insert) {
            TableDef def = target(frontEnd, insert.getTargetTable());
            if (def == null || def.columns().stream().noneMatch(GeneratedAlways::always)) {
                return;
            }
            SqlNodeList named = insert.getTargetColumnList();
            for (int p = 0; p < (named == null ? def.columns().size() : named.size()); p++) {
                ColumnDef c = named == null ? def.columns().get(p) : column(def, named.get(p));
                if (c != null && always(c) && !onlyDefaults(insert.getSource(), p)) {
                    throw TellException.of(ErrorCode.GENERATED_ALWAYS, "cannot insert a non-DEFAULT value into column "
                            + c.name() + " of table " + def.name() + ": it is an identity column defined as GENERATED ALWAYS");
                }
            }
        } else if (statement instanceof SqlUpdate update) {
            TableDef def = target(frontEnd, update.getTargetTable());
            if (def == null) {
                return;
            }
            for (SqlNode n : update.getTargetColumnList()) {
                ColumnDef c = column(def, n);
                if (c != null && always(c)) {
                    throw TellException.of(ErrorCode.GENERATED_ALWAYS, "column " + c.name() + " of table " + def.name()
                            + " can only be updated to DEFAULT: it is an identity column defined as GENERATED ALWAYS");
                }
            }
        }
    }

    private static boolean always(ColumnDef c) {
        return c.identity() == ColumnDef.Identity.ALWAYS;
    }

    /** True when every row of a VALUES source gives DEFAULT at position {@code p}. */
    private static boolean onlyDefaults(SqlNode source, int p) {
        SqlNode values = source;
        if (values instanceof SqlSelect select && select.getFrom() != null && isStar(select.getSelectList())) {
            values = select.getFrom(); // the validator may wrap VALUES in SELECT * FROM
        }
        if (values.getKind() != SqlKind.VALUES) {
            return false;
        }
        for (SqlNode row : ((SqlCall) values).getOperandList()) {
            List<SqlNode> items = row instanceof SqlBasicCall call && call.getKind() == SqlKind.ROW
                    ? call.getOperandList() : List.of(row);
            if (p >= items.size() || items.get(p).getKind() != SqlKind.DEFAULT) {
                return false;
            }
        }
        return true;
    }

    private static boolean isStar(SqlNodeList list) {
        return list != null && list.size() == 1 && list.get(0) instanceof SqlIdentifier id && id.isStar();
    }

    private static TableDef target(SqlFrontEnd frontEnd, SqlNode table) {
        return table instanceof SqlIdentifier id ? frontEnd.table(id) : null;
    }

    private static ColumnDef column(TableDef def, SqlNode n) {
        if (!(n instanceof SqlIdentifier id)) {
            return null;
        }
        int i = def.columnIndex(id.names.get(id.names.size() - 1));
        return i < 0 ? null : def.columns().get(i);
    }
}
