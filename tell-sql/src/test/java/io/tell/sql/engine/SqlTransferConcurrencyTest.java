package io.tell.sql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellException;
import io.tell.sql.ColumnType;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import io.tell.sql.TableSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Seeded concurrent transfers through SQL sessions (explicit transactions, retried on
 * conflicts) while readers sum all balances and count rows through a secondary index: every
 * snapshot must see the same total and the same number of rows. Seed: {@code -Dtell.seed=N}.
 */
class SqlTransferConcurrencyTest {
    private static final int ACCOUNTS = 30;
    private static final int WRITERS = 6;
    private static final int TRANSFERS = 150;

    @Test
    void snapshotsSeeConstantTotals() throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        System.out.println("SqlTransferConcurrencyTest seed " + seed);
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:")) {
            node.catalog().createTable(TableSpec.builder("ACCOUNT").notNull("ID", ColumnType.INTEGER)
                    .notNull("BALANCE", ColumnType.BIGINT).notNull("BRANCH", ColumnType.INTEGER).primaryKey("ID")
                    .index("ACCOUNT_BRANCH", false, "BRANCH").build(), false);
            try (SqlSession s = node.openSession()) {
                PreparedSql insert = s.prepare("INSERT INTO account VALUES (?, 100, ?)");
                for (int i = 0; i < ACCOUNTS; i++) {
                    s.execute(insert, List.of(i, i % 3), 0, 0).close();
                }
            }
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 2);
            AtomicLong conflicts = new AtomicLong();
            AtomicLong reads = new AtomicLong();
            // Writers start once both readers are reading, so reads overlap the writes on any machine.
            java.util.concurrent.CountDownLatch reading = new java.util.concurrent.CountDownLatch(2);
            List<Future<?>> readers = new ArrayList<>();
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            for (int r = 0; r < 2; r++) {
                readers.add(pool.submit(() -> read(node, done, reads, reading)));
            }
            reading.await();
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                Random random = new Random(seed + w);
                writers.add(pool.submit(() -> transfers(node, random, conflicts)));
            }
            for (Future<?> f : writers) {
                f.get();
            }
            done.set(true);
            for (Future<?> f : readers) {
                f.get();
            }
            pool.shutdown();
            System.out.println("conflicts retried: " + conflicts.get() + ", consistent reads: " + reads.get());
            assertTrue(reads.get() > 0);
            try (SqlSession s = node.openSession()) {
                assertEquals(List.of(ACCOUNTS * 100L, (long) ACCOUNTS), sumAndCount(s));
            }
        }
    }

    private static void transfers(ProcessingNode node, Random random, AtomicLong conflicts) {
        try (SqlSession s = node.openSession()) {
            s.setAutoCommit(false);
            PreparedSql debit = s.prepare("UPDATE account SET balance = balance - ? WHERE id = ?");
            PreparedSql credit = s.prepare("UPDATE account SET balance = balance + ? WHERE id = ?");
            PreparedSql move = s.prepare("UPDATE account SET branch = ? WHERE id = ?");
            for (int done = 0; done < TRANSFERS; ) {
                int from = random.nextInt(ACCOUNTS);
                int to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                long amount = 1 + random.nextInt(20);
                try {
                    s.execute(debit, List.of(amount, from), 0, 0).close();
                    s.execute(credit, List.of(amount, to), 0, 0).close();
                    if (random.nextInt(4) == 0) {
                        s.execute(move, List.of(random.nextInt(3), to), 0, 0).close();
                    }
                    s.commit();
                    done++;
                } catch (TellException e) {
                    if (!e.retriable()) {
                        throw e;
                    }
                    s.rollback();
                    conflicts.incrementAndGet();
                }
            }
        }
    }

    private static void read(ProcessingNode node, java.util.concurrent.atomic.AtomicBoolean done, AtomicLong reads,
                             java.util.concurrent.CountDownLatch reading) {
        try (SqlSession s = node.openSession()) {
            PreparedSql byBranch = s.prepare("SELECT COUNT(*), SUM(balance) FROM account WHERE branch = ?");
            reading.countDown();
            while (!done.get()) {
                assertEquals(List.of(ACCOUNTS * 100L, (long) ACCOUNTS), sumAndCount(s));
                s.setAutoCommit(false);
                long rows = 0;
                long total = 0;
                for (int b = 0; b < 3; b++) {
                    try (SqlResult r = s.execute(byBranch, List.of(b), 0, 0)) {
                        r.next();
                        rows += (Long) r.row()[0];
                        total += r.row()[1] == null ? 0 : ((Number) r.row()[1]).longValue();
                    }
                }
                s.commit();
                s.setAutoCommit(true);
                assertEquals(ACCOUNTS, rows, "rows through the branch index in one snapshot");
                assertEquals(ACCOUNTS * 100L, total, "total through the branch index in one snapshot");
                reads.incrementAndGet();
            }
        }
    }

    private static List<Long> sumAndCount(SqlSession s) {
        try (SqlResult r = s.execute(s.prepare("SELECT SUM(balance), COUNT(*) FROM account"), List.of(), 0, 0)) {
            r.next();
            return List.of(((Number) r.row()[0]).longValue(), ((Number) r.row()[1]).longValue());
        }
    }
}
