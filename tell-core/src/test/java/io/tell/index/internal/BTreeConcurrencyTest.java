package io.tell.index.internal;

import static io.tell.index.internal.TreeTesting.SEED;
import static io.tell.index.internal.TreeTesting.seedNote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.index.InsertResult;
import io.tell.index.ScanRange;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Several tree clients (processing nodes, each with its own cache) and several threads per
 * client working on overlapping keys at once. Each thread owns some entries (a rid of its own,
 * or keys of its own in a unique tree), so the outcome of its operations on them is known
 * exactly while the leaves and splits are fought over by all. {@code -Dtell.btree.threadOps=N}
 * sets the operations per thread.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class BTreeConcurrencyTest {
    private static final int CLIENTS = 4;
    private static final int THREADS_PER_CLIENT = 2;
    private static final int THREAD_OPS = Integer.getInteger("tell.btree.threadOps", 4000);

    @ParameterizedTest(name = "unique={0} inlineLeaves={1} crashes={2}")
    @CsvSource({"false,true,false", "true,false,false", "false,true,true", "true,true,true"})
    void concurrentClientsKeepTheTreeValidAndAgreeWithTheirModels(boolean unique, boolean inline, boolean crashes)
            throws Exception {
        runConcurrent(new JitterRecordStore(RecordStores.open("mem:")), "conc", unique, inline, crashes);
    }

    /**
     * Crashing clients leave records no walk reaches; tree audits running all along (as the
     * sweeper's do, each with an id ceiling read a range life earlier) delete them, and never a
     * record a client still needs: every client's operations keep agreeing with its model, and
     * at the end the tree is valid and holds no garbage at all.
     */
    @Test
    void auditsWhileClientsCrashDeleteOnlyWhatNoWalkReaches() throws Exception {
        runConcurrent(new JitterRecordStore(RecordStores.open("mem:")), "audited", false, false, true, true);
    }

    /** The concurrency test on any store (BTreeRedisIT runs it on Redis). */
    static void runConcurrent(RecordStore store, String name, boolean unique, boolean inline, boolean crashes)
            throws Exception {
        runConcurrent(store, name, unique, inline, crashes, false);
    }

    /** With {@code audits}, the clients work for at least three range lives while an auditor deletes unreachable records. */
    static void runConcurrent(RecordStore store, String name, boolean unique, boolean inline, boolean crashes,
            boolean audits) throws Exception {
        int capacity = 5;
        int space = unique ? 1200 : 300; // about 1,200 possible entries either way
        BTreeConfig config = new BTreeConfig(name, unique, capacity, 500, 20, inline);
        int threads = CLIENTS * THREADS_PER_CLIENT;
        List<Worker> workers = new ArrayList<>();
        List<BLinkTree> shared = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            shared.add(BLinkTree.open(store, config));
        }
        for (int t = 0; t < threads; t++) {
            // Crashing clients cannot be shared: each thread is a processing node that may die.
            Random rnd = new Random(SEED * 1000 + t);
            workers.add(crashes ? new Worker(t, threads, unique, space, rnd, store, config)
                    : new Worker(t, threads, unique, space, rnd, shared.get(t % CLIENTS)));
        }
        long until = audits ? System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(3 * NodeStore.ID_RANGE_LIFE_MILLIS) : 0;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<TreeSet<IndexEntry>>> results = new ArrayList<>();
        for (Worker w : workers) {
            results.add(pool.submit(() -> w.run(until)));
        }
        AtomicBoolean working = new AtomicBoolean(true);
        AtomicLong auditedAlong = new AtomicLong();
        Thread auditor = Thread.ofPlatform().start(() -> {
            while (audits && working.get()) {
                auditedAlong.addAndGet(audit(store, name, true));
            }
        });
        TreeSet<IndexEntry> model = new TreeSet<>();
        try {
            for (Future<TreeSet<IndexEntry>> f : results) {
                model.addAll(f.get());
            }
        } finally {
            pool.shutdownNow();
            working.set(false);
            auditor.join();
        }
        if (audits) {
            assertTrue(auditedAlong.get() > 0, "no audit deleted anything while the clients worked" + seedNote());
            audit(store, name, false); // nobody works any more: everything unreachable goes
        }
        TreeStats.Snapshot stats = new TreeStats.Snapshot(0, 0, 0, 0, 0, 0, 0, 0);
        Set<BLinkTree> counted = Collections.newSetFromMap(new IdentityHashMap<>());
        int crashed = 0;
        for (Worker w : workers) {
            w.tree.flush();
            stats = stats.plus(w.earlierStats);
            if (counted.add(w.tree)) {
                stats = stats.plus(w.tree.stats());
            }
            crashed += w.crashes;
        }
        TreeValidator.Report report = TreeTesting.validateAgainst(store, name, model);
        if (!crashes) {
            assertEquals(0, report.missingSeparators(), "every split finished" + seedNote());
            assertEquals(1, report.topLevelNodes(), seedNote());
        } else {
            assertTrue(crashed > 10, "only " + crashed + " crashes" + seedNote());
        }
        if (!crashes || audits) {
            assertEquals(0, report.unreachableMappings(), "garbage left" + seedNote());
            assertEquals(0, report.unreferencedPhysical(), "garbage left" + seedNote());
        }
        assertTrue(report.height() >= 2, "tree too flat to mean much: " + report.nodesPerLevel());
        System.out.printf("b-tree concurrency test on %s (unique %s, inline %s): %d entries, %d crashes, nodes per level %s,"
                + " missing separators %d, %s%n", store.describe(), unique, inline, model.size(), crashed, report.nodesPerLevel(),
                report.missingSeparators(), stats);
    }

    /**
     * One audit as the sweeper runs it: the id ceiling first, then (while clients may work) a
     * range life and some room for writes in flight later, the deletes. Returns how many took effect.
     */
    private static long audit(RecordStore store, String name, boolean clientsWork) {
        long ceiling = UnreachableRecords.idCeiling(store, name);
        if (clientsWork) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(NodeStore.ID_RANGE_LIFE_MILLIS + 300));
        }
        return store.writeAll(UnreachableRecords.find(store, name, ceiling, 50)).stream().filter(r -> r.written()).count();
    }

    /** Thrown from a split hook: the processing node dies between two conditional writes. */
    private static final class Crash extends RuntimeException {
        Crash() {
            super("processing node crashed", null, false, false);
        }
    }

    /**
     * One thread's random operations on the entries it owns. With crashes, its client dies now
     * and then right after a conditional write of a split; the thread then "restarts" with a
     * new client (empty cache) and finds out by a lookup whether the interrupted change took
     * effect, which only it can have caused.
     */
    private static final class Worker {
        final int thread;
        final int threads;
        final boolean unique;
        final int space;
        final Random rnd;
        /** Which scans go in a batch, and the batch's other ranges: apart, so that {@link #rnd}'s workload stays as it was. */
        final Random batches;
        final RecordStore store;
        final BTreeConfig config;
        final TreeSet<IndexEntry> mine = new TreeSet<>();
        final String who;
        BLinkTree tree;
        TreeStats.Snapshot earlierStats = new TreeStats.Snapshot(0, 0, 0, 0, 0, 0, 0, 0);
        int crashes;

        Worker(int thread, int threads, boolean unique, int space, Random rnd, BLinkTree tree) {
            this(thread, threads, unique, space, rnd, null, null, tree);
        }

        Worker(int thread, int threads, boolean unique, int space, Random rnd, RecordStore store, BTreeConfig config) {
            this(thread, threads, unique, space, rnd, store, config, null);
            this.tree = crashingClient();
        }

        private Worker(int thread, int threads, boolean unique, int space, Random rnd, RecordStore store,
                       BTreeConfig config, BLinkTree tree) {
            this.thread = thread;
            this.threads = threads;
            this.unique = unique;
            this.space = space;
            this.rnd = rnd;
            this.batches = new Random(31L * thread + 7);
            this.store = store;
            this.config = config;
            this.tree = tree;
            this.who = " (thread " + thread + ")" + seedNote();
        }

        private BLinkTree crashingClient() {
            Random dice = new Random(rnd.nextLong());
            return BLinkTree.open(store, config, (step, level) -> {
                if (dice.nextInt(25) == 0) {
                    throw new Crash();
                }
            });
        }

        /** Runs its operations, and more until {@code untilNanos} (0: no more). */
        TreeSet<IndexEntry> run(long untilNanos) {
            for (int op = 0; op < THREAD_OPS || untilNanos != 0 && System.nanoTime() - untilNanos < 0; op++) {
                int kind = rnd.nextInt(100);
                if (kind < 50) {
                    IndexEntry e = ownEntry(rnd, thread, threads, unique, space);
                    try {
                        InsertResult r = tree.insert(e.key(), e.rid());
                        InsertResult expected = TreeTesting.expectedInsert(mine, e, unique);
                        assertEquals(expected, r, () -> "insert " + e + who);
                        if (r.inserted()) {
                            mine.add(e);
                        }
                    } catch (Crash crash) {
                        restartAndResolve(e);
                    }
                } else if (kind < 75) {
                    IndexEntry e = mine.isEmpty() || rnd.nextInt(4) == 0 ? ownEntry(rnd, thread, threads, unique, space)
                            : mine.ceiling(ownEntry(rnd, thread, threads, unique, space));
                    IndexEntry d = e != null ? e : mine.first();
                    try {
                        assertEquals(mine.remove(d), tree.delete(d.key(), d.rid()), () -> "delete " + d + who);
                    } catch (Crash crash) {
                        restartAndResolve(d);
                    }
                } else if (kind < 85) {
                    IndexEntry e = ownEntry(rnd, thread, threads, unique, space);
                    List<Long> rids;
                    try {
                        rids = tree.lookup(e.key());
                    } catch (Crash crash) { // while finishing a leaf removal it ran into
                        restart();
                        continue;
                    }
                    boolean expected = unique ? hasKey(mine, e.key()) : mine.contains(e);
                    boolean found = unique ? !rids.isEmpty() : rids.contains(e.rid());
                    assertEquals(expected, found, () -> "lookup " + e + " gave " + rids + who);
                } else {
                    try {
                        checkScan();
                    } catch (Crash crash) {
                        restart();
                    }
                }
            }
            return mine;
        }

        private void restart() {
            crashes++;
            earlierStats = earlierStats.plus(tree.stats());
            tree = crashingClient();
        }

        private void restartAndResolve(IndexEntry e) {
            while (true) {
                restart();
                try {
                    if (tree.lookup(e.key()).contains(e.rid())) {
                        mine.add(e);
                    } else {
                        mine.remove(e);
                    }
                    return;
                } catch (Crash crash) { // the lookup ran into a leaf removal to finish, and crashed there
                    continue;
                }
            }
        }

        private void checkScan() {
            ScanRange range = TreeTesting.randomRange(rnd, space);
            boolean descending = rnd.nextBoolean();
            if (!descending && batches.nextInt(3) == 0) { // a batch of ranges, along the right links as a scan goes
                List<ScanRange> ranges = List.of(range, TreeTesting.randomRange(batches, space), TreeTesting.randomRange(batches, space));
                List<List<IndexEntry>> got = tree.scanBatch(ranges);
                for (int i = 0; i < ranges.size(); i++) {
                    checkScanned(ranges.get(i), false, got.get(i));
                }
                return;
            }
            checkScanned(range, descending, tree.scan(range, descending, Integer.MAX_VALUE));
        }

        private void checkScanned(ScanRange range, boolean descending, List<IndexEntry> got) {
            for (int i = 0; i < got.size(); i++) {
                IndexEntry e = got.get(i);
                assertTrue(range.contains(e.key()), () -> "scan result outside " + range + who);
                if (i > 0) {
                    int c = got.get(i - 1).compareTo(e);
                    assertTrue(descending ? c > 0 : c < 0, () -> "scan out of order" + who);
                }
            }
            List<IndexEntry> expectedMine = TreeTesting.expectedScan(mine, range, descending, Integer.MAX_VALUE);
            List<IndexEntry> gotMine = got.stream().filter(e -> owned(e, thread, threads, unique)).toList();
            assertEquals(expectedMine, gotMine, () -> "scan " + range + " differs on own entries" + who);
        }
    }

    private static IndexEntry ownEntry(Random rnd, int thread, int threads, boolean unique, int space) {
        if (unique) {
            int k = rnd.nextInt(space / threads) * threads + thread;
            return new IndexEntry(TreeTesting.key(k), rnd.nextInt(1000));
        }
        return new IndexEntry(TreeTesting.key(rnd, space), thread);
    }

    private static boolean owned(IndexEntry e, int thread, int threads, boolean unique) {
        if (!unique) {
            return e.rid() == thread;
        }
        int k = TreeTesting.firstInt(e.key());
        return k % threads == thread;
    }

    private static boolean hasKey(TreeSet<IndexEntry> set, byte[] key) {
        IndexEntry e = set.ceiling(new IndexEntry(key, Long.MIN_VALUE));
        return e != null && e.sameKey(new IndexEntry(key, 0));
    }

    @Test
    void racingUniqueInsertsOfOneKeyLetExactlyOneWin() throws Exception {
        RecordStore store = new JitterRecordStore(RecordStores.open("mem:"));
        BTreeConfig config = new BTreeConfig("race", true, 4, 100, 10, true);
        int racers = 6;
        int rounds = 300;
        List<BLinkTree> clients = new ArrayList<>();
        for (int c = 0; c < racers; c++) {
            clients.add(BLinkTree.open(store, config));
        }
        CyclicBarrier barrier = new CyclicBarrier(racers);
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        List<Future<List<InsertResult>>> futures = new ArrayList<>();
        for (int r = 0; r < racers; r++) {
            int racer = r;
            futures.add(pool.submit(() -> {
                Random rnd = new Random(SEED + racer);
                List<InsertResult> out = new ArrayList<>();
                for (int round = 0; round < rounds; round++) {
                    // Some traffic of its own between races, so that the leaves split under the racers.
                    clients.get(racer).insert(TreeTesting.key(rnd.nextInt(5000), "t"), racer);
                    barrier.await(60, TimeUnit.SECONDS); // a racer that failed must not hang the rest
                    out.add(clients.get(racer).insert(TreeTesting.key(round * 7919 % 4000), round * 100L + racer));
                }
                return out;
            }));
        }
        List<List<InsertResult>> all = new ArrayList<>();
        try {
            for (Future<List<InsertResult>> f : futures) {
                all.add(f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        for (int round = 0; round < rounds; round++) {
            List<Long> winners = new ArrayList<>();
            for (int r = 0; r < racers; r++) {
                if (all.get(r).get(round).inserted()) {
                    winners.add(round * 100L + r);
                }
            }
            assertEquals(1, winners.size(), "round " + round + ": winners " + winners + seedNote());
            long winner = winners.get(0);
            for (int r = 0; r < racers; r++) {
                InsertResult res = all.get(r).get(round);
                assertTrue(res.inserted() || res.equals(new InsertResult.DuplicateKey(winner)),
                        "round " + round + " racer " + r + ": " + res + seedNote());
            }
            assertEquals(List.of(winner), clients.get(round % racers).lookup(TreeTesting.key(round * 7919 % 4000)));
        }
        TreeValidator.validate(store, "race");
    }
}
