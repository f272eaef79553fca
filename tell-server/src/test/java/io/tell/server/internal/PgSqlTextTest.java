package io.tell.server.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's own reading of SQL text: statement splitting, placeholders, control commands, COPY and its formats. */
class PgSqlTextTest {
    @Test
    void splitsOnlyAtSemicolonsOutsideQuotesAndComments() {
        assertEquals(List.of("SELECT 'a;b'", "SELECT \"x;\"", "SELECT 1 -- c;", "SELECT $$;$$", "SELECT /* ; /* ; */ ; */ 2"),
                SqlScanner.split("SELECT 'a;b'; SELECT \"x;\";; SELECT 1 -- c;\n; SELECT $$;$$; SELECT /* ; /* ; */ ; */ 2;  "));
        assertEquals(List.of(), SqlScanner.split(" ; -- only a comment\n ;"));
        assertEquals(List.of("SELECT 'it''s; fine'"), SqlScanner.split("SELECT 'it''s; fine'"));
    }

    @Test
    void placeholdersBecomeQuestionMarks() {
        SqlScanner.Placeholders p = SqlScanner.placeholders("SELECT $2, '$1', x$1, $1 /* $3 */ FROM t WHERE a = $2");
        assertEquals("SELECT ?, '$1', x$1, ? /* $3 */ FROM t WHERE a = ?", p.sql());
        assertArrayEquals(new int[] {2, 1, 2}, p.order());
        assertEquals(2, p.maxIndex());
        assertThrows(TellException.class, () -> SqlScanner.placeholders("SELECT ? FROM t"));
        assertThrows(TellException.class, () -> SqlScanner.placeholders("SELECT $0"));
        assertEquals("SELECT '?'", SqlScanner.placeholders("SELECT '?'").sql());
    }

    @Test
    void controlCommands() {
        ControlCommand.Begin b = assertInstanceOf(ControlCommand.Begin.class,
                ControlCommands.parse("start transaction isolation level repeatable read, read only"));
        assertEquals(new ControlCommand.Modes("repeatable read", true), b.modes());
        assertEquals(new ControlCommand.Modes("serializable", null),
                assertInstanceOf(ControlCommand.Begin.class, ControlCommands.parse("BEGIN ISOLATION LEVEL SERIALIZABLE;")).modes());
        assertInstanceOf(ControlCommand.Commit.class, ControlCommands.parse("END"));
        assertInstanceOf(ControlCommand.Rollback.class, ControlCommands.parse("abort work"));
        assertEquals(new ControlCommand.RollbackTo("a"), ControlCommands.parse("ROLLBACK TO SAVEPOINT a"));
        assertEquals(new ControlCommand.RollbackTo("Mixed Case"), ControlCommands.parse("rollback work to \"Mixed Case\""));
        assertEquals(new ControlCommand.Savepoint("s1"), ControlCommands.parse("SAVEPOINT S1;"));
        assertEquals(new ControlCommand.Release("s1"), ControlCommands.parse("RELEASE s1"));
        assertEquals("42601", assertThrows(PgError.class, () -> ControlCommands.parse("SAVEPOINT")).sqlState());
        assertEquals(new ControlCommand.Maintenance("ANALYZE"), ControlCommands.parse("analyze"));
        assertEquals("ANALYZE", ControlCommands.parse("ANALYSE VERBOSE orders (o_id)").tag());
        assertEquals(new ControlCommand.Maintenance("VACUUM"), ControlCommands.parse("/* after the load */ VACUUM (ANALYZE) t"));
        assertNull(ControlCommands.parse("SELECT 1"));
        assertEquals(new ControlCommand.Set("search_path", "a, b"), ControlCommands.parse("SET search_path TO a, \"b\""));
        assertEquals(new ControlCommand.Set("timezone", "UTC"), ControlCommands.parse("set time zone 'UTC'"));
        assertEquals(new ControlCommand.Set("application_name", "it's"), ControlCommands.parse("SET SESSION application_name = 'it''s'"));
        assertEquals(new ControlCommand.SetTransaction(new ControlCommand.Modes("read committed", null), true),
                ControlCommands.parse("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED"));
        assertEquals(new ControlCommand.Show("transaction_isolation"), ControlCommands.parse("SHOW TRANSACTION ISOLATION LEVEL"));
        assertEquals(new ControlCommand.Reset(null), ControlCommands.parse("RESET ALL"));
        assertEquals("42601", assertThrows(PgError.class, () -> ControlCommands.parse("BEGIN ISOLATION LEVEL SOMETIMES")).sqlState());
        assertEquals("42601", assertThrows(PgError.class, () -> ControlCommands.parse("COMMIT now")).sqlState());
    }

    @Test
    void copyCommands() {
        CopyCommand c = CopyCommand.parse("COPY t (a, \"B\") FROM STDIN WITH (FORMAT csv, HEADER true, DELIMITER ';', NULL 'n/a')");
        assertEquals("t", c.table());
        assertEquals(List.of("a", "\"B\""), c.columns());
        assertTrue(c.csv() && c.header());
        assertEquals(';', c.delimiter());
        assertEquals("n/a", c.nullString());
        CopyCommand legacy = CopyCommand.parse("copy s.t from stdin csv header delimiter as ',' quote '\"'");
        assertTrue(legacy.csv() && legacy.header());
        assertEquals(',', legacy.delimiter());
        CopyCommand text = CopyCommand.parse("COPY t FROM STDIN;");
        assertEquals('\t', text.delimiter());
        assertEquals("\\N", text.nullString());
        assertNull(CopyCommand.parse("SELECT 1"));
        CopyCommand out = CopyCommand.parse("COPY t (a) TO STDOUT WITH (FORMAT csv)");
        assertTrue(out.toStdout() && out.csv() && out.query() == null);
        CopyCommand query = CopyCommand.parse("COPY (SELECT a FROM t WHERE b IN (1, 2)) TO STDOUT");
        assertEquals("SELECT a FROM t WHERE b IN (1, 2)", query.query());
        assertFalse(CopyCommand.parse("COPY t FROM STDIN").toStdout());
        assertEquals("0A000", assertThrows(PgError.class, () -> CopyCommand.parse("COPY t TO '/tmp/file'")).sqlState());
        assertEquals("0A000", assertThrows(PgError.class, () -> CopyCommand.parse("COPY (SELECT 1) FROM STDIN")).sqlState());
        assertEquals("0A000", assertThrows(PgError.class, () -> CopyCommand.parse("COPY t FROM STDIN (FORMAT binary)")).sqlState());
    }

    @Test
    void copyFormats() {
        CopyCommand text = CopyCommand.parse("COPY t FROM STDIN");
        assertEquals(Arrays.asList("a\tb", null, "", "\\N", "x\ny", "A", "\u0001"),
                CopyFormats.text("a\\tb\t\\N\t\t\\\\N\tx\\ny\t\\x41\t\\001", text));
        CopyCommand csv = CopyCommand.parse("COPY t FROM STDIN (FORMAT csv)");
        assertEquals(Arrays.asList("a,b", null, "", "say \"hi\"", "two\nlines"),
                CopyFormats.csv("\"a,b\",,\"\",\"say \"\"hi\"\"\",\"two\nlines\"", csv));
    }
}
