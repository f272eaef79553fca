package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.ScanRange;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Seeded invariant test for indexes under concurrency: accounts {@code owner|balance} with a
 * unique index on owner, on three processing nodes with their own tree clients. Threads move
 * money, rename owners (moving unique keys around, often onto names just freed or taken) and
 * look rows up by owner. Every snapshot must show distinct owners, index lookups that agree
 * with the rows, and a constant total.
 */
class IndexedConcurrencyTest {
    private static final String T = "acct";
    private static final int ACCOUNTS = 24;
    private static final int NAMES = 40;
    private static final long BALANCE = 100;

    private static byte[] row(String owner, long balance) {
        return (owner + "|" + balance).getBytes(StandardCharsets.UTF_8);
    }

    private static String owner(byte[] row) {
        String s = new String(row, StandardCharsets.UTF_8);
        return s.substring(0, s.indexOf('|'));
    }

    private static long balance(byte[] row) {
        String s = new String(row, StandardCharsets.UTF_8);
        return Long.parseLong(s.substring(s.indexOf('|') + 1));
    }

    @Test
    void uniqueOwnersLookupsAndTotalHoldUnderConcurrentRenamesAndTransfers() throws Exception {
        run(RecordStores.open("mem:"), 400);
    }

    /** The test on any store; {@code opsPerThread} bounds each of the 6 threads. */
    static void run(RecordStore store, int opsPerThread) throws Exception {
        long seed = Long.getLong("tell.seed", 1);
        LocalCommitManager cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
        List<TransactionManager> nodes = new ArrayList<>();
        List<TableIndex> indexes = new ArrayList<>();
        for (int n = 0; n < 3; n++) {
            TransactionManager tm = new TransactionManager(store, cm, "pn-" + n);
            TableIndex byOwner = new TableIndex(T, BTree.open(store, BTreeConfig.of("acct.owner", false).withNodeCapacity(6)),
                    true, r -> owner(r).getBytes(StandardCharsets.UTF_8));
            tm.addIndex(byOwner);
            nodes.add(tm);
            indexes.add(byOwner);
        }
        nodes.get(0).run(1, tx -> {
            for (int a = 0; a < ACCOUNTS; a++) {
                tx.insert(T, TableIndex.ridKey(a), row("o" + a, BALANCE));
            }
            return null;
        });
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicLong renames = new AtomicLong();
        AtomicLong duplicates = new AtomicLong();
        AtomicLong checks = new AtomicLong();
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                fs.add(pool.submit(() -> {
                    Random rnd = new Random(seed * 100 + thread);
                    TransactionManager tm = nodes.get(thread % nodes.size());
                    TableIndex index = indexes.get(thread % nodes.size());
                    for (int i = 0; i < opsPerThread && failures.isEmpty(); i++) {
                        int op = rnd.nextInt(10);
                        try {
                            if (op < 4) {
                                transfer(tm, rnd);
                            } else if (op < 7) {
                                rename(tm, rnd);
                                renames.incrementAndGet();
                            } else {
                                check(tm, index, rnd, failures, "seed " + seed + " thread " + thread + " op " + i);
                                checks.incrementAndGet();
                            }
                        } catch (TellException e) {
                            if (e.code() == ErrorCode.DUPLICATE_KEY) {
                                duplicates.incrementAndGet();
                            } else if (!e.retriable()) {
                                failures.add("seed " + seed + ": " + e);
                            }
                        }
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
        }
        check(nodes.get(0), indexes.get(0), new Random(seed), failures, "final, seed " + seed);
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        // 24 of 40 names are taken at any time, so about 60 % of random renames collide.
        int enough = opsPerThread / 8;
        assertTrue(renames.get() > enough, "too few renames succeeded to mean much: " + renames + " (seed " + seed + ")");
        assertTrue(duplicates.get() > enough, "too few renames collided to mean much: " + duplicates + " (seed " + seed + ")");
        System.out.printf("indexed concurrency on %s (seed %d): %d renames, %d refused as duplicates, %d checks%n",
                store.describe(), seed, renames.get(), duplicates.get(), checks.get());
        nodes.forEach(TransactionManager::close);
        cm.close();
    }

    private static void transfer(TransactionManager tm, Random rnd) {
        int from = rnd.nextInt(ACCOUNTS);
        int to = (from + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
        tm.run(50, tx -> {
            byte[] a = tx.get(T, TableIndex.ridKey(from));
            byte[] b = tx.get(T, TableIndex.ridKey(to));
            long moved = Math.min(balance(a), 1 + rnd.nextInt(10));
            tx.update(T, TableIndex.ridKey(from), row(owner(a), balance(a) - moved));
            tx.update(T, TableIndex.ridKey(to), row(owner(b), balance(b) + moved));
            return null;
        });
    }

    private static void rename(TransactionManager tm, Random rnd) {
        int account = rnd.nextInt(ACCOUNTS);
        String name = "o" + rnd.nextInt(NAMES);
        tm.run(50, tx -> {
            byte[] r = tx.get(T, TableIndex.ridKey(account));
            tx.update(T, TableIndex.ridKey(account), row(name, balance(r)));
            return null;
        });
    }

    private static void check(TransactionManager tm, TableIndex index, Random rnd, ConcurrentLinkedQueue<String> failures, String where) {
        try (Transaction tx = tm.beginReadOnly()) {
            List<byte[]> rows = new ArrayList<>();
            long total = 0;
            Set<String> owners = new HashSet<>();
            for (int a = 0; a < ACCOUNTS; a++) {
                byte[] r = tx.get(T, TableIndex.ridKey(a));
                rows.add(r);
                total += balance(r);
                if (!owners.add(owner(r))) {
                    failures.add(where + ": owner " + owner(r) + " appears twice");
                }
            }
            if (total != ACCOUNTS * BALANCE) {
                failures.add(where + ": total " + total);
            }
            String name = "o" + rnd.nextInt(NAMES);
            List<IndexedRow> found = tx.lookup(index, name.getBytes(StandardCharsets.UTF_8));
            long expected = rows.stream().filter(r -> owner(r).equals(name)).count();
            if (found.size() != expected) {
                failures.add(where + ": lookup of " + name + " found " + found.size() + ", rows say " + expected);
            }
            for (IndexedRow f : found) {
                if (!owner(f.row()).equals(name) || !java.util.Arrays.equals(f.row(), rows.get((int) f.rid()))) {
                    failures.add(where + ": lookup of " + name + " returned rid " + f.rid() + " = " + new String(f.row(), StandardCharsets.UTF_8));
                }
            }
            List<IndexedRow> all = tx.scanIndex(index, ScanRange.ALL, Integer.MAX_VALUE);
            if (all.size() != ACCOUNTS) {
                Set<Long> foundRids = new HashSet<>();
                all.forEach(f -> foundRids.add(f.rid()));
                StringBuilder why = new StringBuilder();
                for (int a = 0; a < ACCOUNTS; a++) {
                    if (!foundRids.contains((long) a)) {
                        String o = owner(rows.get(a));
                        why.append(" rid ").append(a).append(" owner ").append(o).append(" tree(owner)=")
                                .append(index.tree().lookup(o.getBytes(StandardCharsets.UTF_8)))
                                .append(" snapshot ").append(tx.snapshot()).append(" tid ").append(tx.tid());
                    }
                }
                failures.add(where + ": full index scan found " + all.size() + " rows;" + why);
            }
            tx.commit();
        }
    }
}
