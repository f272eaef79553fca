package io.tell.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * psql's describe commands against a PN server, on {@link PgCatalogIT}'s tables: the lines are
 * what psql 15 prints for the same DDL on PostgreSQL 15 (unaligned), but for the owner and the
 * names Tell gives unnamed constraints. Skipped only where psql is not installed.
 */
class PgPsqlDescribeIT {
    private static PgTestServer server;

    @BeforeAll
    static void start() throws SQLException {
        server = PgTestServer.trust();
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            for (String ddl : PgCatalogIT.DDL) {
                s.execute(ddl);
            }
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void listsTablesIndexesAndSchemas() throws IOException, InterruptedException {
        assertEquals(List.of("public|dept|table|tell", "public|emp|table|tell"), psql("-t", "-c", "\\dt"));
        assertEquals(List.of("public|dept|table|tell", "public|emp|table|tell"), psql("-t", "-c", "\\d"));
        assertEquals(List.of("public|emp|table|tell"), psql("-t", "-c", "\\dt e*"));
        List<String> indexes = psql("-t", "-c", "\\di");
        assertEquals(4, indexes.size(), indexes::toString);
        assertTrue(indexes.containsAll(List.of("public|dept_pkey|index|tell|dept", "public|emp_name|index|tell|emp",
                "public|emp_pkey|index|tell|emp")), indexes::toString);
        assertEquals(List.of("public|emp_name|index|tell|emp"), psql("-t", "-c", "\\di emp_n*"));
        assertEquals(List.of("public|tell"), psql("-t", "-c", "\\dn"));
        assertEquals(List.of("tell|tell|UTF8||||libc|"), psql("-t", "-c", "\\l"));
        assertEquals(List.of("Schema|Name|Type|Owner|Persistence|Access method|Size|Description",
                "public|dept|table|tell|permanent|||", "public|emp|table|tell|permanent|||"),
                psql("-P", "footer=off", "-c", "\\dt+").subList(1, 4));
    }

    /** uuid, bytea and time columns and function defaults as psql 15 describes them on PostgreSQL 15 (checked there with the same DDL). */
    @Test
    void describesUuidByteaAndTimeColumns() throws IOException, InterruptedException, SQLException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE tt_types (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body bytea,"
                    + " due time DEFAULT TIME '08:00', seen timestamp DEFAULT CURRENT_TIMESTAMP, stamped timestamptz)");
        }
        assertEquals(List.of(
                "Table \"public.tt_types\"",
                "Column|Type|Collation|Nullable|Default",
                "id|uuid||not null|gen_random_uuid()",
                "body|bytea|||",
                "due|time without time zone|||'08:00:00'::time without time zone",
                "seen|timestamp without time zone|||CURRENT_TIMESTAMP",
                "stamped|timestamp with time zone|||",
                "Indexes:",
                "    \"tt_types_pkey\" PRIMARY KEY, btree (id)"), psql("-c", "\\d tt_types"));
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE tt_child (id int PRIMARY KEY, parent int REFERENCES dept (id) ON DELETE CASCADE"
                    + " ON UPDATE SET NULL)");
        }
        List<String> child = psql("-c", "\\d tt_child");
        assertTrue(child.stream().anyMatch(l -> l.matches("    \"tt_child_fk_\\d+\" FOREIGN KEY \\(parent\\) REFERENCES dept\\(id\\)"
                + " ON UPDATE SET NULL ON DELETE CASCADE")), child::toString);
    }

    @Test
    void describesATable() throws IOException, InterruptedException {
        List<String> lines = psql("-c", "\\d emp");
        assertEquals(List.of(
                "Table \"public.emp\"",
                "Column|Type|Collation|Nullable|Default",
                "id|bigint||not null|",
                "dept_id|integer|||",
                "name|character varying(50)||not null|",
                "salary|numeric(10,2)|||0.00",
                "born|date|||",
                "hired|timestamp without time zone|||",
                "active|boolean|||",
                "score|double precision|||",
                "code|character(3)|||",
                "small|smallint|||",
                "r|real|||",
                "Indexes:",
                "    \"emp_pkey\" PRIMARY KEY, btree (id)",
                "    \"emp_name\" btree (name)",
                "Foreign-key constraints:"), lines.subList(0, Math.min(17, lines.size())), lines::toString);
        assertTrue(lines.get(17).matches("    \"emp_fk_\\d+\" FOREIGN KEY \\(dept_id\\) REFERENCES dept\\(id\\)"), lines::toString);

        List<String> dept = psql("-c", "\\d dept");
        assertTrue(dept.contains("    \"dept_pkey\" PRIMARY KEY, btree (id)"), dept::toString);
        assertTrue(dept.stream().anyMatch(l -> l.matches("    \"dept_\\w+\" UNIQUE CONSTRAINT, btree \\(name\\)")), dept::toString);
        assertTrue(dept.contains("Referenced by:"), dept::toString);
        assertTrue(dept.stream().anyMatch(l -> l.matches("    TABLE \"emp\" CONSTRAINT \"emp_fk_\\d+\" FOREIGN KEY \\(dept_id\\)"
                + " REFERENCES dept\\(id\\)")), dept::toString);

        List<String> verbose = psql("-c", "\\d+ emp");
        assertEquals("Column|Type|Collation|Nullable|Default|Storage|Compression|Stats target|Description", verbose.get(1));
        assertEquals("id|bigint||not null||plain|||", verbose.get(2));
        assertEquals("name|character varying(50)||not null||extended|||", verbose.get(4));
        assertEquals("salary|numeric(10,2)|||0.00|main|||", verbose.get(5));
        assertTrue(verbose.contains("    \"emp_pkey\" PRIMARY KEY, btree (id)"), verbose::toString);

        assertEquals(List.of("Index \"public.emp_pkey\"", "Column|Type|Key?|Definition", "id|bigint|yes|id",
                "primary key, btree, for table \"public.emp\""), psql("-c", "\\d emp_pkey"));
        assertEquals(List.of("Index \"public.emp_name\"", "Column|Type|Key?|Definition", "name|character varying(50)|yes|name",
                "btree, for table \"public.emp\""), psql("-c", "\\d emp_name"));

        List<String> functions = psql("-c", "\\df");
        assertTrue(functions.get(0).startsWith("ERROR:  catalog query not supported by Tell's PN server: select n.nspname as"),
                functions::toString);

        List<String> missing = psql("-c", "\\d nosuch");
        assertEquals(List.of("Did not find any relation named \"nosuch\"."), missing);
    }

    /** psql -X -A with {@code args}; stdout and stderr lines, blank ones dropped. */
    private static List<String> psql(String... args) throws IOException, InterruptedException {
        return server.psql(args);
    }
}
