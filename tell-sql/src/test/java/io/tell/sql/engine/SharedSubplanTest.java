package io.tell.sql.engine;

import static io.tell.sql.engine.Statements.rows;
import static io.tell.sql.engine.Statements.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlSession;
import io.tell.store.CountingRecordStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A subplan a query reads twice (a common table expression used twice, as in CH-benCHmark's Q15)
 * is computed once per execution: the query reads the store as often as one that uses it once,
 * and gives the rows computing it twice would. Seed: {@code -Dtell.seed=N}.
 */
class SharedSubplanTest {
    private static final long SEED = Long.getLong("tell.seed", 5);
    private static final String REVENUE = "WITH r AS (SELECT k, SUM(v) AS s FROM t GROUP BY k) ";

    @Test
    void aCommonTableExpressionReadTwiceIsComputedOnce() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:");
             SqlSession s = node.openSession()) {
            run(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, v INTEGER)");
            Random rnd = new Random(SEED);
            Map<Integer, Long> sums = new TreeMap<>();
            PreparedSql insert = s.prepare("INSERT INTO t VALUES (?, ?, ?)");
            s.setAutoCommit(false);
            for (int i = 0; i < 3000; i++) {
                int k = rnd.nextInt(50);
                int v = rnd.nextInt(1000);
                sums.merge(k, (long) v, Long::sum);
                s.execute(insert, List.of(i, k, v), 0, 0).close();
            }
            s.commit();
            s.setAutoCommit(true);
            long max = sums.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            List<Object> expected = new ArrayList<>();
            sums.forEach((k, sum) -> {
                if (sum == max) {
                    expected.add(k);
                }
            });

            String twice = REVENUE + "SELECT k FROM r WHERE s = (SELECT MAX(s) FROM r) ORDER BY k";
            String once = REVENUE + "SELECT MAX(s) FROM r";
            rows(s, twice); // planned, sizes sampled: the counts below are the executions'
            rows(s, once);
            long onceReads = reads(node, () -> assertEquals(max, ((Number) rows(s, once).get(0)[0]).longValue()));
            long twiceReads = reads(node, () -> {
                List<Object> got = new ArrayList<>();
                rows(s, twice).forEach(r -> got.add(r[0]));
                assertEquals(expected, got);
            });
            assertTrue(onceReads > 0);
            assertEquals(onceReads, twiceReads, "the shared aggregate read t once");

        }
    }

    private static long reads(ProcessingNode node, Runnable r) {
        CountingRecordStore.Counts before = node.storeCounts();
        r.run();
        CountingRecordStore.Counts d = node.storeCounts().minus(before);
        return d.reads() + d.scans();
    }
}
