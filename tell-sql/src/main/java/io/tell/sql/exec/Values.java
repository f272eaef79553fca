package io.tell.sql.exec;

import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The one representation of SQL values inside the executor: every value has the Java class
 * its SQL type names here, the same classes {@link io.tell.sql.SqlType} uses for stored
 * columns. SQL NULL is {@code null}.
 */
public final class Values {
    private Values() {
    }

    /** The Java class of values of {@code type}; Object for types Tell does not compute with. */
    public static Class<?> javaClass(SqlTypeName type) {
        return switch (type) {
            case BOOLEAN -> Boolean.class;
            case TINYINT -> Byte.class;
            case SMALLINT -> Short.class;
            case INTEGER -> Integer.class;
            case BIGINT -> Long.class;
            case DECIMAL -> java.math.BigDecimal.class;
            case REAL -> Float.class;
            case FLOAT, DOUBLE -> Double.class;
            case CHAR, VARCHAR -> String.class;
            case DATE -> java.time.LocalDate.class;
            case TIME -> java.time.LocalTime.class;
            case TIMESTAMP -> java.time.LocalDateTime.class;
            case BINARY, VARBINARY -> byte[].class;
            default -> Object.class;
        };
    }
}
