package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellException;
import io.tell.store.redis.RedisServerExtension;
import io.tell.txn.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CREATE and DROP INDEX on a live table: processing nodes over a real Redis (each with its own
 * caches and catalog) insert, re-key and delete rows through SQL while another node creates and
 * drops a non-unique and a unique index again and again. After each CREATE INDEX, one snapshot
 * must find through the new indexes exactly the rows a full scan finds (no entry missing), and
 * so must the indexes left at the end. Writers retry what a schema change aborts (40001).
 * Seeded: {@code -Dtell.seed=N}.
 */
class OnlineIndexRedisIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private static final int NODES = 3;
    private static final int WRITERS_PER_NODE = 2;
    private static final int ROUNDS = 4;
    private static final int TAGS = 8;
    private static final int SEED_ROWS = 1500;

    @Test
    @Timeout(300)
    void indexesBuiltWhileOtherNodesWriteMissNoRow() throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        String why = "seed " + seed + " (-Dtell.seed=" + seed + ")";
        try (SqlCluster cluster = new SqlCluster(REDIS, NODES)) {
            List<ProcessingNode> nodes = cluster.nodes;
            for (int n = 0; n < NODES; n++) {
                Random pauses = new Random(seed - n);
                // Slow commits: a writer that passed its catalog check stays in flight a while
                // after logging, so schema changes often overtake commits under way.
                nodes.get(n).transactions().observeCommits((step, tid) -> {
                    if (step == io.tell.txn.CommitObserver.Step.INDEXED) {
                        sleepQuietly(pauses.nextInt(4) == 0 ? 1 + pauses.nextInt(30) : 0);
                    }
                });
            }
            ProcessingNode ddlNode = nodes.get(0);
            try (SqlSession s = ddlNode.openSession()) {
                SqlCluster.run(s, "CREATE TABLE item (id INT PRIMARY KEY, tag INT, note VARCHAR(10))");
                StringBuilder rows = new StringBuilder("INSERT INTO item VALUES ");
                for (int i = 0; i < SEED_ROWS; i++) { // ids spread out: writers insert between them
                    rows.append(i == 0 ? "" : ", ").append("(").append(i * 1000).append(", ").append(i % TAGS)
                            .append(", 'seed')");
                }
                SqlCluster.run(s, rows.toString());
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong writes = new AtomicLong();
            AtomicLong retries = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<Thread> writers = new ArrayList<>();
            for (int w = 0; w < NODES * WRITERS_PER_NODE; w++) {
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
            try (SqlSession s = ddlNode.openSession()) {
                for (int round = 0; round < ROUNDS && failures.isEmpty(); round++) {
                    long before = writes.get();
                    SqlCluster.run(s, "CREATE INDEX by_tag ON item (tag)");
                    SqlCluster.run(s, "CREATE UNIQUE INDEX by_tag_id ON item (tag, id)");
                    checkIndexes(nodes.get(1 + round % (NODES - 1)), why + ", round " + round);
                    assertTrue(failures.isEmpty(), () -> why + ": " + failures.peek());
                    if (round < ROUNDS - 1) {
                        SqlCluster.run(s, "DROP INDEX by_tag");
                        SqlCluster.run(s, "DROP INDEX by_tag_id");
                    }
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
            checkIndexes(nodes.get(2), why + ", at the end");
            System.out.println("OnlineIndexRedisIT " + why + ": " + writes.get() + " writes, " + retries.get()
                    + " retried after a schema change or conflict");
        }
    }

    @Test
    void aUniqueIndexDroppedThroughOneNodeRefusesNothingOnAnother() {
        try (SqlCluster cluster = new SqlCluster(REDIS, 2);
             SqlSession one = cluster.nodes.get(0).openSession();
             SqlSession two = cluster.nodes.get(1).openSession()) {
            SqlCluster.run(one, "CREATE TABLE u (id INT PRIMARY KEY, code INT)");
            SqlCluster.run(one, "CREATE UNIQUE INDEX u_code ON u (code)");
            SqlCluster.run(two, "INSERT INTO u VALUES (1, 7)"); // the second node keeps the index now
            TellException duplicate = org.junit.jupiter.api.Assertions.assertThrows(TellException.class,
                    () -> SqlCluster.run(two, "INSERT INTO u VALUES (2, 7)"));
            assertEquals(io.tell.error.ErrorCode.DUPLICATE_KEY, duplicate.code());
            SqlCluster.run(one, "DROP INDEX u_code");
            SqlCluster.run(two, "INSERT INTO u VALUES (2, 7)");
            SqlCluster.run(one, "INSERT INTO u VALUES (3, 7)");
        }
    }

    /** Inserts rows of its own (ids {@code 16k + 1 + writer}), moves them to other tags, deletes them; retries 40001. */
    private static void write(ProcessingNode node, int writer, Random random, AtomicBoolean stop, AtomicLong writes,
                              AtomicLong retries) {
        List<Integer> mine = new ArrayList<>();
        try (SqlSession s = node.openSession()) {
            while (!stop.get()) {
                int op = random.nextInt(10);
                String sql;
                Integer id;
                if (op < 5 || mine.size() < 5) {
                    // anywhere in the table, so that a backfill may have passed the place already
                    id = (random.nextInt(SEED_ROWS * 1000 / 16) * 16 + 1 + writer);
                    if (mine.contains(id)) {
                        continue;
                    }
                    sql = "INSERT INTO item VALUES (" + id + ", " + random.nextInt(TAGS) + ", 'w" + writer + "')";
                } else if (op < 8) {
                    id = mine.get(random.nextInt(mine.size()));
                    sql = "UPDATE item SET tag = " + random.nextInt(TAGS) + " WHERE id = " + id;
                } else {
                    id = mine.remove(random.nextInt(mine.size()));
                    sql = "DELETE FROM item WHERE id = " + id;
                }
                while (true) {
                    try {
                        SqlCluster.run(s, sql);
                        break;
                    } catch (TellException e) {
                        if (!e.retriable()) {
                            throw e;
                        }
                        retries.incrementAndGet();
                    }
                }
                if (op < 5 || sql.startsWith("INSERT")) {
                    mine.add(id);
                }
                writes.incrementAndGet();
            }
        }
    }

    /** In one snapshot, each index finds exactly the rows a scan of the table finds. */
    private static void checkIndexes(ProcessingNode node, String why) {
        CatalogSnapshot cat = node.catalog().snapshot();
        TableStore t = node.table(cat.table("ITEM").orElseThrow());
        try (Transaction tx = node.transactions().beginReadOnly()) {
            TreeMap<Integer, List<Integer>> byTag = new TreeMap<>();
            List<TableStore.Row> all = t.scanAll(tx);
            for (TableStore.Row r : all) {
                byTag.computeIfAbsent((Integer) r.values()[1], k -> new ArrayList<>()).add((Integer) r.values()[0]);
            }
            for (int tag = 0; tag < TAGS; tag++) {
                List<Integer> want = byTag.getOrDefault(tag, List.of()).stream().sorted().toList();
                same(want, ids(t.lookup(tx, "BY_TAG", tag)), why + ": BY_TAG, tag " + tag);
                same(want, ids(t.lookup(tx, "BY_TAG_ID", tag)), why + ": BY_TAG_ID, tag " + tag);
            }
            for (TableStore.Row r : all) {
                assertEquals(List.of(r.values()[0]), ids(t.lookup(tx, "BY_TAG_ID", r.values()[1], r.values()[0])),
                        why + ": BY_TAG_ID finds row " + r.values()[0]);
            }
            tx.commit();
        }
    }

    /** Equal lists of ids, or a failure naming the ids missing from and extra in {@code got}. */
    private static void same(List<Integer> want, List<Integer> got, String what) {
        if (!want.equals(got)) {
            List<Integer> missing = new ArrayList<>(want);
            missing.removeAll(got);
            List<Integer> extra = new ArrayList<>(got);
            extra.removeAll(want);
            throw new AssertionError(what + ": the index misses rows " + missing + " and has rows " + extra
                    + " the table does not");
        }
    }

    private static void sleepQuietly(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<Integer> ids(List<TableStore.Row> rows) {
        return rows.stream().map(r -> (Integer) r.values()[0]).sorted().toList();
    }

}
