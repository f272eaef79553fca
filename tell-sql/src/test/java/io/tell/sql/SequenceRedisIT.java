package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.redis.RedisServerExtension;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sequences shared by several processing nodes over a real Redis: each node takes its own
 * ranges, so identity values and NEXT VALUE FOR never repeat across nodes, and each session
 * sees its values rise. Writers insert rows in random multi-row statements, some in
 * transactions they roll back (their values are lost, not reused). Seeded: {@code -Dtell.seed=N}.
 */
class SequenceRedisIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private static final int NODES = 3;
    private static final int WRITERS_PER_NODE = 2;
    private static final int STATEMENTS = 60;

    @Test
    void nodesNeverHandOutTheSameValue() throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        String why = "seed " + seed + " (-Dtell.seed=" + seed + ")";
        try (SqlCluster cluster = new SqlCluster(REDIS, NODES)) {
            List<ProcessingNode> nodes = cluster.nodes;
            try (SqlSession s = nodes.get(0).openSession()) {
                SqlCluster.run(s, "CREATE SEQUENCE tickets CACHE 2");
                SqlCluster.run(s, "CREATE TABLE t (id BIGINT GENERATED ALWAYS AS IDENTITY (CACHE 3) PRIMARY KEY,"
                        + " ticket BIGINT DEFAULT NEXT VALUE FOR tickets, writer INT)");
            }
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<long[]> kept = new ConcurrentLinkedQueue<>();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < NODES * WRITERS_PER_NODE; w++) {
                ProcessingNode node = nodes.get(w % NODES);
                int writer = w;
                writers.add(Thread.ofPlatform().start(() -> {
                    try {
                        write(node, writer, new Random(seed + writer), kept);
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            for (Thread t : writers) {
                t.join();
            }
            assertTrue(failures.isEmpty(), () -> why + ": " + failures.peek());
            Set<Long> ids = new HashSet<>();
            Set<Long> tickets = new HashSet<>();
            try (SqlSession s = nodes.get(1).openSession();
                 SqlResult r = s.execute(s.prepare("SELECT id, ticket FROM t"), List.of(), 0, 0)) {
                while (r.next()) {
                    assertTrue(ids.add((Long) r.row()[0]), () -> why + ": id " + r.row()[0] + " twice");
                    assertTrue(tickets.add((Long) r.row()[1]), () -> why + ": ticket " + r.row()[1] + " twice");
                }
            }
            Set<Long> returnedIds = new HashSet<>();
            for (long[] row : kept) {
                returnedIds.add(row[0]);
            }
            assertEquals(returnedIds, ids, why + ": the rows are those RETURNING reported as committed");
        }
    }

    /** Inserts 1-4 rows per statement, a quarter of them in a transaction rolled back; values rise per session. */
    private static void write(ProcessingNode node, int writer, Random random, ConcurrentLinkedQueue<long[]> kept) {
        try (SqlSession s = node.openSession()) {
            long lastId = 0;
            long lastTicket = 0;
            for (int i = 0; i < STATEMENTS; i++) {
                int rows = 1 + random.nextInt(4);
                StringBuilder sql = new StringBuilder("INSERT INTO t (writer) VALUES ");
                for (int r = 0; r < rows; r++) {
                    sql.append(r == 0 ? "" : ", ").append("(").append(writer).append(")");
                }
                boolean rollback = random.nextInt(4) == 0;
                if (rollback) {
                    s.setAutoCommit(false);
                }
                List<long[]> got = new ArrayList<>();
                try (SqlResult r = s.execute(s.prepare(sql + " RETURNING id, ticket"), List.of(), 0, 0)) {
                    while (r.next()) {
                        got.add(new long[] {(Long) r.row()[0], (Long) r.row()[1]});
                    }
                }
                assertEquals(rows, got.size());
                for (long[] g : got) {
                    assertTrue(g[0] > lastId && g[1] > lastTicket, "values rise within a session");
                    lastId = g[0];
                    lastTicket = g[1];
                }
                if (rollback) {
                    s.rollback();
                    s.setAutoCommit(true);
                } else {
                    kept.addAll(got);
                }
            }
        }
    }

}
