package io.tell.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnType;
import io.tell.sql.TableSpec.ForeignKeySpec;
import io.tell.sql.TableSpec.IndexSpec;
import io.tell.sql.ddl.DdlStatement.Column;
import io.tell.sql.ddl.DdlStatement.CreateIndex;
import io.tell.sql.ddl.DdlStatement.CreateTable;
import io.tell.sql.ddl.DdlStatement.DropIndex;
import io.tell.sql.ddl.DdlStatement.DropTable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class DdlParserTest {

    private static CreateTable table(String sql) {
        return (CreateTable) DdlParser.parse(sql);
    }

    private static Column column(String definition) {
        return table("CREATE TABLE t (" + definition + ")").columns().get(0);
    }

    private static ColumnType type(String type) {
        return column("c " + type).type();
    }

    private static Object defaultOf(String type, String literal) {
        return column("c " + type + " DEFAULT " + literal).defaultValue();
    }

    private static TellException error(String sql) {
        return assertThrows(TellException.class, () -> DdlParser.parse(sql));
    }

    private static void assertSyntaxError(String sql, String message) {
        TellException e = error(sql);
        assertSame(ErrorCode.SQL_SYNTAX, e.code(), e.getMessage());
        assertEquals(message, e.getMessage());
    }

    @Test
    void ddlIsRecognisedByItsFirstKeyword() {
        assertTrue(DdlParser.isDdl("CREATE TABLE t (a INT)"));
        assertTrue(DdlParser.isDdl("  -- a comment\n /* another\n one */ drop index i"));
        assertTrue(DdlParser.isDdl("Create"));
        assertFalse(DdlParser.isDdl("SELECT 1"));
        assertFalse(DdlParser.isDdl("CREATED"));
        assertFalse(DdlParser.isDdl("\"CREATE\" TABLE"));
        assertFalse(DdlParser.isDdl(""));
        assertFalse(DdlParser.isDdl("/* never closed"));
        assertFalse(DdlParser.isDdl("'CREATE'"));
    }

    @Test
    void everyTypeAndItsSpellings() {
        assertEquals(ColumnType.INTEGER, type("INTEGER"));
        assertEquals(ColumnType.INTEGER, type("int"));
        assertEquals(ColumnType.BIGINT, type("BIGINT"));
        assertEquals(ColumnType.SMALLINT, type("smallint"));
        assertEquals(ColumnType.decimal(10, 2), type("DECIMAL(10, 2)"));
        assertEquals(ColumnType.decimal(7, 0), type("NUMERIC(7)"));
        assertEquals(ColumnType.decimal(DdlTerms.DEFAULT_DECIMAL_PRECISION, 0), type("decimal"));
        assertEquals(ColumnType.DOUBLE, type("DOUBLE"));
        assertEquals(ColumnType.DOUBLE, type("DOUBLE PRECISION"));
        assertEquals(ColumnType.DOUBLE, type("FLOAT"));
        assertEquals(ColumnType.REAL, type("REAL"));
        assertEquals(ColumnType.varchar(20), type("VARCHAR(20)"));
        assertEquals(ColumnType.varchar(20), type("CHARACTER VARYING (20)"));
        assertEquals(ColumnType.varchar(3), type("char varying(3)"));
        assertEquals(ColumnType.character(4), type("CHAR(4)"));
        assertEquals(ColumnType.character(4), type("CHARACTER(4)"));
        assertEquals(ColumnType.character(1), type("CHAR"));
        assertEquals(ColumnType.character(1), type("CHARACTER"));
        assertEquals(ColumnType.BOOLEAN, type("BOOLEAN"));
        assertEquals(ColumnType.DATE, type("DATE"));
        assertEquals(ColumnType.TIMESTAMP, type("TIMESTAMP"));
        assertEquals(ColumnType.TIMESTAMP, type("timestamp without time zone"));
    }

    @Test
    void unquotedNamesFoldToUpperCaseAndQuotedOnesKeepTheirCase() {
        CreateTable t = table("create table Orders (\"Id\" int, customer_Name varchar(5), \"a\"\"b\" int)");
        assertEquals("ORDERS", t.name());
        assertEquals(List.of("Id", "CUSTOMER_NAME", "a\"b"), t.columns().stream().map(Column::name).toList());
        assertEquals(new DropTable("My Table", false), DdlParser.parse("DROP TABLE \"My Table\""));
    }

    @Test
    void commentsCaseAndATrailingSemicolonDoNotMatter() {
        String sql = """
                /* the customers
                   table */
                Create TABLE -- name next
                  customer ( id BIGINT /* the key */ PRIMARY key ) ;
                """;
        CreateTable t = table(sql);
        assertEquals("CUSTOMER", t.name());
        assertEquals(List.of("ID"), t.primaryKey());
        assertEquals(new DropIndex("I", true), DdlParser.parse("drop index if exists i; -- done"));
    }

    @Test
    void defaultLiterals() {
        assertEquals(42L, defaultOf("INT", "42"));
        assertEquals(-42L, defaultOf("INT", "-42"));
        assertEquals(7L, defaultOf("INT", "+7"));
        assertEquals(new BigDecimal("-1.50"), defaultOf("DECIMAL(5, 2)", "-1.50"));
        assertEquals(new BigDecimal(".5"), defaultOf("DECIMAL(5, 2)", ".5"));
        assertEquals(new BigDecimal("99999999999999999999"), defaultOf("DECIMAL(30)", "99999999999999999999"));
        assertEquals(-1.5e3, defaultOf("DOUBLE", "-1.5E3"));
        assertEquals("it's", defaultOf("VARCHAR(9)", "'it''s'"));
        assertEquals("", defaultOf("VARCHAR(9)", "''"));
        assertEquals(true, defaultOf("BOOLEAN", "TRUE"));
        assertEquals(false, defaultOf("BOOLEAN", "false"));
        assertNull(defaultOf("INT", "NULL"));
        assertEquals(LocalDate.of(2024, 2, 29), defaultOf("DATE", "DATE '2024-02-29'"));
        assertEquals(LocalDateTime.of(2024, 2, 29, 10, 11, 12, 500_000_000),
                defaultOf("TIMESTAMP", "TIMESTAMP '2024-02-29 10:11:12.5'"));
        assertEquals(LocalDateTime.of(2024, 2, 29, 10, 11), defaultOf("TIMESTAMP", "timestamp '2024-02-29 10:11'"));
    }

    @Test
    void columnClausesComeInAnyOrder() {
        CreateTable t = table("CREATE TABLE t (a INT UNIQUE NOT NULL DEFAULT 3 PRIMARY KEY, "
                + "b INT NULL REFERENCES other, c INT REFERENCES other (x) DEFAULT 0 CONSTRAINT c_u UNIQUE, "
                + "d INT CONSTRAINT d_fk REFERENCES other(y))");
        assertEquals(List.of(new Column("A", ColumnType.INTEGER, false, 3L), new Column("B", ColumnType.INTEGER, true, null),
                new Column("C", ColumnType.INTEGER, true, 0L), new Column("D", ColumnType.INTEGER, true, null)), t.columns());
        assertEquals(List.of("A"), t.primaryKey());
        assertEquals(List.of(new IndexSpec(null, List.of("A"), true, true), new IndexSpec("C_U", List.of("C"), true, true)),
                t.uniques());
        assertEquals(List.of(new ForeignKeySpec(null, List.of("B"), "OTHER", List.of()),
                new ForeignKeySpec(null, List.of("C"), "OTHER", List.of("X")),
                new ForeignKeySpec("D_FK", List.of("D"), "OTHER", List.of("Y"))), t.foreignKeys());
        assertFalse(t.ifNotExists());
    }

    @Test
    void tableConstraints() {
        CreateTable t = table("""
                CREATE TABLE IF NOT EXISTS order_line (
                  o_id INT, line SMALLINT, item INT, w_id INT, code CHAR(2),
                  CONSTRAINT ol_pk PRIMARY KEY (o_id, line),
                  UNIQUE (item, code),
                  CONSTRAINT ol_code UNIQUE (code),
                  FOREIGN KEY (o_id) REFERENCES orders,
                  CONSTRAINT ol_stock FOREIGN KEY (item, w_id) REFERENCES stock (s_i_id, s_w_id)
                )""");
        assertTrue(t.ifNotExists());
        assertEquals(List.of("O_ID", "LINE"), t.primaryKey());
        assertEquals(List.of(new IndexSpec(null, List.of("ITEM", "CODE"), true, true),
                new IndexSpec("OL_CODE", List.of("CODE"), true, true)), t.uniques());
        assertEquals(List.of(new ForeignKeySpec(null, List.of("O_ID"), "ORDERS", List.of()),
                new ForeignKeySpec("OL_STOCK", List.of("ITEM", "W_ID"), "STOCK", List.of("S_I_ID", "S_W_ID"))),
                t.foreignKeys());
    }

    @Test
    void indexesAndDrops() {
        assertEquals(new CreateIndex("BY_NAME", "CUSTOMER", List.of("LAST", "FIRST"), false, false),
                DdlParser.parse("CREATE INDEX by_name ON customer (last, first ASC)"));
        assertEquals(new CreateIndex("U", "T", List.of("A"), true, true),
                DdlParser.parse("create unique index if not exists u on t(a);"));
        assertEquals(new DropTable("T", true), DdlParser.parse("DROP TABLE IF EXISTS t"));
        assertEquals(new DropTable("T", false), DdlParser.parse("DROP TABLE t"));
        assertEquals(new DropIndex("I", false), DdlParser.parse("DROP INDEX i"));
        assertEquals(new CreateIndex("I", "T", List.of("A", "B", "C"), false, false, List.of("B")),
                DdlParser.parse("CREATE INDEX i ON t (a ASC, b DESC, c)"));
    }

    @Test
    void syntaxErrorsSayWhatWasExpectedAndWhere() {
        assertSyntaxError("CREATE TABLE t (a INT",
                "Expected \",\" or \")\" but found end of input (at line 1, column 22)");
        assertSyntaxError("CREATE TABLE t (a INT, b INT   \n  -- trailing comment\n",
                "Expected \",\" or \")\" but found end of input (at line 1, column 29)");
        assertSyntaxError("CREATE TABLE t a INT)", "Expected \"(\" but found \"a\" (at line 1, column 16)");
        assertSyntaxError("CREATE TABLE t (\n  id INT,\n  name XML\n)", "Unknown type \"XML\" (at line 3, column 8)");
        assertSyntaxError("DROP TABLE t x", "Expected end of statement but found \"x\" (at line 1, column 14)");
        assertSyntaxError("CREATE TABLE t (a INT REFERENCES u ON INSERT CASCADE)",
                "Expected DELETE or UPDATE (each once) after ON (at line 1, column 39)");
        assertSyntaxError("DROP TABLE t;;", "Expected end of statement but found \";\" (at line 1, column 14)");
        assertSyntaxError("CREATE TABLE t ()",
                "Expected a column name or table constraint but found \")\" (at line 1, column 17)");
        assertSyntaxError("CREATE TABLE t (a INT) garbage",
                "Expected end of statement but found \"garbage\" (at line 1, column 24)");
        assertSyntaxError("CREATE TRIGGER v", "Expected TABLE, INDEX, UNIQUE INDEX, SEQUENCE, VIEW or SCHEMA but found \"TRIGGER\" (at line 1, column 8)");
        assertSyntaxError("CREATE VIEW v", "Expected AS but found end of input (at line 1, column 14)");
        assertSyntaxError("CREATE OR REPLACE TABLE t (a INT)", "Expected VIEW but found \"TABLE\" (at line 1, column 19)");
        assertSyntaxError("ALTER TABLE t", "Expected ADD, DROP, RENAME or ALTER but found end of input (at line 1, column 14)");
        assertSyntaxError("ALTER VIEW v", "Expected TABLE but found \"VIEW\" (at line 1, column 7)");
        assertSyntaxError("ALTER TABLE t ALTER c SET", "Expected DEFAULT, NOT NULL or DATA TYPE but found end of input (at line 1, column 26)");
        assertSyntaxError("/* x\n*/ DROP TRIGGER v", "Expected TABLE, INDEX, SEQUENCE, VIEW or SCHEMA but found \"TRIGGER\" (at line 2, column 9)");
        assertSyntaxError("CREATE TABLE t (a VARCHAR)", "Expected \"(\" but found \")\" (at line 1, column 26)");
        assertSyntaxError("CREATE TABLE t (a DECIMAL(5,))", "Expected a scale but found \")\" (at line 1, column 29)");
        assertSyntaxError("CREATE TABLE t (a INT DEFAULT)", "Expected a literal but found \")\" (at line 1, column 30)");
        assertSyntaxError("CREATE TABLE t (a INT NOT)", "Expected NULL but found \")\" (at line 1, column 26)");
        assertSyntaxError("CREATE TABLE t (a INT PRIMARY)", "Expected KEY but found \")\" (at line 1, column 30)");
        assertSyntaxError("CREATE TABLE t (a INT CHECK (a > 0)",
                "Expected \",\" or \")\" but found end of input (at line 1, column 36)");
        assertSyntaxError("CREATE TABLE t (a INT CHECK (a > (0)", "Unclosed \"(\" (at line 1, column 29)");
        assertSyntaxError("CREATE TABLE t (a INT CHECK a > 0)", "Expected \"(\" and a condition but found \"a\" (at line 1, column 29)");
        assertSyntaxError("CREATE TABLE c.s.t (a INT)", "Expected a table name of at most two parts, schema.name (at line 1, column 14)");
        assertSyntaxError("DROP TABLE \"s.t\"", "A schema, table, view, sequence or index name cannot contain '.': \"s.t\" (at line 1, column 12)");
        assertSyntaxError("CREATE INDEX s.i ON t (a)", "Expected ON but found \".\" (at line 1, column 15)");
        assertSyntaxError("CREATE TABLE t (a VARCHAR(3) DEFAULT 'ab", "Unterminated string (at line 1, column 38)");
        assertSyntaxError("CREATE TABLE \"t (a INT)", "Unterminated quoted identifier (at line 1, column 14)");
        assertSyntaxError("CREATE TABLE t (a INT) /* oops", "Unterminated comment (at line 1, column 24)");
        assertSyntaxError("CREATE TABLE t (a INT @)", "Unexpected character \"@\" (at line 1, column 23)");
        assertSyntaxError("CREATE TABLE \"\" (a INT)", "Expected a table name but found \"\" (at line 1, column 14)");
        assertSyntaxError("CREATE INDEX i t (a)", "Expected ON but found \"t\" (at line 1, column 16)");
        assertSyntaxError("DROP TABLE IF t", "Expected EXISTS but found \"t\" (at line 1, column 15)");
        assertSyntaxError("CREATE TABLE t (a INT DEFAULT 1 DEFAULT 2)", "DEFAULT given twice for column A (at line 1, column 33)");
        assertSyntaxError("CREATE TABLE t (a INT NOT NULL NULL)",
                "Conflicting NULL and NOT NULL for column A (at line 1, column 32)");
        assertSyntaxError("CREATE TABLE t (a DATE DEFAULT DATE '2024-02-30')",
                "Bad DATE literal '2024-02-30' (at line 1, column 37)");
        assertSyntaxError("CREATE TABLE t (a INT DEFAULT -'1')", "Expected a number but found \"'1'\" (at line 1, column 32)");
        assertSyntaxError("CREATE TABLE t (a VARCHAR(99999999999))",
                "Number 99999999999 is too large for a length (at line 1, column 27)");
    }

    @Test
    void semanticProblemsTheParserSeesKeepTheirOwnCodes() {
        TellException e = error("CREATE TABLE t (a INT PRIMARY KEY, b INT, PRIMARY KEY (b))");
        assertSame(ErrorCode.INVALID_DEFINITION, e.code());
        assertEquals("Table T has more than one PRIMARY KEY (at line 1, column 43)", e.getMessage());
        e = error("CREATE TABLE t (a VARCHAR(0))");
        assertSame(ErrorCode.INVALID_DEFINITION, e.code());
        assertTrue(e.getMessage().endsWith(" (at line 1, column 19)"), e.getMessage());
        e = error("CREATE TABLE t (a DECIMAL(2, 5))");
        assertSame(ErrorCode.INVALID_DEFINITION, e.code());
        e = error("CREATE TABLE t (a TIMESTAMP DEFAULT LOCALTIME)");
        assertSame(ErrorCode.FEATURE_NOT_SUPPORTED, e.code());
        assertEquals("DEFAULT LOCALTIME is not supported (at line 1, column 37)", e.getMessage());
        e = error("CREATE TABLE t (a TIME WITH TIME ZONE)");
        assertSame(ErrorCode.FEATURE_NOT_SUPPORTED, e.code());
    }
}
