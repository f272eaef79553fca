package io.tell.server;

import static io.tell.server.PgJdbcIT.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * COPY … FROM STDIN and TO STDOUT through the JDBC driver's CopyManager: text and CSV, NULLs,
 * escapes, a failed load leaving nothing, and exports that load back unchanged.
 */
class PgCopyIT {
    private static PgTestServer server;

    @BeforeAll
    static void start() {
        server = PgTestServer.trust();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void textFormat() throws SQLException, IOException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE copy_text (id INTEGER PRIMARY KEY, name VARCHAR(30), born DATE)");
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            StringBuilder data = new StringBuilder();
            for (int i = 0; i < 1000; i++) {
                data.append(i).append('\t').append(i == 7 ? "tab\\there" : "n" + i).append('\t')
                        .append(i == 8 ? "\\N" : "2024-01-0" + (1 + i % 9)).append('\n');
            }
            assertEquals(1000, copy.copyIn("COPY copy_text FROM STDIN", new StringReader(data.toString())));
            assertEquals(1000, count(s, "SELECT count(*) FROM copy_text"));
            try (ResultSet rs = s.executeQuery("SELECT name, born FROM copy_text WHERE id IN (7, 8) ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals("tab\there", rs.getString(1));
                assertTrue(rs.next());
                assertNull(rs.getString(2));
            }
        }
    }

    @Test
    void csvWithHeaderQuotesAndColumnList() throws SQLException, IOException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE copy_csv (id INTEGER PRIMARY KEY, note VARCHAR(40), amount DECIMAL(8,2))");
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            String csv = "amount,id,note\n1.50,1,\"a, b\"\n,2,\"say \"\"hi\"\"\"\n3,3,\"two\nlines\"\n4,4,\n";
            assertEquals(4, copy.copyIn("COPY copy_csv (amount, id, note) FROM STDIN WITH (FORMAT csv, HEADER true)",
                    new StringReader(csv)));
            try (ResultSet rs = s.executeQuery("SELECT id, note, amount FROM copy_csv ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals("a, b", rs.getString(2));
                assertEquals("1.50", rs.getString(3));
                assertTrue(rs.next());
                assertEquals("say \"hi\"", rs.getString(2));
                assertNull(rs.getString(3));
                assertTrue(rs.next());
                assertEquals("two\nlines", rs.getString(2));
                assertTrue(rs.next());
                assertNull(rs.getString(2)); // an unquoted empty field is NULL in CSV
            }
            assertEquals(1, copy.copyIn("COPY copy_csv FROM STDIN CSV DELIMITER ';'", new StringReader("5;x;2.5\n")));
        }
    }

    @Test
    void exportsLoadBackUnchangedInTextAndCsv() throws SQLException, IOException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE copy_src (id INTEGER PRIMARY KEY, note VARCHAR(40), amount DECIMAL(8,2))");
            s.execute("INSERT INTO copy_src VALUES (1, 'plain', 1.50), (2, 'tab\there, comma', NULL), (3, 'say \"hi\"', 3.00),"
                    + " (4, 'back\\slash', 4.25), (5, '', 5.00), (6, NULL, 6.00)");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO copy_src VALUES (7, ?, 7.00)")) {
                p.setString(1, "two\nlines");
                p.executeUpdate();
            }
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            for (String format : new String[] {"", " WITH (FORMAT csv)", " CSV DELIMITER ';'"}) {
                StringWriter exported = new StringWriter();
                assertEquals(7, copy.copyOut("COPY copy_src TO STDOUT" + format, exported));
                s.execute("CREATE TABLE copy_dst (id INTEGER PRIMARY KEY, note VARCHAR(40), amount DECIMAL(8,2))");
                assertEquals(7, copy.copyIn("COPY copy_dst FROM STDIN" + format, new StringReader(exported.toString())));
                assertEquals(0, count(s, "SELECT count(*) FROM copy_src a LEFT JOIN copy_dst b ON a.id = b.id"
                        + " WHERE b.id IS NULL OR a.note <> b.note OR (a.note IS NULL) <> (b.note IS NULL)"
                        + " OR a.amount <> b.amount OR (a.amount IS NULL) <> (b.amount IS NULL)"), format + ":\n" + exported);
                s.execute("DROP TABLE copy_dst");
            }
            StringWriter text = new StringWriter();
            copy.copyOut("COPY copy_src (id, note) TO STDOUT", text);
            assertTrue(text.toString().startsWith("1\tplain\n2\ttab\\there, comma\n3\tsay \"hi\"\n4\tback\\\\slash\n5\t\n6\t\\N\n"),
                    text.toString());
            StringWriter query = new StringWriter();
            assertEquals(2, copy.copyOut("COPY (SELECT id, amount * 2 AS twice FROM copy_src WHERE id IN (1, 3) ORDER BY id)"
                    + " TO STDOUT WITH (FORMAT csv, HEADER)", query));
            assertEquals("ID,TWICE\n1,3.00\n3,6.00\n", query.toString());
        }
    }

    /** A bad row fails the whole load (one transaction), with PostgreSQL's error states, and the connection goes on. */
    @Test
    void badRowLoadsNothing() throws SQLException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE copy_bad (id INTEGER PRIMARY KEY, v INTEGER)");
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            SQLException e = assertThrows(SQLException.class,
                    () -> copy.copyIn("COPY copy_bad FROM STDIN", new StringReader("1\t1\n2\t2\n3\n")));
            assertEquals("22P04", e.getSQLState());
            e = assertThrows(SQLException.class, () -> copy.copyIn("COPY copy_bad FROM STDIN", new StringReader("1\t1\n1\t2\n")));
            assertEquals("23505", e.getSQLState());
            // PostgreSQL's wording, with the key in the Detail field
            org.postgresql.util.ServerErrorMessage m = ((org.postgresql.util.PSQLException) e).getServerErrorMessage();
            assertEquals("duplicate key value violates unique constraint \"COPY_BAD_PK\"", m.getMessage());
            assertEquals("Key (ID)=(1) already exists.", m.getDetail());
            assertEquals(0, count(s, "SELECT count(*) FROM copy_bad"));
            assertEquals("0A000", assertThrows(SQLException.class,
                    () -> copy.copyIn("COPY copy_bad FROM STDIN (FORMAT binary)", new StringReader(""))).getSQLState());
        }
    }
}
