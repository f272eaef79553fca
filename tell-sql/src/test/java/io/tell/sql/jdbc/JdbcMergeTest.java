package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** MERGE through the embedded JDBC driver: with parameters, as applications upsert, and with foreign keys. */
class JdbcMergeTest {
    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:tell:mem:");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE kv (k VARCHAR(10) PRIMARY KEY, n INT NOT NULL)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    @Test
    void aPreparedMergeInsertsThenUpdates() throws SQLException {
        // Parameters in VALUES have no column to take a type from: CAST gives them one.
        SQLException untyped = assertThrows(SQLException.class, () -> c.prepareStatement("MERGE INTO kv USING"
                + " (VALUES (?, ?)) AS v (k, n) ON kv.k = v.k WHEN NOT MATCHED THEN INSERT (k, n) VALUES (v.k, v.n)"));
        assertTrue(untyped.getMessage().contains("CAST(? AS type)"), untyped::getMessage);
        try (PreparedStatement ps = c.prepareStatement("MERGE INTO kv USING (VALUES (CAST(? AS VARCHAR(10)), CAST(? AS INT)))"
                + " AS v (k, n) ON kv.k = v.k"
                + " WHEN MATCHED THEN UPDATE SET n = kv.n + v.n WHEN NOT MATCHED THEN INSERT (k, n) VALUES (v.k, v.n)")) {
            for (String k : List.of("a", "b", "a", "a")) {
                ps.setString(1, k);
                ps.setInt(2, 2);
                assertEquals(1, ps.executeUpdate());
            }
        }
        assertEquals(List.of("a=6", "b=2"), rows("SELECT k, n FROM kv ORDER BY k"));
    }

    @Test
    void mergedRowsKeepTheirForeignKeys() throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE child (k VARCHAR(10) PRIMARY KEY, kv VARCHAR(10) REFERENCES kv (k))");
            s.execute("INSERT INTO kv VALUES ('a', 1)");
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("MERGE INTO child USING"
                    + " (VALUES ('r1', 'a'), ('r2', 'zz')) AS v (k, p) ON child.k = v.k WHEN NOT MATCHED THEN INSERT VALUES (v.k, v.p)"));
            assertEquals("23503", e.getSQLState(), e::getMessage);
            assertEquals(List.of(), rows("SELECT k, kv FROM child"));
            assertEquals(1, s.executeUpdate("MERGE INTO child USING (VALUES ('r1', 'a')) AS v (k, p) ON child.k = v.k"
                    + " WHEN NOT MATCHED THEN INSERT VALUES (v.k, v.p)"));
            SQLException parent = assertThrows(SQLException.class, () -> s.executeUpdate("MERGE INTO kv USING"
                    + " (VALUES ('a')) AS v (k) ON kv.k = v.k WHEN MATCHED THEN UPDATE SET k = 'b'"));
            assertEquals("23503", parent.getSQLState(), () -> parent + " caused by " + parent.getCause() + " at " + java.util.Arrays.toString(parent.getCause().getStackTrace()));
            assertEquals(List.of("r1=a"), rows("SELECT k, kv FROM child"));
        }
    }

    /**
     * A MERGE that found no row and inserted, while another transaction inserted the same key and
     * committed first: a race, reported as 40001, and a retry finds the row and updates it. A
     * MERGE whose ON condition does not look at the key inserts a duplicate again on its retry,
     * and that is 23505.
     */
    @Test
    void aKeyInsertedMeanwhileIsARaceToRetry() throws SQLException {
        String url = "jdbc:tell:mem:merge-race-" + System.nanoTime();
        try (Connection one = DriverManager.getConnection(url); Connection two = DriverManager.getConnection(url);
             Statement s1 = one.createStatement(); Statement s2 = two.createStatement()) {
            s1.execute("CREATE TABLE kv (k VARCHAR(10) PRIMARY KEY, n INT NOT NULL)");
            String byKey = "MERGE INTO kv USING (VALUES ('a', 1)) AS v (k, n) ON kv.k = v.k"
                    + " WHEN MATCHED THEN UPDATE SET n = kv.n + v.n WHEN NOT MATCHED THEN INSERT VALUES (v.k, v.n)";
            one.setAutoCommit(false);
            assertEquals(1, s1.executeUpdate(byKey));
            assertEquals(1, s2.executeUpdate(byKey));
            assertEquals("40001", assertThrows(SQLException.class, one::commit).getSQLState());
            assertEquals(1, s1.executeUpdate(byKey));
            one.commit();
            assertEquals(List.of("a=2"), rows(two, "SELECT k, n FROM kv"));

            String notByKey = "MERGE INTO kv USING (VALUES ('b', 1)) AS v (k, n) ON kv.n = 99"
                    + " WHEN NOT MATCHED THEN INSERT VALUES (v.k, v.n)";
            assertEquals(1, s1.executeUpdate(notByKey));
            assertEquals(1, s2.executeUpdate(notByKey));
            assertEquals("40001", assertThrows(SQLException.class, one::commit).getSQLState());
            assertEquals(1, s1.executeUpdate(notByKey));
            assertEquals("23505", assertThrows(SQLException.class, one::commit).getSQLState());
            assertEquals(List.of("a=2", "b=1"), rows(two, "SELECT k, n FROM kv ORDER BY k"));
        }
    }

    @Test
    void parametersAnywhereInMergeAreNumberedAsWritten() throws SQLException {
        String sql = "MERGE INTO kv USING (VALUES (CAST(? AS VARCHAR(10)), CAST(? AS INT))) AS v (k, n) ON kv.k = v.k AND ? = 1"
                + " WHEN MATCHED AND v.n > ? THEN UPDATE SET n = kv.n + v.n + ?"
                + " WHEN NOT MATCHED THEN INSERT (k, n) VALUES (v.k, v.n * ?)";
        try (PreparedStatement p = c.prepareStatement(sql)) {
            java.sql.ParameterMetaData types = p.getParameterMetaData();
            assertEquals(6, types.getParameterCount());
            assertEquals(java.sql.Types.VARCHAR, types.getParameterType(1));
            assertEquals(java.sql.Types.INTEGER, types.getParameterType(2));
            Object[][] runs = {{"a", 5, 1, 0, 100, 2}, {"a", 5, 1, 0, 100, 2}, {"a", 5, 1, 10, 100, 2}, {"b", 3, 0, 0, 0, 3}};
            int[] counts = new int[runs.length];
            for (int r = 0; r < runs.length; r++) {
                for (int i = 0; i < runs[r].length; i++) {
                    p.setObject(i + 1, runs[r][i]);
                }
                counts[r] = p.executeUpdate();
            }
            // inserted 5 * 2; updated 10 + 5 + 100; no clause for 5 > 10; ON false for b, so inserted 3 * 3
            assertEquals(List.of(1, 1, 0, 1), java.util.Arrays.stream(counts).boxed().toList());
        }
        assertEquals(List.of("a=115", "b=9"), rows("SELECT k, n FROM kv ORDER BY k"));
    }

    private List<String> rows(String sql) throws SQLException {
        return rows(c, sql);
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1) + "=" + rs.getString(2));
            }
        }
        assertTrue(out.size() < 1000);
        return out;
    }
}
