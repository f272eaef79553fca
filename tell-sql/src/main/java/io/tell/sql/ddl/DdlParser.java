package io.tell.sql.ddl;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.CastSyntax;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.ForeignKeyDef;
import io.tell.sql.TableSpec;
import io.tell.sql.ddl.DdlLexer.Kind;
import io.tell.sql.ddl.DdlLexer.Token;
import java.util.ArrayList;
import java.util.List;

/**
 * Tell's DDL parser, by recursive descent (Calcite's core parser has no DDL). Statements:
 *
 * <pre>
 * CREATE TABLE [IF NOT EXISTS] name ( column | table-constraint , ... )
 *   column:           name type [DEFAULT default] [NOT NULL | NULL] [[CONSTRAINT n] PRIMARY KEY]
 *                     [[CONSTRAINT n] UNIQUE] [[CONSTRAINT n] REFERENCES table [(column)] [ON DELETE a] [ON UPDATE a]]
 *                     [[CONSTRAINT n] CHECK (condition)]
 *                     [GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [( sequence-options )]]
 *                     [AUTO_INCREMENT]  (any order); type may be SMALLSERIAL, SERIAL or BIGSERIAL
 *   default:          literal | NEXT VALUE FOR sequence | nextval('sequence')
 *   table-constraint: [CONSTRAINT n] PRIMARY KEY (columns) | [CONSTRAINT n] UNIQUE (columns)
 *                     | [CONSTRAINT n] FOREIGN KEY (columns) REFERENCES table [(columns)]
 *                     | [CONSTRAINT n] CHECK (condition)
 * CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column [ASC], ...)
 * DROP TABLE [IF EXISTS] name [RESTRICT | CASCADE]
 * DROP INDEX [IF EXISTS] name
 * CREATE [OR REPLACE] VIEW name [( column, ... )] AS query
 * DROP VIEW [IF EXISTS] name [RESTRICT | CASCADE]
 * CREATE SEQUENCE [IF NOT EXISTS] name [sequence-options]
 *   sequence-options: AS type | START [WITH] n | INCREMENT [BY] n | MINVALUE n | NO MINVALUE
 *                     | MAXVALUE n | NO MAXVALUE | CACHE n | NO CYCLE  (any order)
 * DROP SEQUENCE [IF EXISTS] name
 * TRUNCATE [TABLE] name [, name ...] [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT]
 * ALTER TABLE [IF EXISTS] name action [, action ...]
 *   action:           ADD [COLUMN] [IF NOT EXISTS] column | DROP [COLUMN] [IF EXISTS] c [RESTRICT | CASCADE]
 *                     | RENAME [COLUMN] c TO d | RENAME TO t
 *                     | ALTER [COLUMN] c {SET DEFAULT default | DROP DEFAULT | SET NOT NULL | DROP NOT NULL}
 *                     | ADD [CONSTRAINT n] {UNIQUE (columns) | FOREIGN KEY (columns) REFERENCES t [(columns)]
 *                                         | CHECK (condition)}
 *                     | DROP CONSTRAINT [IF EXISTS] n [RESTRICT | CASCADE]
 * </pre>
 *
 * Types and literals: {@link DdlTerms}. Keywords are case-insensitive; unquoted identifiers fold
 * to upper case and {@code "quoted"} ones keep their case, as on the query side. An optional
 * {@code ;} may end the statement. Errors are {@link ErrorCode#SQL_SYNTAX} saying what was
 * expected and what was found, their message ending in {@code (at line L, column C)}.
 */
public final class DdlParser {
    private final String sql;
    private final DdlTerms in;

    private DdlParser(String sql) {
        this.sql = sql;
        this.in = new DdlTerms(new DdlLexer(sql));
    }

    /** True when the first keyword, after white space and comments, is CREATE, DROP, ALTER or TRUNCATE. */
    public static boolean isDdl(String sql) {
        try {
            Token first = new DdlLexer(sql).next();
            return first.is("CREATE") || first.is("DROP") || first.is("ALTER") || first.is("TRUNCATE");
        } catch (TellException e) {
            return false;
        }
    }

    /** Parses one DDL statement. */
    public static DdlStatement parse(String sql) {
        DdlParser p = new DdlParser(sql);
        DdlStatement statement = p.statement();
        if (statement instanceof DdlStatement.CreateView) {
            return statement;
        }
        p.in.acceptSymbol(';');
        if (p.in.token().kind() != Kind.END) {
            throw p.in.expected("end of statement");
        }
        return statement;
    }

    private DdlStatement statement() {
        if (in.accept("CREATE")) {
            boolean orReplace = false;
            if (in.accept("OR")) {
                in.expect("REPLACE");
                orReplace = true;
                if (!in.token().is("VIEW")) {
                    throw in.expected("VIEW");
                }
            }
            if (in.accept("VIEW")) {
                return createView(orReplace);
            }
            if (in.accept("TABLE")) {
                return createTable();
            }
            if (in.accept("SEQUENCE")) {
                boolean ifNotExists = ifNotExists();
                String name = in.qualifiedName("a sequence name");
                return new DdlStatement.CreateSequence(name, ifNotExists, sequenceOptions(false));
            }
            if (in.accept("SCHEMA")) {
                boolean ifNotExists = ifNotExists();
                return new DdlStatement.CreateSchema(in.plainName("a schema name"), ifNotExists);
            }
            boolean unique = in.accept("UNIQUE");
            if (in.accept("INDEX")) {
                return createIndex(unique);
            }
            throw in.expected(unique ? "INDEX" : "TABLE, INDEX, UNIQUE INDEX, SEQUENCE, VIEW or SCHEMA");
        }
        if (in.accept("DROP")) {
            if (in.accept("TABLE")) {
                boolean ifExists = ifExists();
                String name = in.qualifiedName("a table name");
                return new DdlStatement.DropTable(name, ifExists, dropBehaviour());
            }
            if (in.accept("VIEW")) {
                boolean ifExists = ifExists();
                String name = in.qualifiedName("a view name");
                return new DdlStatement.DropView(name, ifExists, dropBehaviour());
            }
            if (in.accept("INDEX")) {
                boolean ifExists = ifExists();
                return new DdlStatement.DropIndex(in.qualifiedName("an index name"), ifExists);
            }
            if (in.accept("SEQUENCE")) {
                boolean ifExists = ifExists();
                return new DdlStatement.DropSequence(in.qualifiedName("a sequence name"), ifExists);
            }
            if (in.accept("SCHEMA")) {
                boolean ifExists = ifExists();
                String name = in.plainName("a schema name");
                return new DdlStatement.DropSchema(name, ifExists, dropBehaviour());
            }
            throw in.expected("TABLE, INDEX, SEQUENCE, VIEW or SCHEMA");
        }
        if (in.accept("ALTER")) {
            in.expect("TABLE");
            boolean ifExists = ifExists();
            String table = in.qualifiedName("a table name");
            List<DdlStatement.AlterAction> actions = new ArrayList<>();
            do {
                actions.add(alterAction(table));
            } while (in.acceptSymbol(','));
            return new DdlStatement.AlterTable(table, ifExists, actions);
        }
        if (in.accept("TRUNCATE")) {
            in.accept("TABLE");
            List<String> tables = new ArrayList<>();
            do {
                tables.add(in.qualifiedName("a table name"));
            } while (in.acceptSymbol(','));
            boolean restart = false;
            if (in.accept("RESTART")) {
                in.expect("IDENTITY");
                restart = true;
            } else if (in.accept("CONTINUE")) {
                in.expect("IDENTITY");
            }
            return new DdlStatement.Truncate(tables, restart, dropBehaviour());
        }
        throw in.expected("CREATE, DROP, ALTER or TRUNCATE");
    }

    private DdlStatement.AlterAction alterAction(String table) {
        Token at = in.token();
        if (in.accept("ADD")) {
            if (in.token().is("CONSTRAINT") || in.token().is("PRIMARY") || in.token().is("UNIQUE")
                    || in.token().is("FOREIGN") || in.token().is("CHECK")) {
                return addConstraint(table);
            }
            in.accept("COLUMN");
            boolean ifNotExists = ifNotExists();
            TableParts t = new TableParts(table);
            column(t);
            if (!t.primaryKey.isEmpty() || !t.uniques.isEmpty() || !t.checks.isEmpty()) {
                throw DdlLexer.error(ErrorCode.FEATURE_NOT_SUPPORTED, "PRIMARY KEY, UNIQUE or CHECK in ADD COLUMN is not"
                        + " supported: add the column, then ADD CONSTRAINT", at.line(), at.column());
            }
            return new DdlStatement.AddColumn(t.columns.get(0), ifNotExists, t.foreignKeys);
        }
        if (in.accept("DROP")) {
            if (in.accept("CONSTRAINT")) {
                boolean ifExists = ifExists();
                String name = in.identifier("a constraint name");
                dropBehaviour();
                return new DdlStatement.DropConstraint(name, ifExists);
            }
            in.accept("COLUMN");
            boolean ifExists = ifExists();
            String column = in.identifier("a column name");
            return new DdlStatement.DropColumn(column, ifExists, dropBehaviour());
        }
        if (in.accept("RENAME")) {
            if (in.accept("TO")) {
                return new DdlStatement.RenameTable(in.plainName("a table name"));
            }
            if (in.accept("CONSTRAINT")) {
                String from = in.identifier("a constraint name");
                in.expect("TO");
                return new DdlStatement.RenameConstraint(from, in.identifier("a constraint name"));
            }
            in.accept("COLUMN");
            String from = in.identifier("a column name");
            in.expect("TO");
            return new DdlStatement.RenameColumn(from, in.identifier("a column name"));
        }
        if (in.accept("ALTER")) {
            in.accept("COLUMN");
            String column = in.identifier("a column name");
            Token verb = in.token();
            if (in.accept("SET")) {
                if (in.accept("DEFAULT")) {
                    if (in.token().is("NEXT") || in.token().is("NEXTVAL")) {
                        return new DdlStatement.SetDefault(column, null, defaultSequence(), null, false);
                    }
                    String function = defaultFunction();
                    return new DdlStatement.SetDefault(column, function == null ? in.literal() : null, null, function, false);
                }
                if (in.accept("NOT")) {
                    in.expect("NULL");
                    return new DdlStatement.SetNotNull(column, true);
                }
                if (in.accept("DATA")) {
                    in.expect("TYPE");
                    return setType(column);
                }
                throw in.expected("DEFAULT, NOT NULL or DATA TYPE");
            }
            if (in.accept("DROP")) {
                if (in.accept("DEFAULT")) {
                    return new DdlStatement.SetDefault(column, null, null, null, true);
                }
                if (in.accept("NOT")) {
                    in.expect("NULL");
                    return new DdlStatement.SetNotNull(column, false);
                }
                throw in.expected("DEFAULT or NOT NULL");
            }
            if (in.accept("TYPE")) {
                return setType(column);
            }
            throw in.expected("SET, DROP or TYPE");
        }
        throw in.expected("ADD, DROP, RENAME or ALTER");
    }

    /** {@code [CONSTRAINT n] UNIQUE (...) | FOREIGN KEY ...} after ADD. */
    private DdlStatement.AlterAction addConstraint(String table) {
        Token at = in.token();
        TableParts t = new TableParts(table);
        tableConstraint(t);
        return constraintOf(t, at);
    }

    private static DdlStatement.AlterAction constraintOf(TableParts t, Token at) {
        if (!t.primaryKey.isEmpty()) {
            throw DdlLexer.error(ErrorCode.FEATURE_NOT_SUPPORTED, "Adding a PRIMARY KEY to an existing table is not"
                    + " supported (a table's rows are stored by it)", at.line(), at.column());
        }
        if (!t.uniques.isEmpty()) {
            return new DdlStatement.AddUnique(t.uniques.get(0));
        }
        if (!t.checks.isEmpty()) {
            return new DdlStatement.AddCheck(t.checks.get(0));
        }
        return new DdlStatement.AddForeignKey(t.foreignKeys.get(0));
    }

    /** The type after {@code ALTER COLUMN c [SET DATA] TYPE}; PostgreSQL's {@code USING expression} is refused. */
    private DdlStatement.AlterAction setType(String column) {
        ColumnType type = in.type();
        Token at = in.token();
        if (in.accept("USING")) {
            throw DdlLexer.error(ErrorCode.FEATURE_NOT_SUPPORTED, "ALTER COLUMN ... TYPE ... USING is not supported (it would"
                    + " rewrite every row)", at.line(), at.column());
        }
        return new DdlStatement.SetType(column, type);
    }

    /** {@code [RESTRICT | CASCADE]}: true for CASCADE. */
    private boolean dropBehaviour() {
        if (in.accept("CASCADE")) {
            return true;
        }
        in.accept("RESTRICT");
        return false;
    }

    /** {@code name [(columns)] AS query}: the query is the rest of the text, which Calcite parses. */
    private DdlStatement createView(boolean orReplace) {
        String name = in.qualifiedName("a view name");
        List<String> columns = in.token().isSymbol('(') ? columns() : List.of();
        in.expect("AS");
        Token start = in.token();
        if (start.kind() == Kind.END) {
            throw in.expected("a query");
        }
        String query = sql.substring(offset(start)).strip();
        while (query.endsWith(";")) {
            query = query.substring(0, query.length() - 1).stripTrailing();
        }
        return new DdlStatement.CreateView(name, orReplace, columns, CastSyntax.rewrite(query)); // the rest is Calcite's
    }

    /** Where {@code t} starts in the text. */
    private int offset(Token t) {
        int at = 0;
        for (int line = 1; line < t.line(); line++) {
            at = sql.indexOf('\n', at) + 1;
        }
        return at + t.column() - 1;
    }

    private DdlStatement createTable() {
        boolean ifNotExists = ifNotExists();
        TableParts t = new TableParts(in.qualifiedName("a table name"));
        in.expectSymbol('(');
        do {
            if (in.token().is("CONSTRAINT") || in.token().is("PRIMARY") || in.token().is("UNIQUE")
                    || in.token().is("FOREIGN") || in.token().is("CHECK")) {
                tableConstraint(t);
            } else if (in.token().kind() == Kind.WORD || in.token().kind() == Kind.QUOTED) {
                column(t);
            } else {
                throw in.expected("a column name or table constraint");
            }
        } while (in.acceptSymbol(','));
        if (!in.acceptSymbol(')')) {
            throw in.expected("\",\" or \")\"");
        }
        return new DdlStatement.CreateTable(t.name, ifNotExists, t.columns, t.primaryKey, t.uniques, t.foreignKeys,
                t.checks);
    }

    private void column(TableParts t) {
        String name = in.identifier("a column name");
        ColumnType serial = serialType();
        ColumnType type = serial != null ? serial : in.type();
        Boolean nullable = null;
        Object defaultValue = null;
        String defaultSequence = null;
        String defaultFunction = null;
        boolean hasDefault = false;
        ColumnDef.Identity identity = ColumnDef.Identity.NONE;
        DdlStatement.SequenceOptions owned = serial != null ? DdlStatement.SequenceOptions.DEFAULTS : null;
        while (!in.token().isSymbol(',') && !in.token().isSymbol(')') && !in.token().isSymbol(';')
                && in.token().kind() != Kind.END) {
            Token at = in.token();
            if (in.accept("DEFAULT")) {
                if (hasDefault) {
                    throw DdlLexer.error("DEFAULT given twice for column " + name, at.line(), at.column());
                }
                if (in.token().is("NEXT") || in.token().is("NEXTVAL")) {
                    defaultSequence = defaultSequence();
                } else if ((defaultFunction = defaultFunction()) == null) {
                    defaultValue = in.literal();
                }
                hasDefault = true;
            } else if (at.is("NOT") || at.is("NULL")) {
                boolean notNull = in.accept("NOT");
                in.expect("NULL");
                if (nullable != null && nullable == notNull) {
                    throw DdlLexer.error("Conflicting NULL and NOT NULL for column " + name, at.line(), at.column());
                }
                nullable = !notNull;
            } else if (at.is("GENERATED") || at.is("AUTO_INCREMENT") || at.is("AUTOINCREMENT")) {
                if (owned != null) {
                    throw DdlLexer.error(ErrorCode.INVALID_DEFINITION, "Column " + name
                            + " is already an identity or SERIAL column", at.line(), at.column());
                }
                identity = identity();
                owned = identity == ColumnDef.Identity.NONE ? null
                        : in.acceptSymbol('(') ? parenthesizedOptions() : DdlStatement.SequenceOptions.DEFAULTS;
            } else if (at.is("CONSTRAINT") || at.is("PRIMARY") || at.is("UNIQUE") || at.is("REFERENCES")
                    || at.is("CHECK")) {
                columnConstraint(t, name);
            } else {
                throw in.expected("a column constraint, \",\" or \")\"");
            }
        }
        if (owned != null && (hasDefault || Boolean.TRUE.equals(nullable))) {
            throw DdlLexer.error(ErrorCode.INVALID_DEFINITION, "Identity or SERIAL column " + name
                    + " can have neither a DEFAULT nor NULL", in.token().line(), in.token().column());
        }
        boolean isNullable = owned == null && (nullable == null || nullable);
        t.columns.add(new DdlStatement.Column(name, type, isNullable, defaultValue, defaultSequence, identity, owned,
                defaultFunction));
    }

    /** SMALLSERIAL, SERIAL, BIGSERIAL (and their SERIAL2/4/8 spellings) as their integer types; else null. */
    private ColumnType serialType() {
        ColumnType type = switch (in.token().kind() == Kind.WORD ? in.token().upper() : "") {
            case "SMALLSERIAL", "SERIAL2" -> ColumnType.SMALLINT;
            case "SERIAL", "SERIAL4" -> ColumnType.INTEGER;
            case "BIGSERIAL", "SERIAL8" -> ColumnType.BIGINT;
            default -> null;
        };
        if (type != null) {
            in.accept(in.token().upper());
        }
        return type;
    }

    /** {@code GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY}, or AUTO_INCREMENT (BY DEFAULT). */
    private ColumnDef.Identity identity() {
        if (in.accept("AUTO_INCREMENT") || in.accept("AUTOINCREMENT")) {
            return ColumnDef.Identity.BY_DEFAULT;
        }
        in.expect("GENERATED");
        ColumnDef.Identity kind;
        if (in.accept("ALWAYS")) {
            kind = ColumnDef.Identity.ALWAYS;
        } else if (in.accept("BY")) {
            in.expect("DEFAULT");
            kind = ColumnDef.Identity.BY_DEFAULT;
        } else {
            throw in.expected("ALWAYS or BY DEFAULT");
        }
        in.expect("AS");
        Token at = in.token();
        if (!in.accept("IDENTITY")) {
            throw at.isSymbol('(') ? DdlLexer.error(ErrorCode.FEATURE_NOT_SUPPORTED,
                    "Generated columns (GENERATED ... AS (expression)) are not supported", at.line(), at.column())
                    : in.expected("IDENTITY");
        }
        return kind;
    }

    /**
     * {@code CURRENT_DATE | CURRENT_TIMESTAMP | LOCALTIMESTAMP | NOW() | GEN_RANDOM_UUID()} as the
     * function's name; null for anything else.
     */
    private String defaultFunction() {
        for (String f : ColumnDef.DEFAULT_FUNCTIONS) {
            if (!f.equals(ColumnDef.RANDOM_UUID) && in.accept(f)) {
                return f;
            }
        }
        String called = in.accept("NOW") ? "CURRENT_TIMESTAMP" : in.accept(ColumnDef.RANDOM_UUID) ? ColumnDef.RANDOM_UUID : null;
        if (called != null) {
            in.expectSymbol('(');
            in.expectSymbol(')');
        }
        return called;
    }

    /** {@code NEXT VALUE FOR s} or {@code nextval('s')}: the sequence's name. */
    private String defaultSequence() {
        if (in.accept("NEXT")) {
            in.expect("VALUE");
            in.expect("FOR");
            return in.qualifiedName("a sequence name");
        }
        in.expect("NEXTVAL");
        in.expectSymbol('(');
        Token at = in.token();
        String text = in.string("a sequence name in quotes");
        in.expectSymbol(')');
        String name = io.tell.sql.Names.written(text.strip(), true);
        if (name == null) {
            throw DdlLexer.error("Not a sequence name: '" + text + "'", at.line(), at.column());
        }
        return name;
    }

    /** Sequence options up to a closing parenthesis (an identity column's). */
    private DdlStatement.SequenceOptions parenthesizedOptions() {
        DdlStatement.SequenceOptions options = sequenceOptions(true);
        in.expectSymbol(')');
        return options;
    }

    /** Sequence options in any order, each at most once, up to the end (or a ')' when {@code nested}). */
    private DdlStatement.SequenceOptions sequenceOptions(boolean nested) {
        ColumnType type = null;
        Long start = null;
        Long increment = null;
        Long min = null;
        Long max = null;
        Integer cache = null;
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (in.token().kind() == Kind.WORD) {
            Token at = in.token();
            String option = at.upper();
            if (option.equals("NO")) {
                in.accept("NO");
                option = in.token().upper();
            }
            if (!seen.add(option)) {
                throw DdlLexer.error("Sequence option " + option + " given twice", at.line(), at.column());
            }
            boolean no = at.is("NO");
            if (no && !option.equals("MINVALUE") && !option.equals("MAXVALUE") && !option.equals("CYCLE")) {
                throw DdlLexer.error("NO " + option + " is not a sequence option", at.line(), at.column());
            }
            switch (option) {
                case "AS" -> {
                    in.accept("AS");
                    type = in.type();
                }
                case "START" -> {
                    in.accept("START");
                    in.accept("WITH");
                    start = in.integer("a START value");
                }
                case "INCREMENT" -> {
                    in.accept("INCREMENT");
                    in.accept("BY");
                    increment = in.integer("an INCREMENT");
                }
                case "MINVALUE" -> {
                    in.accept("MINVALUE");
                    min = no ? null : in.integer("a MINVALUE");
                }
                case "MAXVALUE" -> {
                    in.accept("MAXVALUE");
                    max = no ? null : in.integer("a MAXVALUE");
                }
                case "CACHE" -> {
                    in.accept("CACHE");
                    long n = in.integer("a CACHE size");
                    if (n < 1 || n > 1_000_000) {
                        throw DdlLexer.error(ErrorCode.INVALID_DEFINITION, "CACHE (" + n
                                + ") must be between 1 and 1000000", at.line(), at.column());
                    }
                    cache = (int) n;
                }
                case "CYCLE" -> {
                    in.accept("CYCLE");
                    if (!no) {
                        throw DdlLexer.error(ErrorCode.FEATURE_NOT_SUPPORTED, "CYCLE sequences are not supported",
                                at.line(), at.column());
                    }
                }
                default -> throw in.expected(nested ? "a sequence option or \")\"" : "a sequence option");
            }
        }
        return new DdlStatement.SequenceOptions(type, start, increment, min, max, cache);
    }

    private void columnConstraint(TableParts t, String column) {
        String name = in.accept("CONSTRAINT") ? in.identifier("a constraint name") : null;
        Token at = in.token();
        if (in.accept("PRIMARY")) {
            in.expect("KEY");
            t.primaryKey(List.of(column), at);
        } else if (in.accept("UNIQUE")) {
            t.uniques.add(new TableSpec.IndexSpec(name, List.of(column), true, true));
        } else if (in.accept("REFERENCES")) {
            t.foreignKeys.add(references(name, List.of(column)));
        } else if (in.accept("CHECK")) {
            t.checks.add(new TableSpec.CheckSpec(name, CastSyntax.rewrite(in.parenthesized("a condition"))));
        } else {
            throw in.expected("PRIMARY KEY, UNIQUE, REFERENCES or CHECK");
        }
    }

    private void tableConstraint(TableParts t) {
        String name = in.accept("CONSTRAINT") ? in.identifier("a constraint name") : null;
        Token at = in.token();
        if (in.accept("CHECK")) {
            t.checks.add(new TableSpec.CheckSpec(name, CastSyntax.rewrite(in.parenthesized("a condition"))));
            return;
        }
        if (in.accept("PRIMARY")) {
            in.expect("KEY");
            t.primaryKey(columns(), at);
        } else if (in.accept("UNIQUE")) {
            t.uniques.add(new TableSpec.IndexSpec(name, columns(), true, true));
        } else if (in.accept("FOREIGN")) {
            in.expect("KEY");
            List<String> cols = columns();
            in.expect("REFERENCES");
            t.foreignKeys.add(references(name, cols));
        } else {
            throw in.expected("PRIMARY KEY, UNIQUE, FOREIGN KEY or CHECK");
        }
    }

    private DdlStatement createIndex(boolean unique) {
        boolean ifNotExists = ifNotExists();
        String name = in.plainName("an index name");
        in.expect("ON");
        String table = in.qualifiedName("a table name");
        in.expectSymbol('(');
        List<String> columns = new ArrayList<>();
        List<String> descending = new ArrayList<>();
        do {
            String column = in.identifier("a column name");
            columns.add(column);
            if (in.accept("DESC")) {
                descending.add(column);
            } else {
                in.accept("ASC");
            }
        } while (in.acceptSymbol(','));
        in.expectSymbol(')');
        return new DdlStatement.CreateIndex(name, table, columns, unique, ifNotExists, descending);
    }

    /** {@code table [(columns)] [ON DELETE action] [ON UPDATE action]}, after REFERENCES. */
    private TableSpec.ForeignKeySpec references(String name, List<String> columns) {
        String table = in.qualifiedName("a table name");
        List<String> refColumns = optionalColumns();
        ForeignKeyDef.Action onDelete = null;
        ForeignKeyDef.Action onUpdate = null;
        while (in.token().is("ON")) {
            in.accept("ON");
            Token at = in.token();
            if (in.accept("DELETE") && onDelete == null) {
                onDelete = action();
            } else if (in.accept("UPDATE") && onUpdate == null) {
                onUpdate = action();
            } else {
                throw DdlLexer.error("Expected DELETE or UPDATE (each once) after ON", at.line(), at.column());
            }
        }
        return new TableSpec.ForeignKeySpec(name, columns, table, refColumns,
                onDelete == null ? ForeignKeyDef.Action.NO_ACTION : onDelete,
                onUpdate == null ? ForeignKeyDef.Action.NO_ACTION : onUpdate);
    }

    /** {@code NO ACTION | RESTRICT | CASCADE | SET NULL}; SET DEFAULT is refused. */
    private ForeignKeyDef.Action action() {
        Token at = in.token();
        if (in.accept("NO")) {
            in.expect("ACTION");
            return ForeignKeyDef.Action.NO_ACTION;
        }
        if (in.accept("RESTRICT")) {
            return ForeignKeyDef.Action.RESTRICT;
        }
        if (in.accept("CASCADE")) {
            return ForeignKeyDef.Action.CASCADE;
        }
        if (in.accept("SET")) {
            if (in.accept("NULL")) {
                return ForeignKeyDef.Action.SET_NULL;
            }
            if (in.token().is("DEFAULT")) {
                throw DdlLexer.error(ErrorCode.FEATURE_NOT_SUPPORTED, "ON DELETE/UPDATE SET DEFAULT is not supported",
                        at.line(), at.column());
            }
            throw in.expected("NULL");
        }
        throw in.expected("NO ACTION, RESTRICT, CASCADE or SET NULL");
    }

    /** {@code ( column, ... )}. */
    private List<String> columns() {
        in.expectSymbol('(');
        List<String> columns = new ArrayList<>();
        do {
            columns.add(in.identifier("a column name"));
        } while (in.acceptSymbol(','));
        in.expectSymbol(')');
        return columns;
    }

    /** {@code [( column, ... )]}: empty when absent (the referenced primary key). */
    private List<String> optionalColumns() {
        return in.token().isSymbol('(') ? columns() : List.of();
    }

    private boolean ifNotExists() {
        if (!in.accept("IF")) {
            return false;
        }
        in.expect("NOT");
        in.expect("EXISTS");
        return true;
    }

    private boolean ifExists() {
        if (!in.accept("IF")) {
            return false;
        }
        in.expect("EXISTS");
        return true;
    }

    /** What a CREATE TABLE has said so far. */
    private static final class TableParts {
        final String name;
        final List<DdlStatement.Column> columns = new ArrayList<>();
        List<String> primaryKey = List.of();
        final List<TableSpec.IndexSpec> uniques = new ArrayList<>();
        final List<TableSpec.ForeignKeySpec> foreignKeys = new ArrayList<>();
        final List<TableSpec.CheckSpec> checks = new ArrayList<>();

        TableParts(String name) {
            this.name = name;
        }

        void primaryKey(List<String> columns, Token at) {
            if (!primaryKey.isEmpty()) {
                throw DdlLexer.error(ErrorCode.INVALID_DEFINITION, "Table " + name + " has more than one PRIMARY KEY",
                        at.line(), at.column());
            }
            primaryKey = columns;
        }
    }
}
