package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.redis.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Foreign keys across processing nodes over a real Redis: writers on several nodes insert
 * children of random parents while others delete random parents, each in a transaction that
 * lingers before it commits, so inserts and deletes of one parent overlap. Whatever commits, no
 * child may be left without its parent; a delete that still sees a child fails (23503), and
 * races end in 40001 and are retried. Seeded: {@code -Dtell.seed=N}.
 */
class ForeignKeyRedisIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private static final int NODES = 3;
    private static final int PARENTS = 12;
    private static final int OPERATIONS = 40;

    @Test
    @Timeout(300)
    void noChildOutlivesItsParent() throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        String why = "seed " + seed + " (-Dtell.seed=" + seed + ")";
        try (SqlCluster cluster = new SqlCluster(REDIS, NODES)) {
            List<ProcessingNode> nodes = cluster.nodes;
            try (SqlSession s = nodes.get(0).openSession()) {
                SqlCluster.run(s, "CREATE TABLE parent (id INT PRIMARY KEY)");
                SqlCluster.run(s, "CREATE TABLE child (id INT PRIMARY KEY, p INT NOT NULL REFERENCES parent)");
                StringBuilder rows = new StringBuilder("INSERT INTO parent VALUES ");
                for (int i = 0; i < PARENTS; i++) {
                    rows.append(i == 0 ? "" : ", ").append("(").append(i).append(")");
                }
                SqlCluster.run(s, rows.toString());
            }
            AtomicInteger nextChild = new AtomicInteger();
            AtomicLong children = new AtomicLong();
            AtomicLong deletes = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            AtomicLong retries = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < NODES * 2; w++) {
                ProcessingNode node = nodes.get(w % NODES);
                boolean deleter = w % 2 == 1;
                Random random = new Random(seed + w);
                threads.add(Thread.ofPlatform().start(() -> {
                    try (SqlSession s = node.openSession()) {
                        s.setAutoCommit(false);
                        for (int i = 0; i < OPERATIONS; i++) {
                            int parent = random.nextInt(PARENTS);
                            String sql = deleter ? "DELETE FROM parent WHERE id = " + parent
                                    : "INSERT INTO child VALUES (" + nextChild.incrementAndGet() + ", " + parent + ")";
                            while (true) {
                                try {
                                    long changed = count(s, sql);
                                    Thread.sleep(random.nextInt(8)); // the transaction lingers: others overlap it
                                    s.commit();
                                    (deleter ? deletes : children).addAndGet(changed);
                                    break;
                                } catch (TellException e) {
                                    s.rollback();
                                    if (e.code() == ErrorCode.FOREIGN_KEY_VIOLATION) {
                                        refused.incrementAndGet(); // a child still there, or the parent gone
                                        break;
                                    }
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
            try (SqlSession s = nodes.get(1).openSession();
                 SqlResult orphans = s.execute(s.prepare("SELECT COUNT(*) FROM child AS c WHERE NOT EXISTS"
                         + " (SELECT 1 FROM parent AS p WHERE p.id = c.p)"), List.of(), 0, 0)) {
                assertTrue(orphans.next());
                assertEquals(0L, orphans.row()[0], why + ": children without a parent");
            }
            try (SqlSession s = nodes.get(2).openSession();
                 SqlResult left = s.execute(s.prepare("SELECT COUNT(*) FROM child"), List.of(), 0, 0)) {
                assertTrue(left.next());
                assertEquals(children.get(), left.row()[0], why + ": every committed child is there");
            }
            assertTrue(children.get() > 0 && refused.get() > 0, why + ": the race was run (" + children + " children, "
                    + deletes + " parents deleted, " + refused + " refused, " + retries + " retries)");
            System.out.println("ForeignKeyRedisIT " + why + ": " + children + " children, " + deletes
                    + " parents deleted, " + refused + " refused (23503), " + retries + " retried (40001)");
        }
    }

    private static long count(SqlSession s, String sql) {
        try (SqlResult r = s.execute(s.prepare(sql), List.of(), 0, 0)) {
            return r.updateCount();
        }
    }

}
