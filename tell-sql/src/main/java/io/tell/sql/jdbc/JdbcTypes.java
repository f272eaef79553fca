package io.tell.sql.jdbc;

import io.tell.sql.ColumnType;
import io.tell.sql.SqlType;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * How Tell's column types and value classes look through JDBC: {@link Types} codes, sizes as
 * {@link DatabaseMetaData#getColumns} reports them, and the classes {@code getObject} returns.
 * TIMESTAMP keeps nanoseconds, so its size is 29 with 9 fractional digits; REAL and DOUBLE are
 * binary (radix 2, 24 and 53 bits).
 */
final class JdbcTypes {
    private JdbcTypes() {
    }

    static int jdbcType(SqlType type) {
        return switch (type) {
            case SMALLINT -> Types.SMALLINT;
            case INTEGER -> Types.INTEGER;
            case BIGINT -> Types.BIGINT;
            case DECIMAL -> Types.DECIMAL;
            case REAL -> Types.REAL;
            case DOUBLE -> Types.DOUBLE;
            case VARCHAR -> Types.VARCHAR;
            case CHAR -> Types.CHAR;
            case BOOLEAN -> Types.BOOLEAN;
            case DATE -> Types.DATE;
            case TIMESTAMP -> Types.TIMESTAMP;
            case TIME -> Types.TIME;
            case VARBINARY -> Types.VARBINARY;
            case UUID -> Types.OTHER;
            case TIMESTAMPTZ -> Types.TIMESTAMP_WITH_TIMEZONE;
        };
    }

    /** COLUMN_SIZE: digits or bits for numbers, characters for strings, and the length of the text form for dates. */
    static int columnSize(ColumnType type) {
        return switch (type.type()) {
            case DECIMAL -> type.precision();
            case VARCHAR, CHAR, VARBINARY -> type.length();
            default -> maxPrecision(type.type());
        };
    }

    /** DECIMAL_DIGITS: the scale, 0 for integers, fractional-second digits for TIMESTAMP and TIME; null where it does not apply. */
    static Integer decimalDigits(ColumnType type) {
        return switch (type.type()) {
            case SMALLINT, INTEGER, BIGINT -> 0;
            case DECIMAL -> type.scale();
            case TIMESTAMP, TIME, TIMESTAMPTZ -> 9;
            default -> null;
        };
    }

    /** NUM_PREC_RADIX: 10 for exact numbers, 2 for binary floating point, null for the rest. */
    static Integer radix(SqlType type) {
        return switch (type) {
            case SMALLINT, INTEGER, BIGINT, DECIMAL -> 10;
            case REAL, DOUBLE -> 2;
            default -> null;
        };
    }

    static int maxPrecision(SqlType type) {
        return switch (type) {
            case SMALLINT -> 5;
            case INTEGER -> 10;
            case BIGINT -> 19;
            case DECIMAL -> ColumnType.MAX_DECIMAL_PRECISION;
            case REAL -> 24;
            case DOUBLE -> 53;
            case VARCHAR, CHAR, VARBINARY -> ColumnType.MAX_LENGTH;
            case BOOLEAN -> 1;
            case DATE -> 10;
            case TIMESTAMP -> 29;
            case TIME -> 18;
            case UUID -> 36;
            case TIMESTAMPTZ -> 35;
        };
    }

    /** The class {@code getObject} returns for engine values of {@code javaClass} (JDBC's mapping). */
    static Class<?> jdbcClass(Class<?> javaClass) {
        if (javaClass == Short.class || javaClass == Byte.class) {
            return Integer.class;
        }
        if (javaClass == LocalDate.class) {
            return Date.class;
        }
        if (javaClass == LocalDateTime.class) {
            return Timestamp.class;
        }
        if (javaClass == LocalTime.class) {
            return Time.class;
        }
        if (javaClass == java.time.OffsetDateTime.class) {
            return Timestamp.class;
        }
        return javaClass;
    }

    static boolean signed(int jdbcType) {
        return switch (jdbcType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.DECIMAL, Types.NUMERIC,
                 Types.REAL, Types.FLOAT, Types.DOUBLE -> true;
            default -> false;
        };
    }

    static boolean characters(int jdbcType) {
        return switch (jdbcType) {
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.CLOB -> true;
            default -> false;
        };
    }

    /** Characters needed to show a value: sign, digits and point for numbers, the text form for dates. */
    static int displaySize(int jdbcType, int precision, int scale) {
        return switch (jdbcType) {
            case Types.BOOLEAN, Types.BIT -> 5;
            case Types.SMALLINT -> 6;
            case Types.INTEGER -> 11;
            case Types.BIGINT -> 20;
            case Types.DECIMAL, Types.NUMERIC -> precision + (scale > 0 ? 2 : 1);
            case Types.REAL -> 15;
            case Types.FLOAT, Types.DOUBLE -> 24;
            case Types.DATE -> 10;
            case Types.TIME -> 18;
            case Types.TIMESTAMP -> 29;
            case Types.TIMESTAMP_WITH_TIMEZONE -> 35;
            default -> Math.max(precision, 1);
        };
    }

    /** {@link DatabaseMetaData#getTypeInfo()}: one row per column type, ordered by DATA_TYPE. */
    static MetadataTable typeInfo() {
        MetadataTable t = new MetadataTable("TYPE_NAME", "DATA_TYPE:INTEGER", "PRECISION:INTEGER", "LITERAL_PREFIX",
                "LITERAL_SUFFIX", "CREATE_PARAMS", "NULLABLE:SMALLINT", "CASE_SENSITIVE:BOOLEAN", "SEARCHABLE:SMALLINT",
                "UNSIGNED_ATTRIBUTE:BOOLEAN", "FIXED_PREC_SCALE:BOOLEAN", "AUTO_INCREMENT:BOOLEAN", "LOCAL_TYPE_NAME",
                "MINIMUM_SCALE:SMALLINT", "MAXIMUM_SCALE:SMALLINT", "SQL_DATA_TYPE:INTEGER", "SQL_DATETIME_SUB:INTEGER",
                "NUM_PREC_RADIX:INTEGER");
        for (SqlType type : SqlType.values()) {
            int jdbcType = jdbcType(type);
            String quote = characters(jdbcType) ? "'" : null;
            String prefix = switch (type) {
                case DATE, TIMESTAMP, TIME -> type.name() + " '";
                case VARBINARY -> "X'";
                default -> quote;
            };
            String params = switch (type) {
                case DECIMAL -> "PRECISION,SCALE";
                case VARCHAR, CHAR, VARBINARY -> "LENGTH";
                default -> null;
            };
            int maxScale = type == SqlType.DECIMAL ? ColumnType.MAX_DECIMAL_PRECISION : type == SqlType.TIMESTAMP || type == SqlType.TIME
                    || type == SqlType.TIMESTAMPTZ ? 9 : 0;
            t.add(type.name(), jdbcType, maxPrecision(type), prefix, prefix == null ? null : "'", params,
                    DatabaseMetaData.typeNullable, characters(jdbcType), DatabaseMetaData.typeSearchable,
                    false, false, false, type.name(), 0, maxScale, null, null, radix(type));
        }
        return t.sortBy("DATA_TYPE");
    }
}
