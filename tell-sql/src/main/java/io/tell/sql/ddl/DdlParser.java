package io.tell.sql.ddl;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnType;
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
 *   column:           name type [DEFAULT literal] [NOT NULL | NULL] [[CONSTRAINT n] PRIMARY KEY]
 *                     [[CONSTRAINT n] UNIQUE] [[CONSTRAINT n] REFERENCES table [(column)]]  (any order)
 *   table-constraint: [CONSTRAINT n] PRIMARY KEY (columns) | [CONSTRAINT n] UNIQUE (columns)
 *                     | [CONSTRAINT n] FOREIGN KEY (columns) REFERENCES table [(columns)]
 * CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column [ASC], ...)
 * DROP TABLE [IF EXISTS] name
 * DROP INDEX [IF EXISTS] name
 * </pre>
 *
 * Types and literals: {@link DdlTerms}. Keywords are case-insensitive; unquoted identifiers fold
 * to upper case and {@code "quoted"} ones keep their case, as on the query side. An optional
 * {@code ;} may end the statement. Errors are {@link ErrorCode#SQL_SYNTAX} saying what was
 * expected and what was found, their message ending in {@code (at line L, column C)}.
 */
public final class DdlParser {
    private final DdlTerms in;

    private DdlParser(String sql) {
        this.in = new DdlTerms(new DdlLexer(sql));
    }

    /** True when the first keyword, after white space and comments, is CREATE or DROP. */
    public static boolean isDdl(String sql) {
        try {
            Token first = new DdlLexer(sql).next();
            return first.is("CREATE") || first.is("DROP");
        } catch (TellException e) {
            return false;
        }
    }

    /** Parses one DDL statement. */
    public static DdlStatement parse(String sql) {
        DdlParser p = new DdlParser(sql);
        DdlStatement statement = p.statement();
        p.in.acceptSymbol(';');
        if (p.in.token().kind() != Kind.END) {
            throw p.in.expected("end of statement");
        }
        return statement;
    }

    private DdlStatement statement() {
        if (in.accept("CREATE")) {
            if (in.accept("TABLE")) {
                return createTable();
            }
            boolean unique = in.accept("UNIQUE");
            if (in.accept("INDEX")) {
                return createIndex(unique);
            }
            throw in.expected(unique ? "INDEX" : "TABLE, INDEX or UNIQUE INDEX");
        }
        if (in.accept("DROP")) {
            if (in.accept("TABLE")) {
                boolean ifExists = ifExists();
                return new DdlStatement.DropTable(in.identifier("a table name"), ifExists);
            }
            if (in.accept("INDEX")) {
                boolean ifExists = ifExists();
                return new DdlStatement.DropIndex(in.identifier("an index name"), ifExists);
            }
            throw in.expected("TABLE or INDEX");
        }
        throw in.expected("CREATE or DROP");
    }

    private DdlStatement createTable() {
        boolean ifNotExists = ifNotExists();
        TableParts t = new TableParts(in.identifier("a table name"));
        in.expectSymbol('(');
        do {
            if (in.token().is("CONSTRAINT") || in.token().is("PRIMARY") || in.token().is("UNIQUE")
                    || in.token().is("FOREIGN")) {
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
        return new DdlStatement.CreateTable(t.name, ifNotExists, t.columns, t.primaryKey, t.uniques, t.foreignKeys);
    }

    private void column(TableParts t) {
        String name = in.identifier("a column name");
        ColumnType type = in.type();
        Boolean nullable = null;
        Object defaultValue = null;
        boolean hasDefault = false;
        while (!in.token().isSymbol(',') && !in.token().isSymbol(')')) {
            Token at = in.token();
            if (in.accept("DEFAULT")) {
                if (hasDefault) {
                    throw DdlLexer.error("DEFAULT given twice for column " + name, at.line(), at.column());
                }
                defaultValue = in.literal();
                hasDefault = true;
            } else if (at.is("NOT") || at.is("NULL")) {
                boolean notNull = in.accept("NOT");
                in.expect("NULL");
                if (nullable != null && nullable == notNull) {
                    throw DdlLexer.error("Conflicting NULL and NOT NULL for column " + name, at.line(), at.column());
                }
                nullable = !notNull;
            } else if (at.is("CONSTRAINT") || at.is("PRIMARY") || at.is("UNIQUE") || at.is("REFERENCES")) {
                columnConstraint(t, name);
            } else {
                throw in.expected("a column constraint, \",\" or \")\"");
            }
        }
        t.columns.add(new DdlStatement.Column(name, type, nullable == null || nullable, defaultValue));
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
            String table = in.identifier("a table name");
            t.foreignKeys.add(new TableSpec.ForeignKeySpec(name, List.of(column), table, optionalColumns()));
        } else {
            throw in.expected("PRIMARY KEY, UNIQUE or REFERENCES");
        }
    }

    private void tableConstraint(TableParts t) {
        String name = in.accept("CONSTRAINT") ? in.identifier("a constraint name") : null;
        Token at = in.token();
        if (in.accept("PRIMARY")) {
            in.expect("KEY");
            t.primaryKey(columns(), at);
        } else if (in.accept("UNIQUE")) {
            t.uniques.add(new TableSpec.IndexSpec(name, columns(), true, true));
        } else if (in.accept("FOREIGN")) {
            in.expect("KEY");
            List<String> cols = columns();
            in.expect("REFERENCES");
            String table = in.identifier("a table name");
            t.foreignKeys.add(new TableSpec.ForeignKeySpec(name, cols, table, optionalColumns()));
        } else {
            throw in.expected("PRIMARY KEY, UNIQUE or FOREIGN KEY");
        }
    }

    private DdlStatement createIndex(boolean unique) {
        boolean ifNotExists = ifNotExists();
        String name = in.identifier("an index name");
        in.expect("ON");
        String table = in.identifier("a table name");
        in.expectSymbol('(');
        List<String> columns = new ArrayList<>();
        do {
            columns.add(in.identifier("a column name"));
            Token at = in.token();
            if (in.accept("DESC")) {
                throw DdlLexer.error(ErrorCode.FEATURE_NOT_SUPPORTED, "Descending index columns are not supported",
                        at.line(), at.column());
            }
            in.accept("ASC");
        } while (in.acceptSymbol(','));
        in.expectSymbol(')');
        return new DdlStatement.CreateIndex(name, table, columns, unique, ifNotExists);
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
