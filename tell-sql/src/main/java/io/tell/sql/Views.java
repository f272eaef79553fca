package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Turns CREATE VIEW's query into a {@link ViewDef}: validated against the catalog (so a bad
 * query fails here, with the query's own SQLState), its columns typed as table columns are,
 * its text stored as validated (every name spelled out and quoted, {@code *} expanded), and
 * the relations it reads listed.
 */
public final class Views {
    private Views() {
    }

    /** The view {@code name} over {@code query}, its columns named {@code columnNames} (or as the query names them when empty). */
    public static ViewDef define(CatalogSnapshot catalog, SchemaPath path, String name, List<String> columnNames,
                                 String query) {
        SqlFrontEnd frontEnd = new SqlFrontEnd(catalog, path);
        SqlFrontEnd.Validated v = frontEnd.validate(query);
        if (!v.node().getKind().belongsTo(SqlKind.QUERY)) {
            throw TellException.of(ErrorCode.SQL_INVALID, "view " + name + " must be defined by a query");
        }
        if (v.parameterTypes().getFieldCount() > 0) {
            throw TellException.of(ErrorCode.SQL_INVALID, "view " + name + " cannot have parameters (?)");
        }
        List<RelDataTypeField> fields = v.rowType().getFieldList();
        if (!columnNames.isEmpty() && columnNames.size() != fields.size()) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "view " + name + " names " + columnNames.size()
                    + " columns but its query returns " + fields.size());
        }
        List<ColumnDef> columns = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < fields.size(); i++) {
            String column = columnNames.isEmpty() ? fields.get(i).getName() : columnNames.get(i);
            if (!seen.add(column)) {
                throw TellException.of(ErrorCode.INVALID_DEFINITION, "view " + name + " has column " + column
                        + " twice; name the columns (AS) apart");
            }
            columns.add(new ColumnDef(column, columnType(name, column, fields.get(i).getType()),
                    fields.get(i).getType().isNullable(), null));
        }
        String sql = v.node().toSqlString(CalciteSqlDialect.DEFAULT).getSql();
        Set<String> reads = new LinkedHashSet<>();
        v.node().accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    relations(select.getFrom(), reads);
                }
                return super.visit(call);
            }
        });
        reads.removeIf(r -> catalog.table(r).isEmpty() && catalog.view(r).isEmpty());
        return new ViewDef(name, sql, columns, List.copyOf(reads));
    }

    /** The relations a FROM clause names (the validator spelled them out as SCHEMA.NAME): their catalog names. */
    private static void relations(SqlNode from, Set<String> out) {
        switch (from) {
            case SqlIdentifier id when id.names.size() == 2 -> out.add(Names.qualified(id.names.get(0), id.names.get(1)));
            case SqlJoin join -> {
                relations(join.getLeft(), out);
                relations(join.getRight(), out);
            }
            case SqlBasicCall call when call.getKind() == SqlKind.AS -> relations(call.operand(0), out);
            default -> {
                // a subquery or VALUES: its own SELECTs are visited on their own
            }
        }
    }

    /** The table-column type of a view column. */
    private static ColumnType columnType(String view, String column, RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case TINYINT, SMALLINT -> ColumnType.SMALLINT;
            case INTEGER -> ColumnType.INTEGER;
            case BIGINT -> ColumnType.BIGINT;
            case REAL -> ColumnType.REAL;
            case FLOAT, DOUBLE -> ColumnType.DOUBLE;
            case BOOLEAN -> ColumnType.BOOLEAN;
            case DATE -> ColumnType.DATE;
            case TIMESTAMP -> ColumnType.TIMESTAMP;
            case TIME -> ColumnType.TIME;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> ColumnType.TIMESTAMPTZ;
            case UUID -> ColumnType.UUID;
            case BINARY, VARBINARY -> ColumnType.varbinary(t.getPrecision() > 0
                    ? Math.min(t.getPrecision(), ColumnType.MAX_LENGTH) : ColumnType.MAX_LENGTH);
            case DECIMAL -> ColumnType.decimal(t.getPrecision(), Math.max(0, t.getScale()));
            case VARCHAR -> ColumnType.varchar(t.getPrecision() > 0 ? Math.min(t.getPrecision(), ColumnType.MAX_LENGTH)
                    : ColumnType.MAX_LENGTH);
            case CHAR -> ColumnType.character(Math.max(1, t.getPrecision()));
            default -> throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "column " + column + " of view " + view
                    + " has type " + t.getFullTypeString() + ", which a view cannot return; CAST it");
        };
    }
}
