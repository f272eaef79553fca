package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.TellException;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Seeded randomized check that SERIALIZABLE histories are serializable: threads run small
 * transactions over a few records (read-modify-writes, reads of several records, read-only
 * transactions, declared or not), each row naming the tid that wrote it. From what every
 * committed transaction read and wrote the test builds the dependency graph (wr: the writer of
 * a version read precedes its reader; ww: a version's writer precedes whoever overwrote it; rw:
 * a reader precedes whoever overwrote the version it read) and requires it to be acyclic.
 * {@code -Dtell.seed=N} reruns a seed.
 */
class SerializableHistoryTest {
    private static final String D = "history";
    private static final int KEYS = 5;
    private RecordStore store;
    private CommitManagerFixture fixture;
    private LocalCommitManager cm;
    private TransactionManager tm;

    @BeforeEach
    void setUp() {
        store = RecordStores.open("mem:");
        fixture = fixture();
        cm = LocalCommitManager.open(store, fixture.options());
        tm = new TransactionManager(store, fixture.connect(cm), "pn");
    }

    @AfterEach
    void tearDown() {
        tm.close();
        fixture.close();
        cm.close();
    }

    /** How the transactions reach the commit manager (here: embedded). */
    CommitManagerFixture fixture() {
        return CommitManagerFixture.embedded();
    }

    /** A committed transaction: the version (writer's tid) it read of each record, and the records it wrote. */
    record Committed(long tid, Map<Long, Long> reads, List<Long> writes) {
    }

    private static byte[] k(long key) {
        return TableIndex.ridKey(key);
    }

    private static long writerOf(byte[] row) {
        return Long.parseLong(new String(row, StandardCharsets.UTF_8));
    }

    private Committed setup(int keyCount) {
        List<Long> keys = new ArrayList<>();
        long tid = tm.run(1, tx -> {
            for (long key = 0; key < keyCount; key++) {
                tx.put(D, k(key), Long.toString(tx.tid()).getBytes(StandardCharsets.UTF_8));
                keys.add(key);
            }
            return tx.tid();
        });
        return new Committed(tid, Map.of(), keys);
    }

    /** Reads {@code readKeys} in order, then writes {@code writeKeys} (each one read first). */
    private static Committed attempt(Transaction tx, List<Long> readKeys, List<Long> writeKeys) {
        Map<Long, Long> reads = new LinkedHashMap<>();
        for (long key : readKeys) {
            reads.put(key, writerOf(tx.get(D, k(key))));
        }
        for (long key : writeKeys) {
            tx.update(D, k(key), Long.toString(tx.tid()).getBytes(StandardCharsets.UTF_8));
        }
        tx.commit();
        return new Committed(tx.tid(), reads, writeKeys);
    }

    /**
     * How a thread draws its next transaction: its kind (0, 1: read-write; 2: reads only, with a
     * tid; 3: declared read-only), then how many items it reads.
     */
    private record Mix(ToIntFunction<Random> kind, ToIntFunction<Random> items) {
    }

    private static final Mix EVEN = new Mix(rnd -> rnd.nextInt(4), rnd -> 1 + rnd.nextInt(3));
    /**
     * One read-write transaction in forty, each reading 2 to 5 items: the units of a synced
     * buffer stay unchanged long enough for their copies to serve (a node stops keeping copies
     * of units written more than once per 64 reads or so, {@code SharedRecordBuffer.UnitHistory}),
     * and readers of several items close a cycle when a copy serves that should not.
     */
    private static final Mix READ_MOSTLY = new Mix(rnd -> rnd.nextInt(40) == 0 ? 0 : 2 + rnd.nextInt(2),
            rnd -> 2 + rnd.nextInt(4));

    /**
     * One random transaction of a thread: picks {@code n} distinct items below {@code space},
     * some of them to write, and runs them; returns what committed.
     */
    private interface Step {
        Committed run(Transaction tx, List<Long> readItems, List<Long> writeItems);
    }

    /**
     * Four threads run 500 random transactions each (kinds: two read-write, one that only reads
     * with a tid, one declared read-only), then the dependency graph of what committed must be
     * acyclic. {@code threadSalt} keeps the tests' random streams apart. The second form draws
     * the kinds from {@code mix} and runs {@code perThread} transactions a thread.
     */
    private void runAndCheck(String what, long seed, long threadSalt, int space, Committed setup, Step step)
            throws Exception {
        runAndCheck(what, seed, threadSalt, space, setup, step, EVEN, 500);
    }

    private void runAndCheck(String what, long seed, long threadSalt, int space, Committed setup, Step step, Mix mix,
                             int perThread) throws Exception {
        int threads = 4;
        ConcurrentLinkedQueue<Committed> history = new ConcurrentLinkedQueue<>();
        history.add(setup);
        int[] outcomes = new int[4]; // read-write commits, reader commits, read-write failures, reader failures
        // Every third writer lingers between its validation and its report, so that other
        // transactions start and commit while it validates (also with a commit manager a
        // round trip away, whose calls would otherwise leave that window nearly always empty).
        tm.observeCommits((s, tid) -> {
            if (s == CommitObserver.Step.APPLIED && tid % 3 == 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        });
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long threadSeed = seed * threadSalt + t;
                fs.add(pool.submit(() -> {
                    Random rnd = new Random(threadSeed);
                    for (int i = 0; i < perThread; i++) {
                        int kind = mix.kind().applyAsInt(rnd);
                        List<Long> readItems = new ArrayList<>();
                        int n = mix.items().applyAsInt(rnd);
                        while (readItems.size() < n) {
                            long item = rnd.nextInt(space);
                            if (!readItems.contains(item)) {
                                readItems.add(item);
                            }
                        }
                        List<Long> writeItems = kind < 2 ? List.of(readItems.get(rnd.nextInt(readItems.size()))) : List.of();
                        Transaction tx = kind == 3 ? tm.beginReadOnly(Isolation.SERIALIZABLE) : tm.begin(Isolation.SERIALIZABLE);
                        try {
                            history.add(step.run(tx, readItems, writeItems));
                            count(outcomes, writeItems.isEmpty() ? 1 : 0);
                        } catch (TellException e) {
                            tx.rollback();
                            count(outcomes, writeItems.isEmpty() ? 3 : 2);
                        }
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get(180, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdown();
        }
        List<Long> cycle = cycle(new ArrayList<>(history));
        assertNull(cycle, "seed " + seed + " (-Dtell.seed=" + seed + "): a dependency cycle among committed transactions " + cycle);
        System.out.printf("serializable %s (seed %d): %d read-write and %d reader commits, %d and %d failures%n",
                what, seed, outcomes[0], outcomes[1], outcomes[2], outcomes[3]);
        assertTrue(outcomes[0] > 50 && outcomes[1] > 50, "seed " + seed + ": too few commits to say anything");
    }

    @Test
    void concurrentSerializableHistoriesAreAcyclic() throws Exception {
        runAndCheck("history", Long.getLong("tell.seed", 7), 31, KEYS, setup(KEYS), SerializableHistoryTest::attempt);
    }

    /**
     * The same with reads served by the node's shared buffer, by the snapshot test: a copy
     * taken before a writer's version arrived serves readers whose snapshot has not moved since
     * (with version sets, units this hot are not buffered at all: read five times for each write
     * at least, {@code SharedRecordBuffer.UnitHistory}).
     */
    @Test
    void concurrentSerializableHistoriesThroughASharedBufferAreAcyclic() throws Exception {
        tm.useBuffering(Buffering.SHARED, 1, 1000);
        runAndCheck("history through the shared buffer", Long.getLong("tell.seed", 7), 41, KEYS, setup(KEYS),
                SerializableHistoryTest::attempt);
        long[] served = tm.sharedBufferCounts();
        assertTrue(served[0] > 20, "the buffer served reads: " + java.util.Arrays.toString(served));
    }

    /**
     * The same through a buffer with version sets, read-mostly over 16 records in units of 4:
     * copies serve because their unit's set is unchanged (then also later readers by the
     * snapshot test, the serving reader's snapshot now the one the copy is good for), as well as
     * by the snapshot test alone.
     */
    @Test
    void concurrentSerializableHistoriesThroughVersionSetsAreAcyclic() throws Exception {
        tm.useBuffering(Buffering.SYNCED, 4, 1000);
        int keys = 16;
        runAndCheck("history through version sets", Long.getLong("tell.seed", 7), 43, keys, setup(keys),
                SerializableHistoryTest::attempt, READ_MOSTLY, 1500);
        long[] served = tm.sharedBufferCounts();
        assertTrue(served[0] > 20 && served[1] > 20, "copies served by the snapshot test and by unchanged sets: "
                + java.util.Arrays.toString(served));
    }

    /**
     * The same over two columns per record ("writer of column 0,writer of column 1"): reads use
     * one column ({@link RowProjection}), writes change one column and keep the other, so a
     * reader of one column may commit past a writer of the other. The graph is over (record,
     * column) items; a write that keeps a column's value is no write of it.
     */
    @Test
    void concurrentColumnReadsAreSerializable() throws Exception {
        List<Long> items = new ArrayList<>();
        long setupTid = tm.run(1, tx -> {
            for (long key = 0; key < KEYS; key++) {
                tx.put(D, k(key), (tx.tid() + "," + tx.tid()).getBytes(StandardCharsets.UTF_8));
                items.add(2 * key);
                items.add(2 * key + 1);
            }
            return tx.tid();
        });
        RowProjection[] column = {(a, b) -> column(a, 0) == column(b, 0), (a, b) -> column(a, 1) == column(b, 1)};
        runAndCheck("column history", Long.getLong("tell.seed", 7), 37, 2 * KEYS, new Committed(setupTid, Map.of(), items),
                (tx, readItems, writeItems) -> {
                    Map<Long, Long> reads = new LinkedHashMap<>();
                    for (long item : readItems) {
                        reads.put(item, column(tx.get(D, k(item / 2), column[(int) (item % 2)]), (int) (item % 2)));
                    }
                    for (long item : writeItems) {
                        byte[] row = tx.get(D, k(item / 2), column[(int) (item % 2)]);
                        long[] cols = {column(row, 0), column(row, 1)};
                        cols[(int) (item % 2)] = tx.tid();
                        tx.update(D, k(item / 2), (cols[0] + "," + cols[1]).getBytes(StandardCharsets.UTF_8));
                    }
                    tx.commit();
                    return new Committed(tx.tid(), reads, writeItems);
                });
    }

    private static long column(byte[] row, int column) {
        return Long.parseLong(new String(row, StandardCharsets.UTF_8).split(",")[column]);
    }

    private static synchronized void count(int[] outcomes, int i) {
        outcomes[i]++;
    }

    /** The checker finds the cycle of write skew, which snapshot isolation commits. */
    @Test
    void checkerFindsTheCycleOfWriteSkewUnderSnapshotIsolation() {
        List<Committed> history = new ArrayList<>();
        history.add(setup(KEYS));
        Transaction t1 = tm.begin(Isolation.SNAPSHOT);
        Transaction t2 = tm.begin(Isolation.SNAPSHOT);
        Map<Long, Long> r1 = Map.of(0L, writerOf(t1.get(D, k(0))), 1L, writerOf(t1.get(D, k(1))));
        Map<Long, Long> r2 = Map.of(0L, writerOf(t2.get(D, k(0))), 1L, writerOf(t2.get(D, k(1))));
        history.add(attempt(t1, List.of(), List.of(0L)));
        history.add(attempt(t2, List.of(), List.of(1L)));
        history.set(1, new Committed(t1.tid(), r1, List.of(0L)));
        history.set(2, new Committed(t2.tid(), r2, List.of(1L)));
        List<Long> cycle = cycle(history);
        assertNotNull(cycle, "write skew is a cycle");
        assertEquals(List.of(t1.tid(), t2.tid()), cycle.stream().sorted().distinct().toList());
    }

    /** A cycle of the dependency graph (tids, first repeated at the end), or null when there is none. */
    static List<Long> cycle(List<Committed> history) {
        Map<Long, Committed> byTid = new HashMap<>();
        // The transaction that overwrote each version: (record, writer of the version) -> overwriter.
        Map<List<Long>, Long> overwriter = new HashMap<>();
        for (Committed c : history) {
            byTid.put(c.tid(), c);
        }
        Map<Long, List<Long>> edges = new HashMap<>();
        for (Committed c : history) {
            for (long key : c.writes()) {
                Long prev = c.reads().get(key);
                if (prev != null) {
                    Long other = overwriter.put(List.of(key, prev), c.tid());
                    assertNull(other, "two committed transactions overwrote version " + prev + " of " + key);
                    edge(edges, prev, c.tid()); // ww
                }
            }
        }
        for (Committed c : history) {
            for (Map.Entry<Long, Long> r : c.reads().entrySet()) {
                long writer = r.getValue();
                assertNotNull(byTid.get(writer), "transaction " + c.tid() + " read a version of " + writer + ", which did not commit");
                if (writer != c.tid()) {
                    edge(edges, writer, c.tid()); // wr
                }
                Long next = overwriter.get(List.of(r.getKey(), writer));
                if (next != null && next != c.tid()) {
                    edge(edges, c.tid(), next); // rw
                }
            }
        }
        return findCycle(edges);
    }

    private static void edge(Map<Long, List<Long>> edges, long from, long to) {
        edges.computeIfAbsent(from, x -> new ArrayList<>()).add(to);
    }

    /** Iterative depth-first search: a back edge closes a cycle. */
    private static List<Long> findCycle(Map<Long, List<Long>> edges) {
        Map<Long, Integer> state = new HashMap<>(); // 1: on the stack, 2: done
        Map<Long, Long> parent = new HashMap<>();
        for (long root : edges.keySet()) {
            if (state.containsKey(root)) {
                continue;
            }
            ArrayDeque<long[]> stack = new ArrayDeque<>(); // {node, index of the next edge}
            stack.push(new long[] {root, 0});
            state.put(root, 1);
            while (!stack.isEmpty()) {
                long[] top = stack.peek();
                List<Long> out = edges.getOrDefault(top[0], List.of());
                if (top[1] >= out.size()) {
                    state.put(top[0], 2);
                    stack.pop();
                    continue;
                }
                long next = out.get((int) top[1]++);
                Integer s = state.get(next);
                if (s == null) {
                    state.put(next, 1);
                    parent.put(next, top[0]);
                    stack.push(new long[] {next, 0});
                } else if (s == 1) {
                    List<Long> cycle = new ArrayList<>();
                    cycle.add(next);
                    for (long v = top[0]; v != next; v = parent.get(v)) {
                        cycle.add(0, v);
                    }
                    cycle.add(0, next);
                    return cycle;
                }
            }
        }
        return null;
    }
}
