package io.tell.sql.ddl;

import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.TableSpec;
import java.util.List;

/**
 * A parsed DDL statement ({@link DdlParser}), run by {@link DdlExecutor}. Names are as the
 * catalog compares them: unquoted identifiers already folded to upper case. Names of relations and
 * indexes are as written ({@code NAME} or {@code SCHEMA.NAME}) until {@link DdlNames} makes them
 * catalog names along the session's schema path.
 */
public sealed interface DdlStatement {

    /** {@code CREATE SCHEMA [IF NOT EXISTS] name}. */
    record CreateSchema(String name, boolean ifNotExists) implements DdlStatement {
    }

    /** {@code DROP SCHEMA [IF EXISTS] name [RESTRICT | CASCADE]}. */
    record DropSchema(String name, boolean ifExists, boolean cascade) implements DdlStatement {
    }

    /**
     * {@code CREATE TABLE}. Column-level PRIMARY KEY, UNIQUE and REFERENCES are already moved
     * to {@code primaryKey}, {@code uniques} and {@code foreignKeys}.
     *
     * @param uniques UNIQUE constraints ({@link TableSpec.IndexSpec#constraint()} true), named or not
     */
    record CreateTable(String name, boolean ifNotExists, List<Column> columns, List<String> primaryKey,
                       List<TableSpec.IndexSpec> uniques, List<TableSpec.ForeignKeySpec> foreignKeys,
                       List<TableSpec.CheckSpec> checks)
            implements DdlStatement {
        public CreateTable {
            columns = List.copyOf(columns);
            primaryKey = List.copyOf(primaryKey);
            uniques = List.copyOf(uniques);
            foreignKeys = List.copyOf(foreignKeys);
            checks = List.copyOf(checks);
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
     * @param defaultFunction {@code DEFAULT CURRENT_DATE | CURRENT_TIMESTAMP | LOCALTIMESTAMP | NOW()}
     *                        (NOW() as CURRENT_TIMESTAMP), null otherwise
     */
    record Column(String name, ColumnType type, boolean nullable, Object defaultValue, String defaultSequence,
                  ColumnDef.Identity identity, SequenceOptions owned, String defaultFunction) {
        public Column(String name, ColumnType type, boolean nullable, Object defaultValue) {
            this(name, type, nullable, defaultValue, null, ColumnDef.Identity.NONE, null, null);
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

    /** {@code CREATE [UNIQUE] INDEX}; the columns in key order, those declared DESC in {@code descending}. */
    record CreateIndex(String name, String table, List<String> columns, boolean unique, boolean ifNotExists,
                       List<String> descending) implements DdlStatement {
        public CreateIndex {
            columns = List.copyOf(columns);
            descending = List.copyOf(descending);
        }

        public CreateIndex(String name, String table, List<String> columns, boolean unique, boolean ifNotExists) {
            this(name, table, columns, unique, ifNotExists, List.of());
        }
    }

    /** {@code DROP TABLE}; {@code cascade} drops the views that read it too. */
    record DropTable(String name, boolean ifExists, boolean cascade) implements DdlStatement {
        public DropTable(String name, boolean ifExists) {
            this(name, ifExists, false);
        }
    }

    /** {@code CREATE [OR REPLACE] VIEW name [(columns)] AS query}; {@code query} is the text after AS. */
    record CreateView(String name, boolean orReplace, List<String> columns, String query) implements DdlStatement {
        public CreateView {
            columns = List.copyOf(columns);
        }
    }

    /** {@code DROP VIEW [IF EXISTS] name [CASCADE | RESTRICT]}. */
    record DropView(String name, boolean ifExists, boolean cascade) implements DdlStatement {
    }

    /** {@code DROP INDEX}. */
    record DropIndex(String name, boolean ifExists) implements DdlStatement {
    }

    /**
     * {@code ALTER TABLE [IF EXISTS] t action, ...}: the actions apply together, as one catalog
     * change; an action that must check or fill existing rows stands alone.
     */
    record AlterTable(String table, boolean ifExists, List<AlterAction> actions) implements DdlStatement {
        public AlterTable {
            actions = List.copyOf(actions);
        }
    }

    /** One action of an ALTER TABLE. */
    sealed interface AlterAction {
    }

    /** {@code ADD [COLUMN] [IF NOT EXISTS] column}. */
    record AddColumn(Column column, boolean ifNotExists, List<TableSpec.ForeignKeySpec> references) implements AlterAction {
        public AddColumn {
            references = List.copyOf(references);
        }
    }

    /** {@code DROP [COLUMN] [IF EXISTS] c [RESTRICT | CASCADE]}. */
    record DropColumn(String column, boolean ifExists, boolean cascade) implements AlterAction {
    }

    /** {@code RENAME [COLUMN] c TO d}. */
    record RenameColumn(String from, String to) implements AlterAction {
    }

    /** {@code RENAME CONSTRAINT c TO d}. */
    record RenameConstraint(String from, String to) implements AlterAction {
    }

    /** {@code RENAME TO t}. */
    record RenameTable(String to) implements AlterAction {
    }

    /** {@code ALTER [COLUMN] c SET DEFAULT default} (a literal, a sequence's next value or the time) or {@code DROP DEFAULT}. */
    record SetDefault(String column, Object value, String sequence, String function, boolean drop) implements AlterAction {
    }

    /** {@code ALTER [COLUMN] c SET NOT NULL} ({@code notNull}) or {@code DROP NOT NULL}. */
    record SetNotNull(String column, boolean notNull) implements AlterAction {
    }

    /** {@code ALTER [COLUMN] c [SET DATA] TYPE type}. */
    record SetType(String column, ColumnType type) implements AlterAction {
    }

    /** {@code ADD [CONSTRAINT n] UNIQUE (columns)}. */
    record AddUnique(TableSpec.IndexSpec unique) implements AlterAction {
    }

    /** {@code ADD [CONSTRAINT n] FOREIGN KEY (columns) REFERENCES t [(columns)]}. */
    record AddForeignKey(TableSpec.ForeignKeySpec foreignKey) implements AlterAction {
    }

    /** {@code ADD [CONSTRAINT n] CHECK (condition)}. */
    record AddCheck(TableSpec.CheckSpec check) implements AlterAction {
    }

    /** {@code DROP CONSTRAINT [IF EXISTS] n}. */
    record DropConstraint(String name, boolean ifExists) implements AlterAction {
    }

    /** {@code TRUNCATE [TABLE] t, ... [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT]}. */
    record Truncate(List<String> tables, boolean restartIdentity, boolean cascade) implements DdlStatement {
        public Truncate {
            tables = List.copyOf(tables);
        }
    }
}
