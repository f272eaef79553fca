package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Schemas through the embedded driver: setSchema as the schema path, one plan cache for sessions on different paths, metadata. */
class JdbcSchemaTest {
    private String url;
    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        url = "jdbc:tell:mem:schemas-" + UUID.randomUUID().toString().substring(0, 8);
        c = DriverManager.getConnection(url);
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
            s.execute("INSERT INTO t VALUES (1, 'public')");
            s.execute("CREATE SCHEMA app");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void setSchemaIsWhereUnqualifiedNamesAreCreatedAndFound() throws SQLException {
        assertEquals("PUBLIC", c.getSchema());
        c.setSchema("APP");
        assertEquals("APP", c.getSchema());
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v VARCHAR(10),"
                    + " parent INT REFERENCES public.t)");
            assertEquals(1, s.executeUpdate("INSERT INTO t (v, parent) VALUES ('app', 1)", Statement.RETURN_GENERATED_KEYS));
            ResultSet keys = s.getGeneratedKeys();
            assertTrue(keys.next());
            assertEquals(1, keys.getInt(1));
            assertEquals(List.of("app"), strings(s.executeQuery("SELECT v FROM t")));
            assertEquals(List.of("public"), strings(s.executeQuery("SELECT v FROM public.t")));
            ResultSet rs = s.executeQuery("SELECT v FROM t");
            assertEquals("APP", rs.getMetaData().getSchemaName(1));
            assertEquals("T", rs.getMetaData().getTableName(1));
            rs.close();
            // The path is APP alone (JDBC's setSchema, like PostgreSQL's driver): PUBLIC's other tables need their schema.
            s.execute("CREATE TABLE public.only_public (x INT)");
            assertEquals("42000", assertThrows(SQLException.class, () -> s.executeQuery("SELECT x FROM only_public"))
                    .getSQLState());
        }
        c.setSchema("PUBLIC");
        try (Statement s = c.createStatement()) {
            assertEquals(List.of("public"), strings(s.executeQuery("SELECT v FROM t")));
            assertEquals(List.of("app"), strings(s.executeQuery("SELECT v FROM app.t")));
        }
        assertEquals("3F000", assertThrows(SQLException.class, () -> c.setSchema("NOWHERE")).getSQLState());
        assertEquals("PUBLIC", c.getSchema());
    }

    @Test
    void sessionsOnDifferentPathsShareTheNodeButNotTheirPlans() throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE app.t (id INT PRIMARY KEY, v VARCHAR(10))");
            s.execute("INSERT INTO app.t VALUES (1, 'app')");
        }
        try (Connection other = DriverManager.getConnection(url)) {
            other.setSchema("APP");
            String sql = "SELECT v FROM t WHERE id = ?";
            for (int round = 0; round < 2; round++) {
                try (PreparedStatement mine = c.prepareStatement(sql); PreparedStatement theirs = other.prepareStatement(sql)) {
                    mine.setInt(1, 1);
                    theirs.setInt(1, 1);
                    assertEquals(List.of("public"), strings(mine.executeQuery()));
                    assertEquals(List.of("app"), strings(theirs.executeQuery()));
                }
            }
            // The driver's currentSchema property (lower case is an unquoted name), and a path set before the session opens.
            java.util.Properties props = new java.util.Properties();
            props.setProperty("currentSchema", "app, public");
            try (Connection byProperty = DriverManager.getConnection(url, props); Statement s = byProperty.createStatement()) {
                assertEquals("APP", byProperty.getSchema());
                assertEquals(List.of("app"), strings(s.executeQuery("SELECT v FROM t")));
                s.execute("CREATE TABLE made_in_app (x INT)");
                assertEquals(List.of(), strings(s.executeQuery("SELECT x FROM app.made_in_app")));
            }
            try (Connection fresh = DriverManager.getConnection(url)) {
                fresh.setSchema("APP");
                try (Statement s = fresh.createStatement()) {
                    assertEquals(List.of("app"), strings(s.executeQuery("SELECT v FROM t")));
                }
            }
        }
    }

    @Test
    void namesOffThePathAreNeverTaken() throws SQLException {
        java.util.Properties props = new java.util.Properties();
        props.setProperty("currentSchema", "nowhere");
        try (Connection off = DriverManager.getConnection(url, props); Statement s = off.createStatement()) {
            SQLException drop = assertThrows(SQLException.class, () -> s.execute("DROP TABLE t"));
            assertEquals("42P01", drop.getSQLState());
            assertTrue(drop.getMessage().contains("NOWHERE.T"), drop.getMessage());
            assertEquals("3F000", assertThrows(SQLException.class, () -> s.execute("CREATE TABLE u (x INT)")).getSQLState());
        }
        try (Statement s = c.createStatement()) {
            assertEquals(List.of("public"), strings(s.executeQuery("SELECT v FROM t")));
        }
    }

    @Test
    void metadataReportsEachRelationInItsSchema() throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE app.child (id INT PRIMARY KEY, t_id INT REFERENCES public.t, CONSTRAINT uq UNIQUE (t_id))");
            s.execute("CREATE VIEW app.kids AS SELECT id FROM app.child");
            s.execute("CREATE SEQUENCE app.numbers");
        }
        DatabaseMetaData md = c.getMetaData();
        assertEquals(List.of("APP", "PUBLIC"), column(md.getSchemas(), "TABLE_SCHEM"));
        assertEquals(List.of("APP"), column(md.getSchemas(null, "A%"), "TABLE_SCHEM"));
        assertEquals(List.of("APP.NUMBERS", "APP.CHILD", "APP.KIDS"), qualified(md.getTables(null, "APP", "%", null)));
        assertEquals(List.of("PUBLIC.T"), qualified(md.getTables(null, "PUBLIC", "%", null)));
        assertEquals(List.of("APP.CHILD", "PUBLIC.T"), qualified(md.getTables(null, null, "%", new String[] {"TABLE"})));
        assertEquals(List.of("ID", "T_ID"), column(md.getColumns(null, "APP", "CHILD", "%"), "COLUMN_NAME"));
        assertEquals(List.of(), column(md.getColumns(null, "PUBLIC", "CHILD", "%"), "COLUMN_NAME"));
        assertEquals(List.of("CHILD_PK"), column(md.getPrimaryKeys(null, "APP", "CHILD"), "PK_NAME"));
        assertEquals(List.of("CHILD_PK", "UQ"), column(md.getIndexInfo(null, "APP", "CHILD", true, false), "INDEX_NAME"));
        ResultSet fk = md.getImportedKeys(null, "APP", "CHILD");
        assertTrue(fk.next());
        assertEquals(List.of("PUBLIC", "T", "APP", "CHILD", "CHILD_FK_1"), List.of(fk.getString("PKTABLE_SCHEM"),
                fk.getString("PKTABLE_NAME"), fk.getString("FKTABLE_SCHEM"), fk.getString("FKTABLE_NAME"),
                fk.getString("FK_NAME")));
        assertEquals(List.of("CHILD"), column(md.getExportedKeys(null, "PUBLIC", "T"), "FKTABLE_NAME"));
        assertEquals(List.of(), column(md.getExportedKeys(null, "APP", "T"), "FKTABLE_NAME"));
    }

    private static List<String> strings(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getString(1));
        }
        rs.close();
        return out;
    }

    private static List<String> column(ResultSet rs, String label) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getString(label));
        }
        rs.close();
        return out;
    }

    private static List<String> qualified(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getString("TABLE_SCHEM") + "." + rs.getString("TABLE_NAME"));
        }
        rs.close();
        return out;
    }
}
