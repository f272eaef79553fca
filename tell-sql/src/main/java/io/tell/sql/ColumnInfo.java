package io.tell.sql;

/**
 * One result column or parameter of a prepared statement, as JDBC metadata reports it.
 * {@code jdbcType} is a {@link java.sql.Types} constant; {@code javaClass} the class of the
 * values the engine produces (for parameters: what it converts the bound value to).
 * {@code table} (its catalog name, {@link Names}) and {@code column} name the origin of a result
 * column when it is a plain column reference, else null.
 */
public record ColumnInfo(String label, String table, String column, int jdbcType, String typeName,
                         int precision, int scale, boolean nullable, Class<?> javaClass) {
}
