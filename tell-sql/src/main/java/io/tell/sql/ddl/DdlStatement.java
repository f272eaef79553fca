package io.tell.sql.ddl;

import io.tell.sql.ColumnDef;
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
     *
     * @param defaultSequence the sequence of {@code DEFAULT NEXT VALUE FOR s} / {@code DEFAULT nextval('s')}
     * @param identity        GENERATED ALWAYS / BY DEFAULT AS IDENTITY (AUTO_INCREMENT: BY DEFAULT)
     * @param owned           the options of the sequence the column owns (identity and SERIAL
     *                        columns), null when it owns none
     */
    record Column(String name, ColumnType type, boolean nullable, Object defaultValue, String defaultSequence,
                  ColumnDef.Identity identity, SequenceOptions owned) {
        public Column(String name, ColumnType type, boolean nullable, Object defaultValue) {
            this(name, type, nullable, defaultValue, null, ColumnDef.Identity.NONE, null);
        }
    }

    /**
     * The options of CREATE SEQUENCE or of an identity column, as written; null where not given.
     *
     * @param type {@code AS type}: SMALLINT, INTEGER or BIGINT, bounding the values
     */
    record SequenceOptions(ColumnType type, Long start, Long increment, Long min, Long max, Integer cache) {
        static final SequenceOptions DEFAULTS = new SequenceOptions(null, null, null, null, null, null);
    }

    /** {@code CREATE SEQUENCE}. */
    record CreateSequence(String name, boolean ifNotExists, SequenceOptions options) implements DdlStatement {
    }

    /** {@code DROP SEQUENCE}. */
    record DropSequence(String name, boolean ifExists) implements DdlStatement {
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
