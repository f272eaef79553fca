package io.tell.sql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellException;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Counters kept by INSERT ... ON CONFLICT DO UPDATE, or by MERGE, from many threads at once:
 * whether a key is new or not, every upsert that commits counts once, and races on a new key or
 * on a row end in 40001, which the writer retries. Seeded: {@code -Dtell.seed=N}.
 */
class UpsertConcurrencyTest {
    private static final int THREADS = 6;
    private static final int UPSERTS = 150;
    private static final int KEYS = 5;

    @ParameterizedTest
    @ValueSource(strings = {"INSERT INTO hits VALUES (?, 1) ON CONFLICT (k) DO UPDATE SET n = n + 1",
        "MERGE INTO hits USING (VALUES (CAST(? AS INT))) AS v (k) ON hits.k = v.k"
            + " WHEN MATCHED THEN UPDATE SET n = hits.n + 1 WHEN NOT MATCHED THEN INSERT VALUES (v.k, 1)"})
    @Timeout(120)
    void everyCommittedUpsertCountsOnce(String statement) throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        String why = "seed " + seed + " (-Dtell.seed=" + seed + ")";
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:")) {
            AtomicLong retries = new AtomicLong();
            Map<Integer, Long> committed = hammer(node, statement, seed, retries, why);
            try (SqlSession s = node.openSession();
                 SqlResult r = s.execute(s.prepare("SELECT COUNT(*), SUM(n) FROM hits"), List.of(), 0, 0)) {
                assertTrue(r.next());
                assertTrue((Long) r.row()[0] <= (UPSERTS / 10 + 1) * KEYS, why);
                assertEquals((long) THREADS * UPSERTS, r.row()[1], why + " (" + retries.get() + " retries)");
                assertEquals((long) THREADS * UPSERTS, committed.values().stream().mapToLong(Long::longValue).sum(), why);
            }
        }
    }

    /**
     * A counter that MERGE deletes on its fifth step (WHEN MATCHED AND condition THEN DELETE before the UPDATE,
     * INSERT when absent): each key's counter must be what its committed MERGEs make of it, their number mod 5.
     */
    @Test
    @Timeout(120)
    void mergeThatDeletesKeepsEachCounterExact() throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        String why = "seed " + seed + " (-Dtell.seed=" + seed + ")";
        String merge = "MERGE INTO hits USING (VALUES (CAST(? AS INT))) AS v (k) ON hits.k = v.k"
                + " WHEN MATCHED AND hits.n >= 4 THEN DELETE WHEN MATCHED THEN UPDATE SET n = hits.n + 1"
                + " WHEN NOT MATCHED THEN INSERT VALUES (v.k, 1)";
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:")) {
            AtomicLong retries = new AtomicLong();
            Map<Integer, Long> committed = hammer(node, merge, seed, retries, why);
            Map<Integer, Long> counters = new HashMap<>();
            try (SqlSession s = node.openSession(); SqlResult r = s.execute(s.prepare("SELECT k, n FROM hits"), List.of(), 0, 0)) {
                while (r.next()) {
                    counters.put((Integer) r.row()[0], (Long) r.row()[1]);
                }
            }
            committed.forEach((key, ops) -> assertEquals(ops % 5, counters.getOrDefault(key, 0L).longValue(),
                    () -> why + ": key " + key + " after " + ops + " MERGEs (" + retries.get() + " retries)"));
        }
    }

    /** THREADS threads each run {@code statement} UPSERTS times on keys the seed picks, retrying 40001; committed runs per key. */
    private static Map<Integer, Long> hammer(ProcessingNode node, String statement, long seed, AtomicLong retries, String why)
            throws InterruptedException {
        try (SqlSession s = node.openSession()) {
            s.execute(s.prepare("CREATE TABLE hits (k INT PRIMARY KEY, n BIGINT NOT NULL)"), List.of(), 0, 0).close();
        }
        Map<Integer, Long> committed = new java.util.concurrent.ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Random random = new Random(seed + t);
            threads.add(Thread.ofPlatform().start(() -> {
                try (SqlSession s = node.openSession()) {
                    PreparedSql upsert = s.prepare(statement);
                    for (int i = 0; i < UPSERTS; i++) {
                        int key = i / 10 * KEYS + random.nextInt(KEYS); // new keys keep coming: threads race to insert them
                        while (true) {
                            try {
                                s.execute(upsert, List.of(key), 0, 0).close();
                                committed.merge(key, 1L, Long::sum);
                                break;
                            } catch (TellException e) {
                                if (!e.retriable()) {
                                    throw e;
                                }
                                retries.incrementAndGet();
                            }
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> why + ": " + failures.peek());
        return committed;
    }
}
