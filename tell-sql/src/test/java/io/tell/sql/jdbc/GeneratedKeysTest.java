package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Generated keys through the embedded driver: identity columns, named columns, batches, metadata. */
class GeneratedKeysTest {
    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:tell:mem:");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE person (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name VARCHAR(20),"
                    + " age INT DEFAULT 30)");
            s.execute("CREATE TABLE plain (k INT PRIMARY KEY, v VARCHAR(5))");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void statementReturnsTheIdentityColumnAsKey() throws SQLException {
        try (Statement s = c.createStatement()) {
            assertEquals(2, s.executeUpdate("INSERT INTO person (name) VALUES ('ann'), ('bob')",
                    Statement.RETURN_GENERATED_KEYS));
            assertEquals(List.of(1L, 2L), longs(s.getGeneratedKeys(), "ID"));
            assertEquals(1, s.getGeneratedKeys().getMetaData().getColumnCount());
            assertFalse(s.execute("INSERT INTO person (name) VALUES ('cy')", new String[] {"id", "Name"}));
            assertEquals(1, s.getUpdateCount());
            ResultSet keys = s.getGeneratedKeys();
            assertTrue(keys.next());
            assertEquals(3L, keys.getLong("ID"));
            assertEquals("cy", keys.getString(2));
            // A statement without keys asked for leaves none.
            s.executeUpdate("INSERT INTO person (name) VALUES ('dee')");
            assertFalse(s.getGeneratedKeys().next());
            // A table without generated columns returns whole rows.
            s.executeUpdate("INSERT INTO plain VALUES (7, 'x')", Statement.RETURN_GENERATED_KEYS);
            ResultSet row = s.getGeneratedKeys();
            assertTrue(row.next());
            assertEquals(7, row.getInt("K"));
            assertEquals("x", row.getString("V"));
        }
    }

    @Test
    void preparedStatementReturnsKeysPerExecutionAndForAWholeBatch() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO person (name, age) VALUES (?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, "ann");
            ps.setInt(2, 40);
            assertEquals(1, ps.executeUpdate());
            assertEquals(List.of(1L), longs(ps.getGeneratedKeys(), "ID"));
            for (int i = 0; i < 5; i++) {
                ps.setString(1, "p" + i);
                ps.setInt(2, i);
                ps.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1, 1, 1}, ps.executeBatch());
            assertEquals(List.of(2L, 3L, 4L, 5L, 6L), longs(ps.getGeneratedKeys(), "ID"));
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE person SET age = age + 1 WHERE age < ?",
                new String[] {"ID", "AGE"})) {
            ps.setInt(1, 2);
            assertEquals(2, ps.executeUpdate());
            List<String> rows = new ArrayList<>();
            ResultSet keys = ps.getGeneratedKeys();
            while (keys.next()) {
                rows.add(keys.getLong(1) + ":" + keys.getInt(2));
            }
            rows.sort(null);
            assertEquals(List.of("2:1", "3:2"), rows);
        }
    }

    @Test
    void aFailedBatchWithKeysLeavesNothing() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO plain VALUES (?, ?)", new String[] {"k"})) {
            ps.setInt(1, 1);
            ps.setString(2, "a");
            ps.addBatch();
            ps.setInt(1, 1);
            ps.setString(2, "b");
            ps.addBatch();
            assertThrows(BatchUpdateException.class, ps::executeBatch);
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM plain")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1));
        }
    }

    @Test
    void badRequestsAreRefusedClearly() throws SQLException {
        SQLException unknown = assertThrows(SQLException.class,
                () -> c.prepareStatement("INSERT INTO person (name) VALUES ('x')", new String[] {"nope"}));
        assertEquals("42000", unknown.getSQLState());
        assertTrue(unknown.getMessage().contains("NOPE") || unknown.getMessage().contains("nope"), unknown::getMessage);
        assertThrows(SQLFeatureNotSupportedException.class,
                () -> c.prepareStatement("INSERT INTO person (name) VALUES ('x')", new int[] {1}));
        try (Statement s = c.createStatement()) {
            SQLException always = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO person (id, name) VALUES (5, 'x')", Statement.RETURN_GENERATED_KEYS));
            assertEquals("428C9", always.getSQLState());
            // A query asked for keys is still a query.
            assertTrue(s.execute("SELECT 1 FROM plain", Statement.RETURN_GENERATED_KEYS));
        }
    }

    @Test
    void metadataShowsIdentityColumnsAndSequences() throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE SEQUENCE tickets START WITH 5");
        }
        DatabaseMetaData md = c.getMetaData();
        assertTrue(md.supportsGetGeneratedKeys());
        try (ResultSet cols = md.getColumns(null, null, "PERSON", "%")) {
            List<String> auto = new ArrayList<>();
            while (cols.next()) {
                auto.add(cols.getString("COLUMN_NAME") + "=" + cols.getString("IS_AUTOINCREMENT"));
            }
            assertEquals(List.of("ID=YES", "NAME=NO", "AGE=NO"), auto);
        }
        List<String> sequences = new ArrayList<>();
        try (ResultSet t = md.getTables(null, null, "%", new String[] {"SEQUENCE"})) {
            while (t.next()) {
                sequences.add(t.getString("TABLE_NAME"));
            }
        }
        assertEquals(List.of("PERSON_ID_SEQ", "TICKETS"), sequences);
    }

    private static List<Long> longs(ResultSet rs, String column) throws SQLException {
        List<Long> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getLong(column));
        }
        return out;
    }
}
