package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellException;
import io.tell.store.redis.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ALTER TABLE on a live table: processing nodes over a real Redis move money between accounts
 * and open new ones through SQL while another node adds columns (with a DEFAULT the stored rows
 * read), drops and renames them. After every change, in one snapshot: the money adds up, every
 * row keeps the values it was written with, and the newest column reads its DEFAULT on every
 * row, old or new. Writers retry what a schema change aborts (40001). Seeded: {@code -Dtell.seed=N}.
 */
class OnlineAlterRedisIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private static final int NODES = 3;
    private static final int ACCOUNTS = 50;
    private static final int ROUNDS = 5;

    @Test
    @Timeout(300)
    void columnsComeAndGoWhileOtherNodesWrite() throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        String why = "seed " + seed + " (-Dtell.seed=" + seed + ")";
        try (SqlCluster cluster = new SqlCluster(REDIS, NODES)) {
            List<ProcessingNode> nodes = cluster.nodes;
            try (SqlSession s = nodes.get(0).openSession()) {
                SqlCluster.run(s, "CREATE TABLE acct (id INT PRIMARY KEY, owner INT NOT NULL, balance BIGINT NOT NULL, note VARCHAR(5))");
                StringBuilder rows = new StringBuilder("INSERT INTO acct (id, owner, balance) VALUES ");
                for (int i = 0; i < ACCOUNTS; i++) {
                    rows.append(i == 0 ? "" : ", ").append("(").append(i).append(", ").append(i % 7).append(", 100)");
                }
                SqlCluster.run(s, rows.toString());
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong writes = new AtomicLong();
            AtomicLong retries = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < NODES * 2; w++) {
                ProcessingNode node = nodes.get(w % NODES);
                int writer = w;
                writers.add(Thread.ofPlatform().start(() -> {
                    try {
                        write(node, writer, new Random(seed + writer), stop, writes, retries);
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            try (SqlSession s = nodes.get(0).openSession()) {
                String note = "NOTE";
                for (int round = 1; round <= ROUNDS && failures.isEmpty(); round++) {
                    long before = writes.get();
                    SqlCluster.run(s, "ALTER TABLE acct ADD COLUMN extra" + round + " INT DEFAULT " + round);
                    if (round > 1) {
                        SqlCluster.run(s, "ALTER TABLE acct DROP COLUMN extra" + (round - 1));
                    }
                    SqlCluster.run(s, "ALTER TABLE acct RENAME COLUMN " + note + " TO note" + round);
                    note = "NOTE" + round;
                    check(nodes.get(1 + round % (NODES - 1)), round, why + ", round " + round);
                    while (writes.get() < before + 20 && failures.isEmpty()) {
                        Thread.sleep(5); // writers move on between rounds
                    }
                }
            } finally {
                stop.set(true);
                for (Thread t : writers) {
                    t.join();
                }
            }
            assertTrue(failures.isEmpty(), () -> why + ": " + failures.peek());
            check(nodes.get(2), ROUNDS, why + ", at the end");
            System.out.println("OnlineAlterRedisIT " + why + ": " + writes.get() + " writes, " + retries.get()
                    + " retried");
        }
    }

    /** Moves 1 between two accounts, or opens an account with nothing in it; retries 40001. */
    private static void write(ProcessingNode node, int writer, Random random, AtomicBoolean stop, AtomicLong writes,
                              AtomicLong retries) {
        int next = 1000 * (writer + 1);
        try (SqlSession s = node.openSession()) {
            while (!stop.get()) {
                boolean open = random.nextInt(5) == 0;
                int from = random.nextInt(ACCOUNTS);
                int to = random.nextInt(ACCOUNTS);
                int id = next;
                while (true) {
                    try {
                        if (open) {
                            SqlCluster.run(s, "INSERT INTO acct (id, owner, balance) VALUES (" + id + ", " + id % 7 + ", 0)");
                        } else {
                            s.setAutoCommit(false);
                            SqlCluster.run(s, "UPDATE acct SET balance = balance - 1 WHERE id = " + from);
                            SqlCluster.run(s, "UPDATE acct SET balance = balance + 1 WHERE id = " + to);
                            s.commit();
                            s.setAutoCommit(true);
                        }
                        break;
                    } catch (TellException e) {
                        if (!s.autoCommit()) {
                            s.rollback();
                            s.setAutoCommit(true);
                        }
                        if (!e.retriable()) {
                            throw e;
                        }
                        retries.incrementAndGet();
                    }
                }
                if (open) {
                    next++;
                }
                writes.incrementAndGet();
            }
        }
    }

    /** In one snapshot: the money adds up, owners are as written, and column {@code extra<round>} reads its DEFAULT. */
    private static void check(ProcessingNode node, int round, String why) {
        try (SqlSession s = node.openSession()) {
            s.setAutoCommit(false);
            assertEquals(List.of(100L * ACCOUNTS), column(s, "SELECT SUM(balance) FROM acct"), why + ": the money");
            assertEquals(List.of(0L), column(s, "SELECT COUNT(*) FROM acct WHERE owner <> MOD(id, 7)"), why + ": owners");
            assertEquals(List.of(0L), column(s, "SELECT COUNT(*) FROM acct WHERE extra" + round + " IS DISTINCT FROM "
                    + round), why + ": the added column's DEFAULT");
            s.commit();
        }
    }

    private static List<Object> column(SqlSession s, String sql) {
        List<Object> out = new ArrayList<>();
        try (SqlResult r = s.execute(s.prepare(sql), List.of(), 0, 0)) {
            while (r.next()) {
                out.add(r.row()[0]);
            }
        }
        return out;
    }

}
