package io.tell.sql.ddl;

import io.tell.sql.ColumnType;
import io.tell.sql.TableSpec;
import java.util.List;

/**
 * A parsed DDL statement ({@link DdlParser}), run by {@link DdlExecutor}. Names are as the
 * catalog compares them: unquoted identifiers already folded to upper case.
 */
public sealed interface DdlStatement {

    /**
     * {@code CREATE TABLE}. Column-level PRIMARY KEY, UNIQUE and REFERENCES are already moved
     * to {@code primaryKey}, {@code uniques} and {@code foreignKeys}.
     *
     * @param uniques UNIQUE constraints ({@link TableSpec.IndexSpec#constraint()} true), named or not
     */
    record CreateTable(String name, boolean ifNotExists, List<Column> columns, List<String> primaryKey,
                       List<TableSpec.IndexSpec> uniques, List<TableSpec.ForeignKeySpec> foreignKeys)
            implements DdlStatement {
        public CreateTable {
            columns = List.copyOf(columns);
            primaryKey = List.copyOf(primaryKey);
            uniques = List.copyOf(uniques);
            foreignKeys = List.copyOf(foreignKeys);
        }
    }

    /**
     * A column as written. {@code defaultValue} is the DEFAULT literal's value, not yet coerced
     * to the type (null: no DEFAULT, or DEFAULT NULL): a Long, BigDecimal or Double for a number,
     * a String, Boolean, LocalDate or LocalDateTime.
     */
    record Column(String name, ColumnType type, boolean nullable, Object defaultValue) {
    }

    /** {@code CREATE [UNIQUE] INDEX}; the columns in key order, all ascending. */
    record CreateIndex(String name, String table, List<String> columns, boolean unique, boolean ifNotExists)
            implements DdlStatement {
        public CreateIndex {
            columns = List.copyOf(columns);
        }
    }

    /** {@code DROP TABLE}. */
    record DropTable(String name, boolean ifExists) implements DdlStatement {
    }

    /** {@code DROP INDEX}. */
    record DropIndex(String name, boolean ifExists) implements DdlStatement {
    }
}
