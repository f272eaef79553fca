package io.tell.sql.engine;

import static io.tell.sql.engine.Statements.rows;
import static io.tell.sql.engine.Statements.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellException;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Intra-query parallelism ({@code parallelism=N}): full scans of large tables run on several
 * threads, in key order, with the same rows as one thread reads — also under joins, and
 * aggregates over them in parts — at one snapshot while writers change the table. Seed: {@code -Dtell.seed=N}.
 */
class ParallelScanTest {
    private static final int ROWS = 4_000;

    @Test
    void aParallelScanReadsTheRowsOneThreadReadsInKeyOrder() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:?parallelism=3");
             SqlSession s = node.openSession()) {
            run(s, "CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, name VARCHAR(20))");
            run(s, "CREATE TABLE heap (v INTEGER, name VARCHAR(20))"); // no primary key: the rid tree is scanned
            PreparedSql insert = s.prepare("INSERT INTO t VALUES (?, ?, ?)");
            PreparedSql insertHeap = s.prepare("INSERT INTO heap VALUES (?, ?)");
            s.setAutoCommit(false);
            List<Object[]> expected = new ArrayList<>();
            for (int i = 0; i < ROWS; i++) {
                int id = (i * 7919) % ROWS; // inserted out of order
                s.execute(insert, List.of(id, id % 97, "n" + id), 0, 0).close();
                s.execute(insertHeap, List.of(i, "h" + i), 0, 0).close();
            }
            s.commit();
            s.setAutoCommit(true);
            run(s, "DELETE FROM t WHERE MOD(id, 10) = 3");
            for (int id = 0; id < ROWS; id++) {
                if (id % 10 != 3) {
                    expected.add(new Object[] {id, id % 97});
                }
            }
            long tasksBefore = tasks(node);
            List<Object[]> got = rows(s, "SELECT id, v FROM t");
            assertTrue(tasks(node) > tasksBefore, "the scan ran on the node's scan threads");
            assertEquals(expected.size(), got.size());
            for (int i = 0; i < expected.size(); i++) {
                assertArrayEquals(expected.get(i), got.get(i), "row " + i);
            }
            // A filter on the scan runs on the scan's threads; the rows stay in key order.
            List<Object[]> filtered = rows(s, "SELECT id FROM t WHERE MOD(v, 5) = 1 AND name <> 'n1'");
            List<Object> filteredIds = new ArrayList<>();
            filtered.forEach(r -> filteredIds.add(r[0]));
            List<Object> expectedIds = new ArrayList<>();
            expected.stream().filter(r -> (Integer) r[1] % 5 == 1 && (Integer) r[0] != 1).forEach(r -> expectedIds.add(r[0]));
            assertEquals(expectedIds, filteredIds);
            // An error in a filter on a scan thread fails the statement, not the transaction.
            s.setAutoCommit(false);
            TellException divided = org.junit.jupiter.api.Assertions.assertThrows(TellException.class,
                    () -> rows(s, "SELECT id FROM t WHERE 10 / (v - 5) > 100"));
            assertEquals(io.tell.error.ErrorCode.DIVISION_BY_ZERO, divided.code());
            assertEquals(1L, rows(s, "SELECT COUNT(*) FROM t WHERE id = 0").get(0)[0], "the transaction goes on");
            s.commit();
            s.setAutoCommit(true);
            Object[] heapTotals = rows(s, "SELECT COUNT(*), SUM(v) FROM heap").get(0);
            assertEquals(ROWS, ((Number) heapTotals[0]).longValue());
            assertEquals((long) ROWS * (ROWS - 1) / 2, ((Number) heapTotals[1]).longValue());
            List<Object[]> heap = rows(s, "SELECT v FROM heap");
            for (int i = 0; i < ROWS; i++) {
                assertEquals(i, heap.get(i)[0], "heap rows in rid (insertion) order");
            }
            // A transaction's own write is seen: it reads on one thread once it wrote.
            s.setAutoCommit(false);
            run(s, "INSERT INTO t VALUES (3, 0, 'again')");
            assertEquals(1L, rows(s, "SELECT COUNT(*) FROM t WHERE id = 3 OR name = 'again'").get(0)[0]);
            s.rollback();
        }
    }

    @Test
    void parallelScansSeeOneSnapshotWhileWritersTransfer() throws Exception {
        long seed = seed();
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:?parallelism=4")) {
            try (SqlSession s = node.openSession()) {
                run(s, "CREATE TABLE account (id INTEGER PRIMARY KEY, balance BIGINT NOT NULL)");
                PreparedSql insert = s.prepare("INSERT INTO account VALUES (?, 100)");
                s.setAutoCommit(false);
                for (int i = 0; i < ROWS; i++) {
                    s.execute(insert, List.of(i), 0, 0).close();
                }
                s.commit();
            }
            ExecutorService pool = Executors.newFixedThreadPool(4);
            AtomicBoolean done = new AtomicBoolean();
            AtomicLong scans = new AtomicLong();
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                Random random = new Random(seed + w);
                writers.add(pool.submit(() -> transfer(node, random, 300)));
            }
            Future<?> reader = pool.submit(() -> {
                try (SqlSession s = node.openSession()) {
                    while (!done.get()) {
                        Object[] sumAndCount = rows(s, "SELECT SUM(balance), COUNT(*) FROM account").get(0);
                        assertEquals(ROWS * 100L, ((Number) sumAndCount[0]).longValue(), "one snapshot's total");
                        assertEquals((long) ROWS, sumAndCount[1]);
                        // both sides of a hash join scanned on the workers: one snapshot too
                        Object[] joined = rows(s, "SELECT SUM(x.balance), SUM(y.balance), COUNT(*) FROM account x"
                                + " JOIN account y ON x.id = y.id").get(0);
                        assertEquals(ROWS * 100L, ((Number) joined[0]).longValue(), "one snapshot's total, probe side");
                        assertEquals(ROWS * 100L, ((Number) joined[1]).longValue(), "one snapshot's total, build side");
                        assertEquals((long) ROWS, joined[2]);
                        scans.incrementAndGet();
                    }
                }
                return null;
            });
            for (Future<?> f : writers) {
                f.get();
            }
            done.set(true);
            reader.get();
            pool.shutdown();
            assertTrue(scans.get() > 0);
        }
    }

    /** Join queries over parallel scans give exactly the rows, in the order, that one thread gives. */
    @Test
    void joinsOverParallelScansGiveTheRowsOfOneThread() {
        long seed = seed();
        List<String> queries = List.of(
                "SELECT a.id, b.id, b.w FROM b JOIN a ON b.a_id = a.id",
                "SELECT a.id, c.label FROM a JOIN c ON a.k = c.k WHERE a.v > 10",
                "SELECT a.id, c.label FROM a JOIN c ON a.k = c.k WHERE a.v > 10 ORDER BY c.label, a.id DESC",
                "SELECT a.id FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.a_id = a.id)",
                "SELECT a.id FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.a_id = a.id AND b.w > a.v)",
                "SELECT a.id, b.w FROM a LEFT JOIN b ON b.a_id = a.id AND b.w < 5",
                "SELECT c.label, COUNT(*), SUM(b.w) FROM b JOIN a ON b.a_id = a.id JOIN c ON a.k = c.k GROUP BY c.label",
                "SELECT b.id, a.name FROM b, a WHERE a.id = b.a_id AND b.w = 7",
                "SELECT a.id FROM a JOIN c ON a.k = c.k LIMIT 5",
                "SELECT a.id, c.label FROM a FULL JOIN c ON a.k = c.k AND c.label = 'x'");
        try (ProcessingNode one = ProcessingNode.connect("jdbc:tell:mem:?parallelism=1");
             ProcessingNode three = ProcessingNode.connect("jdbc:tell:mem:?parallelism=3");
             SqlSession s1 = one.openSession(); SqlSession s3 = three.openSession()) {
            loadJoinTables(new Random(seed), s1, s3);
            for (String q : queries) {
                long tasksBefore = tasks(three);
                assertRows(rows(s1, q), rows(s3, q), q);
                assertTrue(tasks(three) > tasksBefore, q + " ran on the node's threads");
            }
            // SERIALIZABLE reads on the caller's thread (its reads are validated at commit): same rows.
            s3.setIsolation(io.tell.txn.Isolation.SERIALIZABLE);
            s3.setAutoCommit(false);
            assertRows(rows(s1, queries.get(0)), rows(s3, queries.get(0)), "SERIALIZABLE " + queries.get(0));
            s3.commit();
            s3.setIsolation(io.tell.txn.Isolation.SNAPSHOT);
            s3.setAutoCommit(true);
            // An error in a condition over the joined rows fails the statement.
            TellException divided = org.junit.jupiter.api.Assertions.assertThrows(TellException.class,
                    () -> rows(s3, "SELECT a.id FROM a JOIN c ON a.k = c.k WHERE 10 / (a.v - c.k) > 100"));
            assertEquals(io.tell.error.ErrorCode.DIVISION_BY_ZERO, divided.code());
        }
    }

    /** Tables a (ROWS rows), b (ROWS rows, some without a matching a) and c (50 rows), the same rows through each session. */
    private static void loadJoinTables(Random random, SqlSession... sessions) {
        for (SqlSession s : sessions) {
            run(s, "CREATE TABLE a (id INTEGER PRIMARY KEY, k INTEGER, v INTEGER, name VARCHAR(20))");
            run(s, "CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER, w INTEGER)");
            run(s, "CREATE TABLE c (k INTEGER PRIMARY KEY, label VARCHAR(10))");
            s.setAutoCommit(false);
        }
        for (int i = 0; i < ROWS; i++) {
            List<Object> a = List.of(i, random.nextInt(60), random.nextInt(100), "a" + i);
            List<Object> b = List.of(i, random.nextInt(ROWS + 500), random.nextInt(100));
            for (SqlSession s : sessions) {
                s.execute(s.prepare("INSERT INTO a VALUES (?, ?, ?, ?)"), a, 0, 0).close();
                s.execute(s.prepare("INSERT INTO b VALUES (?, ?, ?)"), b, 0, 0).close();
            }
        }
        for (int k = 0; k < 50; k++) {
            for (SqlSession s : sessions) {
                s.execute(s.prepare("INSERT INTO c VALUES (?, ?)"), List.of(k, "l" + (k % 7)), 0, 0).close();
            }
        }
        for (SqlSession s : sessions) {
            s.commit();
            s.setAutoCommit(true);
        }
    }

    /**
     * Queries over a large table's scan, through filters, hash joins (inner, left, semi, anti)
     * and nested loops, run in parts on the workers — each part aggregating its key range and
     * the partial groups merged, or its rows sorted with the others', or handed out in key order:
     * the rows, and their order among equals, of one thread. DISTINCT aggregates, which cannot
     * merge, run as one.
     */
    @Test
    void joinsAggregatesAndSortsInPartsGiveTheRowsOfOneThread() {
        long seed = seed();
        List<String> parted = List.of(
                "SELECT k, COUNT(*), SUM(v), AVG(v), MIN(name), MAX(v), SUM(CAST(v AS DECIMAL(10, 2)) / 7) FROM a GROUP BY k",
                "SELECT COUNT(*), SUM(v), MIN(v), AVG(v) FROM a WHERE v > 1000",
                "SELECT k, STRING_AGG(name, ';') FROM a WHERE v < 4 GROUP BY k",
                "SELECT k, COUNT(*) FILTER (WHERE v < 50), SUM(v) FILTER (WHERE v >= 50) FROM a GROUP BY k HAVING COUNT(*) > 60 ORDER BY 2 DESC, 1",
                "SELECT c.label, COUNT(*), SUM(b.w), MAX(a.name) FROM b JOIN a ON b.a_id = a.id JOIN c ON a.k = c.k GROUP BY c.label",
                "SELECT a.k, COUNT(b.id), SUM(b.w) FROM a LEFT JOIN b ON b.a_id = a.id GROUP BY a.k",
                "SELECT a.k, COUNT(*) FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.a_id = a.id AND b.w > a.v) GROUP BY a.k",
                "SELECT COUNT(*), SUM(a.v) FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.a_id = a.id)",
                "SELECT a.v, SUM(b.w), COUNT(*) FROM a, b WHERE b.id = a.id + 1 AND a.v < 30 GROUP BY a.v",
                "SELECT b.id, a.name, b.w FROM b JOIN a ON b.a_id = a.id ORDER BY b.w, a.k",
                "SELECT b.id, a.name, c.label FROM b JOIN a ON b.a_id = a.id LEFT JOIN c ON a.k = c.k + 5 WHERE b.w < 30",
                "SELECT a.id, b.w FROM a, b WHERE b.id = a.id + 1 AND a.v < 30",
                "SELECT id, v FROM a WHERE v < 20 ORDER BY v DESC OFFSET 5 ROWS FETCH NEXT 30 ROWS ONLY",
                // a subplan read twice (kept for both reads) that aggregates in parts
                "WITH r AS (SELECT a.k AS k, SUM(b.w) AS total FROM b JOIN a ON b.a_id = a.id GROUP BY a.k)"
                        + " SELECT k, total FROM r WHERE total >= (SELECT MAX(total) FROM r) - 100 ORDER BY k");
        try (ProcessingNode one = ProcessingNode.connect("jdbc:tell:mem:?parallelism=1");
             ProcessingNode three = ProcessingNode.connect("jdbc:tell:mem:?parallelism=3");
             SqlSession s1 = one.openSession(); SqlSession s3 = three.openSession()) {
            loadJoinTables(new Random(seed), s1, s3);
            for (String q : parted) {
                long before = three.workers().subplans().sum();
                assertRows(rows(s1, q), rows(s3, q), q);
                assertEquals(before + 1, three.workers().subplans().sum(), q + " ran in parts");
            }
            String distinct = "SELECT k, COUNT(DISTINCT v), SUM(v) FROM a GROUP BY k";
            long before = three.workers().subplans().sum();
            assertRows(rows(s1, distinct), rows(s3, distinct), distinct);
            assertEquals(before, three.workers().subplans().sum(), "a DISTINCT aggregate runs as one");
            // An error in one part fails the statement, not the transaction.
            s3.setAutoCommit(false);
            TellException divided = org.junit.jupiter.api.Assertions.assertThrows(TellException.class,
                    () -> rows(s3, "SELECT c.label, SUM(10 / (a.v - c.k)) FROM a JOIN c ON a.k = c.k GROUP BY c.label"));
            assertEquals(io.tell.error.ErrorCode.DIVISION_BY_ZERO, divided.code());
            assertEquals((long) ROWS, rows(s3, "SELECT COUNT(*) FROM a").get(0)[0], "the transaction goes on");
            s3.commit();
        }
    }

    /** The run's seed, printed: {@code -Dtell.seed=N} repeats a run. */
    private static long seed() {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        System.out.println("ParallelScanTest seed " + seed);
        return seed;
    }

    /**
     * FOR UPDATE locks through the statement's transaction: a sort or aggregate over a locking
     * scan runs as one, and a concurrent writer of a locked row makes the locker's commit fail.
     */
    @Test
    void forUpdateRunsAsOneAndLocks() {
        try (ProcessingNode three = ProcessingNode.connect("jdbc:tell:mem:?parallelism=3");
             SqlSession locker = three.openSession(); SqlSession writer = three.openSession()) {
            loadJoinTables(new Random(seed()), locker);
            for (String q : List.of("SELECT id FROM a WHERE v < 20 ORDER BY v, id FOR UPDATE",
                    "SELECT a.id FROM a JOIN c ON a.k = c.k WHERE a.v < 20 ORDER BY c.label, a.id FOR UPDATE")) {
                locker.setAutoCommit(false);
                long before = three.workers().subplans().sum();
                List<Object[]> locked = rows(locker, q);
                assertEquals(before, three.workers().subplans().sum(), q + " ran as one");
                assertTrue(locked.size() > 10, q);
                run(writer, "UPDATE a SET name = 'changed' WHERE id = " + locked.get(locked.size() / 2)[0]);
                TellException e = org.junit.jupiter.api.Assertions.assertThrows(TellException.class, locker::commit, q);
                assertEquals(io.tell.error.ErrorCode.TX_CONFLICT, e.code(), q);
                locker.rollback();
                locker.setAutoCommit(true);
            }
        }
    }

    private static void assertRows(List<Object[]> expected, List<Object[]> got, String query) {
        assertEquals(expected.size(), got.size(), query);
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), got.get(i), query + ", row " + i);
        }
    }

    private static void transfer(ProcessingNode node, Random random, int transfers) {
        try (SqlSession s = node.openSession()) {
            s.setAutoCommit(false);
            PreparedSql move = s.prepare("UPDATE account SET balance = balance + ? WHERE id = ?");
            for (int done = 0; done < transfers; ) {
                int from = random.nextInt(ROWS);
                int to = random.nextInt(ROWS);
                long amount = 1 + random.nextInt(50);
                try {
                    s.execute(move, List.of(-amount, from), 0, 0).close();
                    s.execute(move, List.of(amount, to), 0, 0).close();
                    s.commit();
                    done++;
                } catch (TellException e) {
                    if (!e.retriable()) {
                        throw e;
                    }
                    s.rollback();
                }
            }
        }
    }

    private static long tasks(ProcessingNode node) {
        return ((ThreadPoolExecutor) node.workers().executor()).getCompletedTaskCount();
    }


    @Test
    void oneThreadWithoutTheOption() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:")) {
            assertNull(node.workers());
        }
    }
}
