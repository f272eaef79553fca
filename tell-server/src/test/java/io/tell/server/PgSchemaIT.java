package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Schemas through a PN server: search_path and SET SCHEMA, the JDBC driver's metadata and psql's \dn, \dt and \d. */
class PgSchemaIT {
    private static PgTestServer server;

    @BeforeAll
    static void start() throws SQLException {
        server = PgTestServer.trust();
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE item (id int PRIMARY KEY, name varchar(10))");
            s.execute("INSERT INTO item VALUES (1, 'public')");
            s.execute("CREATE SCHEMA shop");
            s.execute("CREATE TABLE shop.item (id int PRIMARY KEY, name varchar(10) UNIQUE)");
            s.execute("CREATE TABLE shop.orders (id int PRIMARY KEY, item int REFERENCES shop.item)");
            s.execute("INSERT INTO shop.item VALUES (1, 'shop')");
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void searchPathAndSetSchemaChooseWhereBareNamesGo() throws SQLException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            assertEquals(List.of("public"), strings(s.executeQuery("SELECT name FROM item")));
            assertEquals(List.of("public"), strings(s.executeQuery("SELECT current_schema()")));
            s.execute("SET search_path TO shop, public");
            assertEquals(List.of("shop"), strings(s.executeQuery("SELECT name FROM item")));
            assertEquals(List.of("shop"), strings(s.executeQuery("SELECT current_schema()")));
            assertEquals(List.of("shop, public"), strings(s.executeQuery("SHOW search_path")));
            s.execute("RESET search_path");
            assertEquals(List.of("public"), strings(s.executeQuery("SELECT name FROM item")));
            c.setSchema("shop"); // the driver sends SET SESSION SCHEMA 'shop'
            assertEquals(List.of("shop"), strings(s.executeQuery("SELECT name FROM item")));
            assertEquals("shop", c.getSchema());
            assertEquals(List.of("public"), strings(s.executeQuery("SELECT name FROM public.item")));
            s.execute("CREATE SCHEMA scratch");
            s.execute("SET SCHEMA 'scratch'");
            s.execute("CREATE TABLE made_here (x int)");
        }
        try (Connection c = server.connect("currentSchema=shop"); Statement s = c.createStatement()) {
            assertEquals(List.of("shop"), strings(s.executeQuery("SELECT name FROM item")));
            assertEquals(List.of(), strings(s.executeQuery("SELECT x FROM scratch.made_here")));
        }
    }

    @Test
    void driverMetadataNamesEachTablesSchema() throws SQLException {
        try (Connection c = server.connect()) {
            DatabaseMetaData md = c.getMetaData();
            List<String> schemas = column(md.getSchemas(), "TABLE_SCHEM");
            assertTrue(schemas.containsAll(List.of("public", "shop")), schemas::toString);
            assertEquals(List.of("shop.item", "shop.orders"), qualified(md.getTables(null, "shop", "%", new String[] {"TABLE"})));
            assertEquals(List.of("public.item"), qualified(md.getTables(null, "public", "item", new String[] {"TABLE"})));
            assertEquals(List.of("id", "name"), column(md.getColumns(null, "shop", "item", "%"), "COLUMN_NAME"));
            assertEquals(List.of("item_pkey"), column(md.getPrimaryKeys(null, "shop", "item"), "PK_NAME"));
            ResultSet fk = md.getImportedKeys(null, "shop", "orders");
            assertTrue(fk.next());
            assertEquals(List.of("shop", "item", "shop", "orders"), List.of(fk.getString("PKTABLE_SCHEM"),
                    fk.getString("PKTABLE_NAME"), fk.getString("FKTABLE_SCHEM"), fk.getString("FKTABLE_NAME")));
        }
    }

    @Test
    void psqlListsAndDescribesTablesOfOtherSchemas() throws IOException, InterruptedException {
        List<String> schemas = server.psql("-t", "-c", "\\dn");
        assertTrue(schemas.containsAll(List.of("public|tell", "shop|tell")), schemas::toString);
        List<String> visible = server.psql("-t", "-c", "\\dt");
        assertTrue(visible.contains("public|item|table|tell") && visible.stream().noneMatch(l -> l.startsWith("shop|")),
                visible::toString);
        assertEquals(List.of("shop|item|table|tell", "shop|orders|table|tell"), server.psql("-t", "-c", "\\dt shop.*"));
        List<String> described = server.psql("-c", "\\d shop.item");
        assertEquals("Table \"shop.item\"", described.get(0).strip(), described::toString);
        assertTrue(described.contains("    \"item_pkey\" PRIMARY KEY, btree (id)"), described::toString);
        assertEquals(List.of("1\tshop"), server.psql("-c", "\\copy shop.item to stdout"));
        assertEquals(List.of("SET", "shop|item|table|tell"), server.psql("-t", "-c", "SET search_path TO shop", "-c", "\\dt item"));
    }

    private static List<String> strings(ResultSet rs) throws SQLException {
        return column(rs, null);
    }

    private static List<String> column(ResultSet rs, String label) throws SQLException {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(label == null ? rs.getString(1) : rs.getString(label));
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
