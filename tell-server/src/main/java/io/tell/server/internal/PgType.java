package io.tell.server.internal;

import io.tell.sql.ColumnInfo;
import java.sql.Types;

/**
 * The PostgreSQL types Tell's values travel as, with their OIDs (pg_type.oid) and fixed sizes
 * (-1: variable). Each Tell type has exactly one; {@link #TEXT} also stands for what has none.
 */
public enum PgType {
    BOOL(16, 1),
    BYTEA(17, -1),
    INT8(20, 8),
    INT2(21, 2),
    INT4(23, 4),
    TEXT(25, -1),
    FLOAT4(700, 4),
    FLOAT8(701, 8),
    BPCHAR(1042, -1),
    VARCHAR(1043, -1),
    DATE(1082, 4),
    TIME(1083, 8),
    TIMESTAMP(1114, 8),
    TIMESTAMPTZ(1184, 8),
    NUMERIC(1700, -1),
    UUID(2950, 16);

    private final int oid;
    private final int size;

    PgType(int oid, int size) {
        this.oid = oid;
        this.size = size;
    }

    public int oid() {
        return oid;
    }

    public int size() {
        return size;
    }

    /** The type a result column or parameter travels as. */
    public static PgType of(ColumnInfo column) {
        return "UUID".equals(column.typeName()) ? UUID : ofJdbc(column.jdbcType());
    }

    /** The type a value of {@code jdbcType} (a {@link Types} code) travels as. */
    public static PgType ofJdbc(int jdbcType) {
        return switch (jdbcType) {
            case Types.BOOLEAN, Types.BIT -> BOOL;
            case Types.TINYINT, Types.SMALLINT -> INT2;
            case Types.INTEGER -> INT4;
            case Types.BIGINT -> INT8;
            case Types.DECIMAL, Types.NUMERIC -> NUMERIC;
            case Types.REAL -> FLOAT4;
            case Types.FLOAT, Types.DOUBLE -> FLOAT8;
            case Types.CHAR, Types.NCHAR -> BPCHAR;
            case Types.VARCHAR, Types.NVARCHAR -> VARCHAR;
            case Types.DATE -> DATE;
            case Types.TIME -> TIME;
            case Types.TIMESTAMP -> TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> TIMESTAMPTZ;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> BYTEA;
            default -> TEXT;
        };
    }

    /** The type with {@code oid}, or null for one Tell does not know (a client may still send it as text). */
    public static PgType ofOid(int oid) {
        for (PgType t : values()) {
            if (t.oid == oid) {
                return t;
            }
        }
        return null;
    }

    /** pg_attribute.atttypmod for a column: length + 4 for character types, packed precision and scale for numeric. */
    public static int typeModifier(PgType type, ColumnInfo column) {
        return switch (type) {
            case VARCHAR, BPCHAR -> column.precision() > 0 ? column.precision() + 4 : -1;
            case NUMERIC -> column.precision() > 0 ? ((column.precision() << 16) | column.scale()) + 4 : -1;
            default -> -1;
        };
    }
}
