package io.tell.sql.engine;

import static io.tell.sql.engine.Statements.rows;
import static io.tell.sql.engine.Statements.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlSession;
import io.tell.sql.TableDef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Joins of three or more tables in the order the tables' sizes and the keys of their equalities
 * make cheapest ({@link JoinOrder}), with the rows the written order gives; and the sizes the
 * planner sees ({@link io.tell.sql.TableSizes}) following the tables. Seed: {@code -Dtell.seed=N}.
 */
class JoinOrderTest {
    private static final long SEED = Long.getLong("tell.seed", 11);

    @Test
    void aSmallFilteredDimensionIsJoinedBeforeTheLargeTable() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:");
             SqlSession s = node.openSession()) {
            run(s, "CREATE TABLE region (r_id INTEGER PRIMARY KEY, r_name VARCHAR(10))");
            run(s, "CREATE TABLE nation (n_id INTEGER PRIMARY KEY, n_region INTEGER, n_name VARCHAR(10))");
            run(s, "CREATE TABLE customer (c_id INTEGER PRIMARY KEY, c_nation INTEGER)");
            run(s, "CREATE TABLE sale (s_id INTEGER PRIMARY KEY, s_customer INTEGER, amount INTEGER)");
            Random rnd = new Random(SEED);
            int[] nationOf = new int[500];
            int[] regionOf = new int[50];
            s.setAutoCommit(false);
            insert(s, "INSERT INTO region VALUES (?, ?)", 5, i -> List.of(i, "r" + i));
            insert(s, "INSERT INTO nation VALUES (?, ?, ?)", 50, i -> {
                regionOf[i] = rnd.nextInt(5);
                return List.of(i, regionOf[i], "n" + i);
            });
            insert(s, "INSERT INTO customer VALUES (?, ?)", 500, i -> {
                nationOf[i] = rnd.nextInt(50);
                return List.of(i, nationOf[i]);
            });
            Map<String, Long> expected = new TreeMap<>();
            insert(s, "INSERT INTO sale VALUES (?, ?, ?)", 5000, i -> {
                int customer = rnd.nextInt(500);
                int amount = rnd.nextInt(100);
                if (regionOf[nationOf[customer]] == 2) {
                    expected.merge("n" + nationOf[customer], (long) amount, Long::sum);
                }
                return List.of(i, customer, amount);
            });
            s.commit();
            s.setAutoCommit(true);
            String query = "SELECT n.n_name, SUM(s.amount) FROM sale s, customer c, nation n, region r"
                    + " WHERE s.s_customer = c.c_id AND c.c_nation = n.n_id AND n.n_region = r.r_id AND r.r_name = 'r2'"
                    + " GROUP BY n.n_name ORDER BY n.n_name";
            Map<String, Long> got = new TreeMap<>();
            for (Object[] row : rows(s, query)) {
                got.put((String) row[0], ((Number) row[1]).longValue());
            }
            assertEquals(expected, got);
            // Written order: SALE first, each next table looked up by its key per sale. Now SALE,
            // the largest and unfiltered, is joined last: one join above its scan, the others below that join.
            List<String> plan = new ArrayList<>();
            rows(s, "EXPLAIN PLAN FOR " + query).forEach(r -> plan.add((String) r[0]));
            assertEquals(List.of(1), joinsAbove(plan, "table=[[PUBLIC, SALE]]"), String.join("\n", plan));
            assertEquals(List.of(3), joinsAbove(plan, "table=[[PUBLIC, REGION]]"), String.join("\n", plan));
        }
    }

    /** For each line of {@code plan} that holds {@code text}, how many join operators are its ancestors. */
    private static List<Integer> joinsAbove(List<String> plan, String text) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            if (!plan.get(i).contains(text)) {
                continue;
            }
            int depth = indent(plan.get(i));
            int joins = 0;
            for (int j = i - 1; j >= 0; j--) {
                if (indent(plan.get(j)) < depth) {
                    depth = indent(plan.get(j));
                    String op = plan.get(j).strip();
                    joins += op.startsWith("TellJoin") || op.startsWith("TellCorrelate") ? 1 : 0;
                }
            }
            out.add(joins);
        }
        return out;
    }

    private static int indent(String line) {
        return line.length() - line.stripLeading().length();
    }

    @Test
    void aStatementIsPlannedAgainWhenItsTableGrewByAnOrderOfMagnitude() throws InterruptedException {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:");
             SqlSession s = node.openSession()) {
            run(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
            s.setAutoCommit(false);
            insert(s, "INSERT INTO t VALUES (?, ?)", 20, i -> List.of(i, i % 7));
            s.commit();
            s.setAutoCommit(true);
            String query = "SELECT COUNT(*) FROM t WHERE v = 1";
            rows(s, query);
            long epoch = node.tableSizes().epoch();
            long misses = node.plans().misses();
            rows(s, query);
            assertEquals(misses, node.plans().misses(), "the plan is reused");
            TableDef t = node.catalog().table("T");
            assertTrue(node.tableSizes().rows(t) <= 20, "small: " + node.tableSizes().rows(t));

            // Loading in transactions of 300 rows resamples the table as it doubles; its size moves by more than 4 ×.
            for (int from = 0; from < 3000; from += 300) {
                int first = from;
                s.setAutoCommit(false);
                insert(s, "INSERT INTO t VALUES (?, ?)", 300, i -> List.of(100 + first + i, (first + i) % 7));
                s.commit();
                s.setAutoCommit(true);
                Thread.sleep(15); // sizes are checked at most every 10 ms
            }
            assertTrue(node.tableSizes().epoch() > epoch, "the table's size moved: a new epoch");
            long beforeQuery = node.plans().misses();
            assertEquals(3L + 429L, ((Number) rows(s, query).get(0)[0]).longValue(), "rows of v = 1");
            assertEquals(beforeQuery + 1, node.plans().misses(), "the statement was planned again");
            double rows = node.tableSizes().rows(t);
            assertTrue(rows >= 3020 / 3.0 && rows <= 3020 * 3.0, "sampled " + rows + " rows of 3020");

            // A few more rows: the size the planner sees does not move, the plans stay.
            long epochAfter = node.tableSizes().epoch();
            s.setAutoCommit(false);
            insert(s, "INSERT INTO t VALUES (?, ?)", 30, i -> List.of(10_000 + i, 0));
            s.commit();
            s.setAutoCommit(true);
            long afterInserts = node.plans().misses();
            rows(s, query);
            assertEquals(epochAfter, node.tableSizes().epoch());
            assertEquals(afterInserts, node.plans().misses(), "the plan is reused");
        }
    }

    @Test
    void aStatementThatReadsNoTableIsNotPlannedAgainWhenSizesMove() throws InterruptedException {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:");
             SqlSession s = node.openSession()) {
            run(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)");
            String query = "SELECT COUNT(*) FROM t WHERE v = 1";
            String insert = "INSERT INTO t VALUES (?, ?)";
            insert(s, insert, 20, i -> List.of(i, i % 7));
            rows(s, query);
            long misses = node.plans().misses();
            // A load in auto-commit, the query run between its parts: the table's size moves
            // several times, and each move plans the query again, never the INSERT.
            long epoch = node.tableSizes().epoch();
            int movesSeen = 0;
            for (int from = 0; from < 3000; from += 300) {
                int first = from;
                insert(s, insert, 300, i -> List.of(100 + first + i, (first + i) % 7));
                Thread.sleep(15); // sizes are checked at most every 10 ms
                long now = node.tableSizes().epoch();
                movesSeen += now != epoch ? 1 : 0;
                epoch = now;
                rows(s, query);
            }
            assertTrue(movesSeen >= 1, "the table's size moved while it filled: " + movesSeen + " new epochs");
            assertEquals(misses + movesSeen, node.plans().misses(), "the query planned again at each new epoch, the INSERT never");
            assertEquals(3L + 429L, ((Number) rows(s, query).get(0)[0]).longValue(), "rows of v = 1");
        }
    }

    private static void insert(SqlSession s, String sql, int n, java.util.function.IntFunction<List<Object>> row) {
        PreparedSql insert = s.prepare(sql);
        for (int i = 0; i < n; i++) {
            s.execute(insert, row.apply(i), 0, 0).close();
        }
    }
}
