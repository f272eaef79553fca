package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlType;
import io.tell.sql.TableSpec;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DatabaseMetaData} over tables declared through the catalog API of the connection's
 * node (a named embedded database, so the test and the connection share it).
 */
class JdbcDatabaseMetaDataTest {
    private ProcessingNode node;
    private Connection connection;
    private DatabaseMetaData md;

    @BeforeEach
    void declareTables() throws SQLException {
        String url = "jdbc:tell:mem:meta-" + UUID.randomUUID();
        node = ProcessingNode.connect(url);
        node.catalog().createTable(TableSpec.builder("CUSTOMER")
                .notNull("ID", ColumnType.INTEGER)
                .notNull("EMAIL", ColumnType.varchar(100))
                .column(ColumnDef.of("BALANCE", ColumnType.decimal(12, 2)).withDefault(0))
                .column(ColumnDef.notNull("KIND", ColumnType.character(3)).withDefault("A'"))
                .column(ColumnDef.of("BORN", ColumnType.DATE).withDefault(LocalDate.of(2000, 1, 1)))
                .column("SEEN", ColumnType.TIMESTAMP)
                .primaryKey("ID")
                .unique("EMAIL")
                .index("CUSTOMER_BY_KIND", false, "KIND", "BORN")
                .build(), false);
        node.catalog().createTable(TableSpec.builder("ORDERS")
                .notNull("CUSTOMER_ID", ColumnType.INTEGER)
                .notNull("NO", ColumnType.BIGINT)
                .column("TOTAL", ColumnType.DOUBLE)
                .column("PAID", ColumnType.BOOLEAN)
                .column("BUYER", ColumnType.varchar(100))
                .primaryKey("NO", "CUSTOMER_ID")
                .foreignKey(List.of("CUSTOMER_ID"), "CUSTOMER", List.of())
                .foreignKey(List.of("BUYER"), "CUSTOMER", List.of("EMAIL"))
                .build(), false);
        node.catalog().createTable(TableSpec.builder("NOTES").column("TEXT", ColumnType.varchar(10)).build(), false);
        connection = DriverManager.getConnection(url, "ann", "");
        md = connection.getMetaData();
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
        node.close();
    }

    /** The rows of {@code rs} as lists of the named columns' values (getObject). */
    private static List<List<Object>> rows(ResultSet rs, String... labels) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (String label : labels) {
                    row.add(rs.getObject(label));
                }
                out.add(row);
            }
        }
        return out;
    }

    private static List<Object> column(ResultSet rs, String label) throws SQLException {
        return rows(rs, label).stream().map(r -> r.get(0)).toList();
    }

    @Test
    void tablesMatchPatternsInSchemaPublicWithoutCatalog() throws SQLException {
        assertEquals(List.of(List.of("PUBLIC", "CUSTOMER", "TABLE"), List.of("PUBLIC", "NOTES", "TABLE"),
                List.of("PUBLIC", "ORDERS", "TABLE")), rows(md.getTables(null, null, "%", null),
                "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE"));
        try (ResultSet rs = md.getTables(null, null, "CUSTOMER", null)) {
            assertTrue(rs.next());
            assertNull(rs.getString("TABLE_CAT"));
            assertNull(rs.getString("REMARKS"));
            assertFalse(rs.next());
            ResultSetMetaData rsmd = rs.getMetaData();
            assertEquals(10, rsmd.getColumnCount());
            assertEquals("TABLE_CAT", rsmd.getColumnLabel(1));
            assertEquals("REF_GENERATION", rsmd.getColumnLabel(10));
        }
        assertEquals(List.of("CUSTOMER"), column(md.getTables(null, "PUBLIC", "CUST%", new String[] {"TABLE"}), "TABLE_NAME"));
        assertEquals(List.of("ORDERS"), column(md.getTables("", "P_BLIC", "_RDERS", null), "TABLE_NAME"));
        assertEquals(List.of(), column(md.getTables(null, null, "customer", null), "TABLE_NAME"), "names are exact");
        assertEquals(List.of(), column(md.getTables(null, "OTHER", "%", null), "TABLE_NAME"));
        assertEquals(List.of(), column(md.getTables("TELL", null, "%", null), "TABLE_NAME"));
        assertEquals(List.of(), column(md.getTables(null, null, "%", new String[] {"VIEW"}), "TABLE_NAME"));
    }

    @Test
    void descendingIndexColumnsAreReportedSo() throws SQLException {
        try (java.sql.Statement s = connection.createStatement()) {
            s.execute("CREATE INDEX by_balance ON customer (balance DESC, id)");
        }
        assertEquals(List.of(List.of("BALANCE", "D"), List.of("ID", "A")),
                rows(md.getIndexInfo(null, null, "CUSTOMER", false, false), "INDEX_NAME", "COLUMN_NAME", "ASC_OR_DESC")
                        .stream().filter(r -> r.get(0).equals("BY_BALANCE")).map(r -> r.subList(1, 3)).toList());
    }

    @Test
    void viewsAndSequencesAreListedWithTheirTypes() throws SQLException {
        try (java.sql.Statement s = connection.createStatement()) {
            s.execute("CREATE VIEW rich (who, money) AS SELECT email, balance FROM customer WHERE balance > 100");
            s.execute("CREATE SEQUENCE tickets");
        }
        assertEquals(List.of(List.of("TICKETS", "SEQUENCE"), List.of("CUSTOMER", "TABLE"), List.of("NOTES", "TABLE"),
                List.of("ORDERS", "TABLE"), List.of("RICH", "VIEW")), rows(md.getTables(null, null, "%", null),
                "TABLE_NAME", "TABLE_TYPE"));
        assertEquals(List.of("RICH"), column(md.getTables(null, null, "%", new String[] {"VIEW"}), "TABLE_NAME"));
        assertEquals(List.of(List.of("WHO", "VARCHAR", 1), List.of("MONEY", "DECIMAL", 2)),
                rows(md.getColumns(null, null, "RICH", "%"), "COLUMN_NAME", "TYPE_NAME", "ORDINAL_POSITION"));
    }

    @Test
    void patternEscapesMatchLiterally() throws SQLException {
        node.catalog().createTable(TableSpec.builder("A_B").column("X", ColumnType.INTEGER).build(), false);
        node.catalog().createTable(TableSpec.builder("AXB").column("X", ColumnType.INTEGER).build(), false);
        assertEquals(List.of("AXB", "A_B"), column(md.getTables(null, null, "A_B", null), "TABLE_NAME"));
        String escape = md.getSearchStringEscape();
        assertEquals(List.of("A_B"), column(md.getTables(null, null, "A" + escape + "_B", null), "TABLE_NAME"));
    }

    @Test
    void columnsAsDeclared() throws SQLException {
        List<List<Object>> columns = rows(md.getColumns(null, "PUBLIC", "CUSTOMER", "%"), "COLUMN_NAME", "DATA_TYPE",
                "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS", "NULLABLE", "COLUMN_DEF", "ORDINAL_POSITION", "IS_NULLABLE",
                "IS_AUTOINCREMENT");
        assertEquals(List.of(
                List.of("ID", Types.INTEGER, "INTEGER", 10, 0, DatabaseMetaData.columnNoNulls, "-", 1, "NO", "NO"),
                List.of("EMAIL", Types.VARCHAR, "VARCHAR", 100, "-", DatabaseMetaData.columnNoNulls, "-", 2, "NO", "NO"),
                List.of("BALANCE", Types.DECIMAL, "DECIMAL", 12, 2, DatabaseMetaData.columnNullable, "0.00", 3, "YES", "NO"),
                List.of("KIND", Types.CHAR, "CHAR", 3, "-", DatabaseMetaData.columnNoNulls, "'A'' '", 4, "NO", "NO"),
                List.of("BORN", Types.DATE, "DATE", 10, "-", DatabaseMetaData.columnNullable, "DATE '2000-01-01'", 5, "YES",
                        "NO"),
                List.of("SEEN", Types.TIMESTAMP, "TIMESTAMP", 29, 9, DatabaseMetaData.columnNullable, "-", 6, "YES", "NO")),
                columns.stream().map(r -> r.stream().map(v -> v == null ? "-" : v).toList()).toList());
        try (ResultSet rs = md.getColumns(null, null, "CUSTOMER", "EMAIL")) {
            assertTrue(rs.next());
            assertEquals("CUSTOMER", rs.getString("TABLE_NAME"));
            assertEquals("PUBLIC", rs.getString("TABLE_SCHEM"));
            assertEquals(400, rs.getInt("CHAR_OCTET_LENGTH"));
            assertEquals(0, rs.getInt("NUM_PREC_RADIX"));
            assertTrue(rs.wasNull());
            assertEquals("NO", rs.getString("IS_GENERATEDCOLUMN"));
            assertEquals(24, rs.getMetaData().getColumnCount());
            assertFalse(rs.next());
        }
        assertEquals(List.of("BALANCE", "BORN", "BUYER"), column(md.getColumns(null, null, "%", "B%"), "COLUMN_NAME"));
        assertEquals(List.of(2, 3), column(md.getColumns(null, null, "ORDERS", "_O%"), "ORDINAL_POSITION"));
    }

    @Test
    void numericColumnsReportPrecisionAndRadix() throws SQLException {
        List<List<Object>> columns = rows(md.getColumns(null, null, "ORDERS", null), "COLUMN_NAME", "COLUMN_SIZE",
                "NUM_PREC_RADIX");
        assertEquals(List.of("NO", 19, 10), columns.get(1));
        assertEquals(List.of("TOTAL", 53, 2), columns.get(2));
        assertEquals("PAID", columns.get(3).get(0));
    }

    @Test
    void primaryKeysInColumnNameOrderWithTheirSequence() throws SQLException {
        assertEquals(List.of(List.of("ID", 1, "CUSTOMER_PK")),
                rows(md.getPrimaryKeys(null, null, "CUSTOMER"), "COLUMN_NAME", "KEY_SEQ", "PK_NAME"));
        assertEquals(List.of(List.of("CUSTOMER_ID", 2), List.of("NO", 1)),
                rows(md.getPrimaryKeys(null, "PUBLIC", "ORDERS"), "COLUMN_NAME", "KEY_SEQ"));
        assertEquals(List.of(), rows(md.getPrimaryKeys(null, null, "NOTES"), "COLUMN_NAME"));
        assertEquals(List.of(), rows(md.getPrimaryKeys(null, null, "ORD%"), "COLUMN_NAME"), "not a pattern");
    }

    @Test
    void indexesWithUniquenessAndOrdinalPositions() throws SQLException {
        assertEquals(List.of(
                        List.of(false, "CUSTOMER_PK", 1, "ID"),
                        List.of(false, "CUSTOMER_UNIQUE_1", 1, "EMAIL"),
                        List.of(true, "CUSTOMER_BY_KIND", 1, "KIND"),
                        List.of(true, "CUSTOMER_BY_KIND", 2, "BORN")),
                rows(md.getIndexInfo(null, null, "CUSTOMER", false, false), "NON_UNIQUE", "INDEX_NAME", "ORDINAL_POSITION",
                        "COLUMN_NAME"));
        assertEquals(List.of("CUSTOMER_PK", "CUSTOMER_UNIQUE_1"),
                column(md.getIndexInfo(null, null, "CUSTOMER", true, true), "INDEX_NAME"));
        try (ResultSet rs = md.getIndexInfo(null, null, "CUSTOMER", true, false)) {
            assertTrue(rs.next());
            assertEquals(DatabaseMetaData.tableIndexOther, rs.getShort("TYPE"));
            assertEquals("A", rs.getString("ASC_OR_DESC"));
            assertEquals("CUSTOMER", rs.getString("TABLE_NAME"));
        }
        assertEquals(List.of(), column(md.getIndexInfo(null, null, "NOTES", false, false), "INDEX_NAME"));
    }

    @Test
    void foreignKeysBothWays() throws SQLException {
        String[] labels = {"PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "FK_NAME", "PK_NAME"};
        List<List<Object>> imported = List.of(
                List.of("CUSTOMER", "ID", "ORDERS", "CUSTOMER_ID", 1, "ORDERS_FK_1", "CUSTOMER_PK"),
                List.of("CUSTOMER", "EMAIL", "ORDERS", "BUYER", 1, "ORDERS_FK_2", "CUSTOMER_UNIQUE_1"));
        assertEquals(imported, rows(md.getImportedKeys(null, null, "ORDERS"), labels));
        assertEquals(imported, rows(md.getExportedKeys(null, "PUBLIC", "CUSTOMER"), labels));
        assertEquals(imported, rows(md.getCrossReference(null, null, "CUSTOMER", null, null, "ORDERS"), labels));
        assertEquals(List.of(), rows(md.getCrossReference(null, null, "ORDERS", null, null, "CUSTOMER"), labels));
        assertEquals(List.of(), rows(md.getImportedKeys(null, null, "CUSTOMER"), labels));
        try (ResultSet rs = md.getImportedKeys(null, null, "ORDERS")) {
            assertTrue(rs.next());
            assertEquals("PUBLIC", rs.getString("PKTABLE_SCHEM"));
            assertEquals("PUBLIC", rs.getString("FKTABLE_SCHEM"));
            assertEquals(DatabaseMetaData.importedKeyNoAction, rs.getShort("DELETE_RULE"));
            assertEquals(DatabaseMetaData.importedKeyNotDeferrable, rs.getShort("DEFERRABILITY"));
            assertEquals(14, rs.getMetaData().getColumnCount());
        }
    }

    @Test
    void theCatalogIsReadAfresh() throws SQLException {
        node.catalog().dropTable("NOTES", false);
        assertEquals(List.of("CUSTOMER", "ORDERS"), column(md.getTables(null, null, null, null), "TABLE_NAME"));
        try (Connection other = DriverManager.getConnection(md.getURL())) {
            assertEquals(List.of("CUSTOMER", "ORDERS"), column(other.getMetaData().getTables(null, null, "%", null),
                    "TABLE_NAME"));
        }
    }

    @Test
    void schemasCatalogsAndTypes() throws SQLException {
        assertEquals(List.of(List.of("PUBLIC", "-")), rows(md.getSchemas(), "TABLE_SCHEM", "TABLE_CATALOG").stream()
                .map(r -> r.stream().map(v -> v == null ? "-" : v).toList()).toList());
        assertEquals(List.of(), column(md.getSchemas(null, "X%"), "TABLE_SCHEM"));
        assertEquals(List.of(), column(md.getCatalogs(), "TABLE_CAT"));
        assertEquals(List.of("SEQUENCE", "TABLE", "VIEW"), column(md.getTableTypes(), "TABLE_TYPE"));
        List<List<Object>> types = rows(md.getTypeInfo(), "TYPE_NAME", "DATA_TYPE");
        assertEquals(SqlType.values().length, types.size());
        List<Integer> codes = types.stream().map(r -> (Integer) r.get(1)).toList();
        assertEquals(codes.stream().sorted().toList(), codes, "ordered by DATA_TYPE");
        assertTrue(types.contains(List.of("VARCHAR", Types.VARCHAR)));
        assertTrue(types.contains(List.of("TIMESTAMP", Types.TIMESTAMP)));
        assertEquals(List.of(), column(md.getProcedures(null, null, "%"), "PROCEDURE_NAME"));
        assertEquals(List.of("ID"), column(md.getBestRowIdentifier(null, null, "CUSTOMER", DatabaseMetaData.bestRowSession,
                false), "COLUMN_NAME"));
        assertEquals(3, column(md.getClientInfoProperties(), "NAME").size());
    }

    @Test
    void identityAndCapabilities() throws SQLException {
        assertEquals("Tell", md.getDatabaseProductName());
        assertEquals(TellDriver.VERSION, md.getDatabaseProductVersion());
        assertEquals("0.1.0-SNAPSHOT", md.getDriverVersion());
        assertEquals(0, md.getDriverMajorVersion());
        assertEquals(1, md.getDriverMinorVersion());
        assertEquals("ann", md.getUserName());
        assertTrue(md.getURL().startsWith("jdbc:tell:mem:meta-"));
        assertSame(connection, md.getConnection());
        assertTrue(md.supportsTransactions());
        assertTrue(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_REPEATABLE_READ));
        assertTrue(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_SERIALIZABLE));
        assertFalse(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_NONE));
        assertEquals(Connection.TRANSACTION_REPEATABLE_READ, md.getDefaultTransactionIsolation());
        assertTrue(md.storesUpperCaseIdentifiers());
        assertTrue(md.supportsBatchUpdates());
        assertTrue(md.supportsSavepoints());
        assertFalse(md.supportsStoredProcedures());
        assertEquals("\"", md.getIdentifierQuoteString());
        assertTrue(md.supportsResultSetType(ResultSet.TYPE_FORWARD_ONLY));
        assertFalse(md.supportsResultSetType(ResultSet.TYPE_SCROLL_INSENSITIVE));
        assertTrue(md.supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY));
        assertFalse(md.supportsResultSetConcurrency(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_UPDATABLE));
        assertEquals(4, md.getJDBCMajorVersion());
        assertEquals(DatabaseMetaData.sqlStateSQL, md.getSQLStateType());
        assertTrue(md.isWrapperFor(TellDatabaseMetaData.class));
    }

    @Test
    void aClosedConnectionHasNoMetadata() throws SQLException {
        connection.close();
        SQLException e = assertThrows(SQLException.class, () -> md.getTables(null, null, "%", null));
        assertEquals("08003", e.getSQLState());
    }
}
