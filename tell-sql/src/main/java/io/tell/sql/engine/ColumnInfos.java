package io.tell.sql.engine;

import io.tell.sql.ColumnInfo;
import io.tell.sql.exec.Values;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.type.SqlTypeName;

/** JDBC column descriptions from Calcite row types. */
final class ColumnInfos {
    private ColumnInfos() {
    }

    /** One per field; {@code origins} (may be null) give table and column of plain column references. */
    static List<ColumnInfo> of(RelDataType rowType, List<List<String>> origins) {
        List<ColumnInfo> out = new ArrayList<>();
        List<RelDataTypeField> fields = rowType.getFieldList();
        for (int i = 0; i < fields.size(); i++) {
            List<String> origin = origins == null || i >= origins.size() ? null : origins.get(i);
            String table = origin == null || origin.size() < 2 ? null : origin.size() < 3 ? origin.get(origin.size() - 2)
                    : io.tell.sql.Names.qualified(origin.get(origin.size() - 3), origin.get(origin.size() - 2));
            String column = origin == null || origin.isEmpty() ? null : origin.get(origin.size() - 1);
            out.add(of(fields.get(i).getName(), fields.get(i).getType(), table, column));
        }
        return out;
    }

    static ColumnInfo of(String label, RelDataType type, String table, String column) {
        SqlTypeName name = type.getSqlTypeName();
        int precision = switch (name) {
            case TINYINT -> 3;
            case SMALLINT -> 5;
            case INTEGER -> 10;
            case BIGINT -> 19;
            case REAL -> 7;
            case FLOAT, DOUBLE -> 15;
            case BOOLEAN -> 1;
            case DATE -> 10;
            case TIMESTAMP -> 29;
            case TIME -> 18;
            case UUID -> 36;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 35;
            default -> type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED ? 0 : type.getPrecision();
        };
        int scale = type.getScale() == RelDataType.SCALE_NOT_SPECIFIED ? 0 : type.getScale();
        String typeName = switch (name) {
            case DOUBLE, FLOAT -> "DOUBLE";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> "TIMESTAMP WITH TIME ZONE";
            default -> name.getName();
        };
        int jdbcType = name == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE ? java.sql.Types.TIMESTAMP_WITH_TIMEZONE : name.getJdbcOrdinal();
        return new ColumnInfo(label, table, column, jdbcType, typeName, precision, scale,
                type.isNullable(), Values.javaClass(name));
    }
}
