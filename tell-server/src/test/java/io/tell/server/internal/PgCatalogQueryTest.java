package io.tell.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Recognition of the catalog queries psql 15 and the JDBC driver 42.7 send, as they sent them
 * to PostgreSQL 15 (captured with {@code psql -E} and the driver's trace log, in
 * {@code catalog-queries/}; the file name says the shape), and of their arguments.
 */
class PgCatalogQueryTest {
    @ParameterizedTest
    @ValueSource(strings = {"jdbc-catalogs", "jdbc-columns", "jdbc-fields", "jdbc-index-info", "jdbc-index-keys-setting", "jdbc-keys",
            "jdbc-primary-keys", "jdbc-schemas", "jdbc-tables", "jdbc-type-kinds", "jdbc-types", "psql-columns", "psql-databases",
            "psql-foreign-keys", "psql-index", "psql-index-columns", "psql-indexes", "psql-lookup", "psql-parents", "psql-partitions", "psql-policies",
            "psql-publications", "psql-referenced-by", "psql-relations-d", "psql-relations-di", "psql-relations-dt",
            "psql-schemas", "psql-statistics", "psql-table", "psql-triggers"})
    void recognisesWhatClientsSend(String name) throws IOException {
        String sql;
        try (InputStream in = getClass().getResourceAsStream("/catalog-queries/" + name + ".sql")) {
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String shape = name.replaceFirst("^psql-relations-.*", "psql-relations").replace('-', '_').toUpperCase(Locale.ROOT);
        CatalogQuery q = CatalogQuery.recognize(sql);
        assertEquals(shape, q.shape().name());
        assertEquals(false, CatalogAnswers.columns(q).isEmpty());
    }

    @Test
    void argumentsAsParametersOrLiterals() {
        CatalogQuery q = CatalogQuery.recognize("SELECT 1 AS \"TABLE_TYPE\" FROM pg_catalog.pg_class c WHERE c.relname LIKE $2"
                + " AND n.nspname LIKE 'pub''x'");
        assertEquals(2, q.parameterCount());
        assertEquals("e%", q.argument("c.relname like ", List.of("x", "e%")));
        assertEquals("pub'x", q.argument("n.nspname like ", List.of()));
        assertNull(q.argument("attname like ", List.of()));
        assertEquals("emp", CatalogQuery.recognize("SELECT 1 AS \"PK_NAME\" FROM pg_catalog.pg_constraint con WHERE"
                + " con.contype = 'p' AND ct.relname = ('emp'::varchar)").argument("ct.relname = ", List.of()));
        CatalogQuery psql = CatalogQuery.recognize("SELECT c.relchecks, c.relkind FROM pg_catalog.pg_class c WHERE c.oid = '16590';");
        assertEquals(16590, psql.oidArgument("c.oid = ", List.of()));
        assertEquals(List.of("r", "p", ""), CatalogQuery.recognize("SELECT pg_catalog.pg_get_userbyid(c.relowner) FROM"
                + " pg_catalog.pg_class c WHERE c.relkind IN ('r','p','')").inList("c.relkind in ("));
    }

    @Test
    void likePatterns() {
        assertEquals(true, CatalogQuery.like("e%").matcher("EMP").matches());
        assertEquals(true, CatalogQuery.like("d_pt").matcher("dept").matches());
        assertEquals(false, CatalogQuery.like("d\\_pt").matcher("dept").matches());
        assertEquals(true, CatalogQuery.like(null).matcher("anything").matches());
    }

    @Test
    void otherQueriesAreLeftAloneAndUnknownCatalogQueriesRefused() {
        assertNull(CatalogQuery.recognize("SELECT * FROM emp WHERE name LIKE 'pg%'"));
        assertNull(CatalogQuery.recognize("INSERT INTO note VALUES ('see pg_catalog.pg_class') -- pg_class"));
        PgError e = assertThrows(PgError.class, () -> CatalogQuery.recognize("SELECT proname FROM pg_catalog.pg_proc"));
        assertEquals("0A000", e.sqlState());
        assertEquals(CatalogQuery.Shape.CURRENT_DATABASE, CatalogQuery.recognize("select current_database()").shape());
        assertEquals(CatalogQuery.Shape.CURRENT_DATABASE, CatalogQuery.recognize("SELECT current_catalog").shape());
    }
}
