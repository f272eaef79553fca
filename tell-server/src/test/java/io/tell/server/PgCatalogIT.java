package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The JDBC driver's DatabaseMetaData against a PN server: the expected rows are what PostgreSQL
 * 15 returns for the same DDL (checked by hand against one), except the catalog name and
 * the names Tell gives unnamed constraints.
 */
class PgCatalogIT {
    static final List<String> DDL = List.of(
            "CREATE TABLE dept (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL UNIQUE)",
            "CREATE TABLE emp (id BIGINT PRIMARY KEY, dept_id INTEGER REFERENCES dept(id), name VARCHAR(50) NOT NULL,"
                    + " salary DECIMAL(10,2) DEFAULT 0, born DATE, hired TIMESTAMP, active BOOLEAN, score DOUBLE,"
                    + " code CHAR(3), small SMALLINT, r REAL)",
            "CREATE INDEX emp_name ON emp(name)");

    private static PgTestServer server;
    private static Connection c;

    @BeforeAll
    static void start() throws SQLException {
        server = PgTestServer.trust();
        c = server.connect();
        try (Statement s = c.createStatement()) {
            for (String ddl : DDL) {
                s.execute(ddl);
            }
        }
    }

    @AfterAll
    static void stop() throws SQLException {
        c.close();
        server.close();
    }

    @Test
    void tables() throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        assertEquals(List.of("tell|public|dept|TABLE", "tell|public|emp|TABLE"),
                rows(md.getTables(null, null, "%", new String[] {"TABLE"}), "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE"));
        assertEquals(List.of("emp"), rows(md.getTables(null, "public", "e%", new String[] {"TABLE"}), "TABLE_NAME"));
        assertEquals(List.of("emp_name|INDEX", "emp_pkey|INDEX", "emp|TABLE"), rows(md.getTables(null, "public", "e%", null),
                "TABLE_NAME", "TABLE_TYPE"));
        assertEquals(List.of(), rows(md.getTables(null, "other", "%", null), "TABLE_NAME"));
        assertEquals(List.of(), rows(md.getTables(null, null, "%", new String[] {"VIEW"}), "TABLE_NAME"));
        assertEquals(List.of("public|tell"), rows(md.getSchemas(), "TABLE_SCHEM", "TABLE_CATALOG"));
        assertEquals(List.of("tell"), rows(md.getCatalogs(), "TABLE_CAT"));
        assertTrue(rows(md.getTableTypes(), "TABLE_TYPE").contains("TABLE"));
        List<String> types = rows(md.getTypeInfo(), "TYPE_NAME", "DATA_TYPE");
        assertTrue(types.containsAll(List.of("int4|4", "varchar|12", "numeric|2", "timestamp|93")), types::toString);
    }

    @Test
    void columns() throws SQLException {
        List<String> cols = rows(c.getMetaData().getColumns(null, null, "emp", "%"), "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME",
                "COLUMN_SIZE", "DECIMAL_DIGITS", "NULLABLE", "ORDINAL_POSITION", "IS_NULLABLE");
        assertEquals(List.of(
                "id|-5|int8|19|0|0|1|NO",
                "dept_id|4|int4|10|0|1|2|YES",
                "name|12|varchar|50|0|0|3|NO",
                "salary|2|numeric|10|2|1|4|YES",
                "born|91|date|13|0|1|5|YES",
                "hired|93|timestamp|29|6|1|6|YES",
                "active|-7|bool|1|0|1|7|YES",
                "score|8|float8|17|17|1|8|YES",
                "code|1|bpchar|3|0|1|9|YES",
                "small|5|int2|5|0|1|10|YES",
                "r|7|float4|8|8|1|11|YES"), cols);
        assertEquals(List.of("dept|name|12"), rows(c.getMetaData().getColumns(null, "public", "dept", "n_m%"),
                "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE"));
        List<String> salary = rows(c.getMetaData().getColumns(null, null, "emp", "salary"), "COLUMN_DEF");
        assertEquals(1, salary.size());
        assertTrue(salary.get(0).matches("0(\\.00)?"), salary::toString);
    }

    @Test
    void keysAndIndexes() throws SQLException {
        DatabaseMetaData md = c.getMetaData();
        assertEquals(List.of("emp|id|1|emp_pkey"), rows(md.getPrimaryKeys(null, null, "emp"),
                "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"));
        assertEquals(List.of("f|emp_pkey|3|1|id|A", "t|emp_name|3|1|name|A"), rows(md.getIndexInfo(null, null, "emp", false, false),
                "NON_UNIQUE", "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC"));
        List<String> dept = rows(md.getIndexInfo(null, null, "dept", true, false), "NON_UNIQUE", "INDEX_NAME", "COLUMN_NAME");
        assertEquals(2, dept.size(), dept::toString);
        assertEquals("f|dept_pkey|id", dept.get(0));
        assertTrue(dept.get(1).matches("f\\|dept_\\w+\\|name"), dept::toString);
        List<String> imported = rows(md.getImportedKeys(null, null, "emp"), "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_NAME",
                "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE", "DELETE_RULE", "PK_NAME", "DEFERRABILITY");
        assertEquals(List.of("dept|id|emp|dept_id|1|3|3|dept_pkey|7"), imported);
        assertEquals(1, rows(md.getExportedKeys(null, null, "dept"), "FK_NAME").size());
        assertEquals(List.of(), rows(md.getImportedKeys(null, null, "dept"), "FK_NAME"));
    }

    @Test
    void sameAnswersServerPreparedBinaryAndSimple() throws SQLException {
        String[] columns = {"COLUMN_NAME", "DATA_TYPE", "COLUMN_SIZE", "NULLABLE", "ORDINAL_POSITION"};
        List<String> expected = rows(c.getMetaData().getColumns(null, null, "emp", "%"), columns);
        try (Connection binary = server.connect("prepareThreshold=1&binaryTransfer=true")) {
            for (int i = 0; i < 3; i++) {
                assertEquals(expected, rows(binary.getMetaData().getColumns(null, null, "emp", "%"), columns));
                assertEquals(List.of("f|emp_pkey|1", "t|emp_name|1"), rows(binary.getMetaData().getIndexInfo(null, null, "emp",
                        false, false), "NON_UNIQUE", "INDEX_NAME", "ORDINAL_POSITION"));
            }
        }
        try (Connection simple = server.connect("preferQueryMode=simple")) { // the names inlined as literals
            assertEquals(expected, rows(simple.getMetaData().getColumns(null, null, "emp", "%"), columns));
            assertEquals(List.of("emp|id|1"), rows(simple.getMetaData().getPrimaryKeys(null, null, "emp"),
                    "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ"));
        }
    }

    @Test
    void resultSetMetaDataAndUnknownCatalogQueries() throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("INSERT INTO dept VALUES (1, 'R&D')");
            try (ResultSet rs = s.executeQuery("SELECT id, name FROM dept")) {
                ResultSetMetaData m = rs.getMetaData();
                assertEquals("int4", m.getColumnTypeName(1));
                assertEquals(ResultSetMetaData.columnNoNulls, m.isNullable(2)); // NOT NULL
                assertFalse(m.isAutoIncrement(1));
                assertEquals("dept", m.getTableName(1));
                assertEquals("public", ((org.postgresql.PGResultSetMetaData) m).getBaseSchemaName(2));
                assertEquals("name", ((org.postgresql.PGResultSetMetaData) m).getBaseColumnName(2));
                assertTrue(rs.next());
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) AS n, max(name) FROM dept")) {
                ResultSetMetaData m = rs.getMetaData();
                assertEquals("", m.getTableName(1)); // not a column of a table: no OID, no question
                assertEquals(ResultSetMetaData.columnNullableUnknown, m.isNullable(2)); // as PostgreSQL says for max(name)
            }
            try (ResultSet rs = s.executeQuery("SELECT current_database()")) {
                assertTrue(rs.next());
                assertEquals("tell", rs.getString(1));
            }
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT proname FROM pg_catalog.pg_proc"));
            assertEquals("0A000", e.getSQLState());
            assertTrue(e.getMessage().contains("pg_catalog.pg_proc"), e::getMessage);
        }
    }

    /**
     * The same DDL in a scratch schema of the local PostgreSQL 15 (127.0.0.1:5432, user postgres,
     * database test; skipped where there is none): the metadata rows agree column for column, but
     * for the names of unnamed constraints and the default's text.
     */
    @Test
    void sameAsPostgreSql() throws SQLException {
        Connection pg;
        try {
            pg = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "postgres");
        } catch (SQLException e) {
            assumeTrue(false, "no local PostgreSQL to compare with: " + e.getMessage());
            return;
        }
        String schema = "pgcat_it_" + ProcessHandle.current().pid();
        try (pg; Statement s = pg.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
            try {
                s.execute("SET search_path = " + schema);
                for (String ddl : DDL) {
                    s.execute(ddl.replace("score DOUBLE,", "score DOUBLE PRECISION,"));
                }
                DatabaseMetaData tell = c.getMetaData();
                DatabaseMetaData postgres = pg.getMetaData();
                String[] columns = {"TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH",
                    "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE",
                    "IS_AUTOINCREMENT", "IS_GENERATEDCOLUMN"};
                for (String table : List.of("dept", "emp")) {
                    assertEquals(rows(postgres.getColumns(null, schema, table, "%"), columns),
                            rows(tell.getColumns(null, "public", table, "%"), columns), table);
                    assertEquals(rows(postgres.getPrimaryKeys(null, schema, table), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"),
                            rows(tell.getPrimaryKeys(null, "public", table), "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"));
                }
                String[] index = {"TABLE_NAME", "NON_UNIQUE", "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME",
                    "ASC_OR_DESC", "FILTER_CONDITION"};
                assertEquals(rows(postgres.getIndexInfo(null, schema, "emp", false, false), index),
                        rows(tell.getIndexInfo(null, "public", "emp", false, false), index));
                String[] keys = {"PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE",
                    "DELETE_RULE", "PK_NAME", "DEFERRABILITY"};
                assertEquals(rows(postgres.getImportedKeys(null, schema, "emp"), keys), rows(tell.getImportedKeys(null, "public", "emp"), keys));
                for (String[] types : new String[][] {null, {"TABLE"}, {"INDEX"}, {"SYSTEM TABLE", "VIEW"}}) {
                    assertEquals(rows(postgres.getTables(null, schema, "emp%", types), "TABLE_NAME", "TABLE_TYPE", "REMARKS"),
                            rows(tell.getTables(null, "public", "emp%", types), "TABLE_NAME", "TABLE_TYPE", "REMARKS"));
                }
            } finally {
                s.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }

    /** The rows of {@code rs}, each the given columns joined by {@code |}. */
    static List<String> rows(ResultSet rs, String... columns) throws SQLException {
        List<String> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                List<String> values = new ArrayList<>();
                for (String col : columns) {
                    values.add(rs.getString(col));
                }
                out.add(String.join("|", values));
            }
        }
        return out;
    }
}
