package io.tell.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The contract of {@link RecordStore}, written once and run against every backend: a
 * backend's test subclasses this and says how to open a store. Every test works in domains
 * of its own, so a store may be shared between tests.
 */
public abstract class RecordStoreContractTest {
    protected RecordStore store;
    private String prefix;

    /** Opens the store under test; called before each test. */
    protected abstract RecordStore openStore();

    @BeforeEach
    void open(TestInfo info) {
        store = openStore();
        prefix = "t" + Long.toHexString(System.nanoTime()) + "-" + info.getTestMethod().orElseThrow().getName();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    protected String domain(String name) {
        return prefix + "." + name;
    }

    protected static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void absentRecordReadsAsNull() {
        assertNull(store.get(domain("d"), b("nope")));
    }

    @Test
    void insertThenReadReturnsValueAndPositiveVersion() {
        WriteResult r = store.write(WriteOp.insert(domain("d"), b("k"), b("v1")));
        Versioned read = store.get(domain("d"), b("k"));
        assertNotNull(read);
        assertArrayEquals(b("v1"), read.value());
        assertEquals(r.version(), read.version());
        assertTrue(read.version() > 0);
    }

    @Test
    void insertIfAbsentConflictsWhenPresentAndCarriesCurrentVersion() {
        long v = store.write(WriteOp.insert(domain("d"), b("k"), b("a"))).version();
        WriteResult second = store.write(WriteOp.insert(domain("d"), b("k"), b("b")));
        assertEquals(new WriteResult.Conflict(v), second);
        assertArrayEquals(b("a"), store.get(domain("d"), b("k")).value());
    }

    @Test
    void aChainedWriteIsMadeOnlyWhenEveryWriteBeforeItWas() {
        String d = domain("chain");
        long held = store.write(WriteOp.insert(d, b("held"), b("x"))).version();
        long pointer = store.write(WriteOp.insert(d, b("pointer"), b("old"))).version();
        // Broken: the insert of an existing key fails, so the chained write is not made, but an
        // unchained write after it is.
        List<WriteResult> broken = store.writeAll(List.of(
                WriteOp.insert(d, b("fresh"), b("1")),
                WriteOp.insert(d, b("held"), b("2")),
                WriteOp.put(d, b("pointer"), b("new"), Expect.version(pointer)).asChained(),
                WriteOp.insert(d, b("after"), b("3")),
                WriteOp.insert(d, b("chained"), b("4")).asChained()));
        assertTrue(broken.get(0).written());
        assertEquals(new WriteResult.Conflict(held), broken.get(1));
        assertEquals(new WriteResult.Conflict(pointer), broken.get(2), "chained write made after a failed one");
        assertTrue(broken.get(3).written());
        assertEquals(new WriteResult.Conflict(0), broken.get(4), "chained insert of an absent key made after a failed write");
        assertArrayEquals(b("old"), store.get(d, b("pointer")).value());
        assertNull(store.get(d, b("chained")));
        // Intact: every write before it succeeded (a satisfied check counts), so it is made.
        List<WriteResult> intact = store.writeAll(List.of(
                WriteOp.insert(d, b("fresh2"), b("1")),
                WriteOp.check(new RecordKey(d, b("held")), Expect.version(held)),
                WriteOp.put(d, b("pointer"), b("new"), Expect.version(pointer)).asChained()));
        assertTrue(intact.stream().allMatch(WriteResult::written), intact.toString());
        assertArrayEquals(b("new"), store.get(d, b("pointer")).value());
        // Chained writes do not depend on each other: one that conflicts leaves the next alone.
        List<WriteResult> apart = store.writeAll(List.of(
                WriteOp.insert(d, b("fresh3"), b("1")),
                WriteOp.insert(d, b("pointer"), b("again")).asChained(),
                WriteOp.insert(d, b("second"), b("1")).asChained()));
        assertTrue(apart.get(0).written());
        assertInstanceOf(WriteResult.Conflict.class, apart.get(1));
        assertTrue(apart.get(2).written(), "a chained write held back by another chained one");
    }

    @Test
    void aChainHoldsAcrossABatchOfManyKeys() {
        // More writes than one server-side call takes, over many cluster slots: the chained
        // write at the end still depends on every write before it.
        String d = domain("longchain");
        store.write(WriteOp.insert(d, b("k250"), b("taken")));
        List<WriteOp> ops = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ops.add(WriteOp.insert(d, b("k" + i), b("v")));
        }
        ops.add(WriteOp.insert(d, b("last"), b("v")).asChained());
        List<WriteResult> results = store.writeAll(ops);
        assertEquals(301, results.size());
        assertEquals(299, results.subList(0, 300).stream().filter(WriteResult::written).count());
        assertEquals(new WriteResult.Conflict(0), results.get(300));
        assertNull(store.get(d, b("last")));
        ops.set(250, WriteOp.insert(d, b("other"), b("v")));
        for (int i = 0; i < 300; i++) {
            if (i != 250) {
                ops.set(i, WriteOp.insert(d, b("n" + i), b("v")));
            }
        }
        assertTrue(store.writeAll(ops).stream().allMatch(WriteResult::written));
        assertNotNull(store.get(d, b("last")));
    }

    @Test
    void manyChainedWritesAfterManyOthersEachDependOnlyOnTheUnchainedOnes() {
        // A long run of chained writes after a long run of unchained ones (new physical records,
        // then the mapping swings chained to them), then more of both: each chained write is made
        // exactly when every unchained write before it succeeded, whatever the others' fate.
        String d = domain("manychains");
        for (int i = 0; i < 300; i += 7) {
            store.write(WriteOp.insert(d, b("m" + i), b("taken")));
        }
        List<WriteOp> ops = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ops.add(WriteOp.insert(d, b("p" + i), b("v")));
        }
        for (int i = 0; i < 300; i++) {
            ops.add(WriteOp.insert(d, b("m" + i), b("v")).asChained());
        }
        ops.add(WriteOp.insert(d, b("m0"), b("again"))); // fails: the chain breaks from here
        ops.add(WriteOp.insert(d, b("late"), b("v")).asChained());
        List<WriteResult> results = store.writeAll(ops);
        assertEquals(ops.size(), results.size());
        assertTrue(results.subList(0, 300).stream().allMatch(WriteResult::written), "every new record written");
        for (int i = 0; i < 300; i++) {
            assertEquals(i % 7 != 0, results.get(300 + i).written(), "chained write " + i + ": " + results.get(300 + i));
        }
        assertInstanceOf(WriteResult.Conflict.class, results.get(600));
        assertEquals(new WriteResult.Conflict(0), results.get(601), "chained after a failed write");
        assertNull(store.get(d, b("late")));
        assertArrayEquals(b("v"), store.get(d, b("m1")).value());
        assertArrayEquals(b("taken"), store.get(d, b("m7")).value());
    }

    @Test
    void putOnVersionSucceedsOnlyOnTheCurrentVersion() {
        long v1 = store.write(WriteOp.insert(domain("d"), b("k"), b("a"))).version();
        long v2 = store.write(WriteOp.put(domain("d"), b("k"), b("b"), Expect.version(v1))).version();
        assertTrue(v2 > v1);
        WriteResult stale = store.write(WriteOp.put(domain("d"), b("k"), b("c"), Expect.version(v1)));
        assertEquals(new WriteResult.Conflict(v2), stale);
        assertArrayEquals(b("b"), store.get(domain("d"), b("k")).value());
    }

    @Test
    void putOnVersionOfAbsentRecordConflictsWithZero() {
        WriteResult r = store.write(WriteOp.put(domain("d"), b("k"), b("a"), Expect.version(5)));
        assertEquals(new WriteResult.Conflict(0), r);
        assertNull(store.get(domain("d"), b("k")));
    }

    @Test
    void unconditionalPutCreatesAndOverwrites() {
        long v1 = store.write(WriteOp.put(domain("d"), b("k"), b("a"), Expect.ANY)).version();
        long v2 = store.write(WriteOp.put(domain("d"), b("k"), b("b"), Expect.ANY)).version();
        assertTrue(v2 > v1);
        assertArrayEquals(b("b"), store.get(domain("d"), b("k")).value());
    }

    @Test
    void deleteOnVersionRemovesAndStaleDeleteConflicts() {
        long v1 = store.write(WriteOp.insert(domain("d"), b("k"), b("a"))).version();
        long v2 = store.write(WriteOp.put(domain("d"), b("k"), b("b"), Expect.ANY)).version();
        assertEquals(new WriteResult.Conflict(v2),
                store.write(WriteOp.delete(domain("d"), b("k"), Expect.version(v1))));
        assertTrue(store.write(WriteOp.delete(domain("d"), b("k"), Expect.version(v2))).written());
        assertNull(store.get(domain("d"), b("k")));
        assertEquals(new WriteResult.Conflict(0),
                store.write(WriteOp.delete(domain("d"), b("k"), Expect.version(v2))));
    }

    @Test
    void versionsNeverRepeatAcrossDeleteAndReinsert() {
        long highest = 0;
        for (int i = 0; i < 20; i++) {
            long v = store.write(WriteOp.insert(domain("d"), b("k"), b("x" + i))).version();
            assertTrue(v > highest, "version " + v + " not above " + highest);
            long deleted = store.write(WriteOp.delete(domain("d"), b("k"), Expect.version(v))).version();
            assertTrue(deleted >= v);
            highest = deleted;
        }
    }

    @Test
    void abaIsImpossible() {
        long v1 = store.write(WriteOp.insert(domain("d"), b("k"), b("same"))).version();
        store.write(WriteOp.delete(domain("d"), b("k"), Expect.version(v1)));
        store.write(WriteOp.insert(domain("d"), b("k"), b("same")));
        WriteResult r = store.write(WriteOp.put(domain("d"), b("k"), b("late"), Expect.version(v1)));
        assertInstanceOf(WriteResult.Conflict.class, r);
        assertArrayEquals(b("same"), store.get(domain("d"), b("k")).value());
    }

    @Test
    void keysAndValuesAreBinarySafe() {
        byte[] key = new byte[256];
        byte[] value = new byte[256];
        for (int i = 0; i < 256; i++) {
            key[i] = (byte) i;
            value[i] = (byte) (255 - i);
        }
        store.write(WriteOp.insert(domain("d"), key, value));
        assertArrayEquals(value, store.get(domain("d"), key).value());
        store.write(WriteOp.insert(domain("d"), new byte[0], new byte[0]));
        assertArrayEquals(new byte[0], store.get(domain("d"), new byte[0]).value());
    }

    @Test
    void largeValuesRoundTrip() {
        byte[] big = new byte[1 << 20];
        new java.util.Random(7).nextBytes(big);
        store.write(WriteOp.insert(domain("d"), b("big"), big));
        assertArrayEquals(big, store.get(domain("d"), b("big")).value());
    }

    @Test
    void domainsAreSeparate() {
        store.write(WriteOp.insert(domain("a"), b("k"), b("in-a")));
        assertNull(store.get(domain("b"), b("k")));
        store.write(WriteOp.insert(domain("b"), b("k"), b("in-b")));
        assertArrayEquals(b("in-a"), store.get(domain("a"), b("k")).value());
    }

    @Test
    void batchReadReturnsOneEntryPerKeyInOrder() {
        store.write(WriteOp.insert(domain("a"), b("1"), b("a1")));
        store.write(WriteOp.insert(domain("b"), b("2"), b("b2")));
        List<Versioned> got = store.getAll(List.of(
                new RecordKey(domain("b"), b("2")),
                new RecordKey(domain("a"), b("missing")),
                new RecordKey(domain("a"), b("1"))));
        assertEquals(3, got.size());
        assertArrayEquals(b("b2"), got.get(0).value());
        assertNull(got.get(1));
        assertArrayEquals(b("a1"), got.get(2).value());
        assertTrue(store.getAll(List.of()).isEmpty());
    }

    @Test
    void aReadFollowsItsFirstRecordToTheRecordItNames() {
        String pointers = domain("claims");
        String rows = domain("rows");
        store.write(WriteOp.insert(pointers, b("key"), b("rid-7")));
        long rowVersion = store.write(WriteOp.insert(rows, b("rid-7"), b("the row"))).version();
        store.write(WriteOp.insert(pointers, b("other"), b("x")));
        List<Versioned> got = TellException.join(store.getAllFollowingAsync(List.of(
                new RecordKey(pointers, b("key")), new RecordKey(pointers, b("missing")),
                new RecordKey(pointers, b("other"))), rows));
        assertEquals(4, got.size());
        assertArrayEquals(b("rid-7"), got.get(0).value());
        assertNull(got.get(1));
        assertArrayEquals(b("x"), got.get(2).value());
        assertArrayEquals(b("the row"), got.get(3).value());
        assertEquals(rowVersion, got.get(3).version());
    }

    @Test
    void aReadFollowingAnAbsentPointerOrOneToNothingEndsInNull() {
        String pointers = domain("claims");
        String rows = domain("rows");
        List<Versioned> absent = TellException.join(store.getAllFollowingAsync(
                List.of(new RecordKey(pointers, b("none"))), rows));
        assertEquals(2, absent.size());
        assertNull(absent.get(0));
        assertNull(absent.get(1));
        store.write(WriteOp.insert(pointers, b("dangling"), b("rid-gone")));
        List<Versioned> dangling = TellException.join(store.getAllFollowingAsync(
                List.of(new RecordKey(pointers, b("dangling"))), rows));
        assertArrayEquals(b("rid-gone"), dangling.get(0).value());
        assertNull(dangling.get(1));
    }

    @Test
    void batchWritesSucceedOrConflictEachOnItsOwn() {
        long v = store.write(WriteOp.insert(domain("d"), b("exists"), b("x"))).version();
        List<WriteResult> results = store.writeAll(List.of(
                WriteOp.insert(domain("d"), b("new1"), b("1")),
                WriteOp.insert(domain("d"), b("exists"), b("clash")),
                WriteOp.put(domain("d"), b("exists"), b("y"), Expect.version(v)),
                WriteOp.delete(domain("d"), b("absent"), Expect.version(3)),
                WriteOp.insert(domain("e"), b("new2"), b("2"))));
        assertEquals(5, results.size());
        assertTrue(results.get(0).written());
        assertEquals(new WriteResult.Conflict(v), results.get(1));
        assertTrue(results.get(2).written());
        assertEquals(new WriteResult.Conflict(0), results.get(3));
        assertTrue(results.get(4).written());
        assertArrayEquals(b("y"), store.get(domain("d"), b("exists")).value());
        assertArrayEquals(b("1"), store.get(domain("d"), b("new1")).value());
        assertArrayEquals(b("2"), store.get(domain("e"), b("new2")).value());
        assertTrue(store.writeAll(List.of()).isEmpty());
    }


    /** Whether the backend under test promises ordered batches to a test thread ({@link RecordStore#ordersBatches}). */
    protected boolean expectsOrderedBatches() {
        return true;
    }

    @Test
    void anOrderedStoreAppliesABatchInRequestOrder() {
        assertEquals(expectsOrderedBatches(), store.ordersBatches());
        RecordKey k = new RecordKey(domain("d"), b("k"));
        List<WriteResult> results = store.writeAll(List.of(
                WriteOp.insert(domain("d"), b("k"), b("1")),
                WriteOp.check(k, Expect.ABSENT),
                WriteOp.put(domain("d"), b("k"), b("2"), Expect.ANY)));
        long inserted = results.get(0).version();
        long put = results.get(2).version();
        if (store.ordersBatches()) {
            assertEquals(new WriteResult.Conflict(inserted), results.get(1), "the check ran after the insert before it");
            assertTrue(put > inserted, "the put ran after the insert");
            assertArrayEquals(b("2"), store.get(domain("d"), b("k")).value());
        }
        List<WriteOp> many = new ArrayList<>();
        for (int i = 0; i < 600; i++) { // more than one call's worth on Redis
            many.add(WriteOp.put(domain("d"), b("k"), b("v" + i), Expect.ANY));
        }
        List<WriteResult> written = store.writeAll(many);
        if (store.ordersBatches()) {
            for (int i = 1; i < written.size(); i++) {
                assertTrue(written.get(i).version() > written.get(i - 1).version(), "write " + i + " ran after write " + (i - 1));
            }
            assertArrayEquals(b("v599"), store.get(domain("d"), b("k")).value());
        } else {
            assertTrue(written.stream().allMatch(WriteResult::written));
        }
    }

    @Test
    void checksInABatchTestTheirRecordsAndWriteNothing() {
        long v = store.write(WriteOp.insert(domain("d"), b("held"), b("x"))).version();
        RecordKey held = new RecordKey(domain("d"), b("held"));
        RecordKey absent = new RecordKey(domain("d"), b("absent"));
        List<WriteResult> results = store.writeAll(List.of(
                WriteOp.check(held, Expect.version(v)),
                WriteOp.check(held, Expect.version(v + 1)),
                WriteOp.check(held, Expect.ABSENT),
                WriteOp.check(absent, Expect.ABSENT),
                WriteOp.check(absent, Expect.version(v)),
                WriteOp.insert(domain("d"), b("other"), b("o"))));
        assertEquals(new WriteResult.Written(v), results.get(0));
        assertEquals(new WriteResult.Conflict(v), results.get(1));
        assertEquals(new WriteResult.Conflict(v), results.get(2));
        assertEquals(new WriteResult.Written(0), results.get(3));
        assertEquals(new WriteResult.Conflict(0), results.get(4));
        assertTrue(results.get(5).written());
        Versioned after = store.get(domain("d"), b("held"));
        assertEquals(v, after.version(), "a check leaves its record's version alone");
        assertArrayEquals(b("x"), after.value());
        assertNull(store.get(domain("d"), b("absent")), "a check creates nothing");
        // The next write still gets a version above every one handed out.
        assertTrue(store.write(WriteOp.put(domain("d"), b("held"), b("y"), Expect.version(v))).version() > results.get(5).version());
    }
    /**
     * A run of inserts is each its own write even where the backend makes the run in one
     * command (Redis' MSETNX): a taken key fails alone, and so does a key's second insert.
     */
    @Test
    void aRunOfInsertsWithATakenKeyWritesTheOthers() {
        long taken = store.write(WriteOp.insert(domain("d"), b("k5"), b("old"))).version();
        List<WriteResult> results = store.writeAll(insertsOfKeys(0, 20, null));
        assertEquals(new WriteResult.Conflict(taken), results.get(5));
        assertArrayEquals(b("old"), store.get(domain("d"), b("k5")).value());
        assertMade(results, Set.of(5));
    }

    @Test
    void aRunOfInsertsThatRepeatsAKeyMakesItOnce() {
        List<WriteResult> results = store.writeAll(insertsOfKeys(0, 20, 7));
        WriteResult first = results.get(7);
        WriteResult again = results.get(20);
        assertTrue(first.written() != again.written(), "one insert of k7 is made, the other conflicts: " + first + ", " + again);
        if (store.ordersBatches()) {
            assertTrue(first.written(), "in request order, the first insert of k7 is made");
        }
        WriteResult made = first.written() ? first : again;
        assertEquals(new WriteResult.Conflict(made.version()), first.written() ? again : first);
        Versioned k7 = store.get(domain("d"), b("k7"));
        assertEquals(made.version(), k7.version());
        assertArrayEquals(first.written() ? b("v7") : b("again"), k7.value());
        assertMade(results, Set.of(7));
    }

    /** Inserts of k{from} .. k{to - 1} (values v{i}), then one of k{repeat} (value "again") when not null. */
    private List<WriteOp> insertsOfKeys(int from, int to, Integer repeat) {
        List<WriteOp> inserts = new ArrayList<>();
        for (int i = from; i < to; i++) {
            inserts.add(WriteOp.insert(domain("d"), b("k" + i), b("v" + i)));
        }
        if (repeat != null) {
            inserts.add(WriteOp.insert(domain("d"), b("k" + repeat), b("again")));
        }
        return inserts;
    }

    /**
     * Every insert k{i} but the skipped ones is made and stored with the version it answered.
     * (Versions are unique per key and counter, not across keys: on a cluster, keys of other
     * slots may draw the same one.)
     */
    private void assertMade(List<WriteResult> results, Set<Integer> skipped) {
        for (int i = 0; i < 20; i++) {
            if (skipped.contains(i)) {
                continue;
            }
            WriteResult r = results.get(i);
            assertTrue(r.written(), "k" + i + ": " + r);
            Versioned now = store.get(domain("d"), b("k" + i));
            assertEquals(r.version(), now.version());
            assertArrayEquals(b("v" + i), now.value());
        }
    }

    @Test
    void largeBatchesWriteEveryRecordAndVersionsKeepGrowing() {
        List<WriteOp> inserts = new ArrayList<>();
        for (int i = 0; i < 600; i++) { // more than one server call's worth on any backend
            inserts.add(WriteOp.insert(domain("big"), b("k" + i), b("v" + i)));
        }
        List<WriteResult> written = store.writeAll(inserts);
        assertTrue(written.stream().allMatch(WriteResult::written), written.toString());
        List<WriteOp> rewrites = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            rewrites.add(i % 2 == 0 ? WriteOp.put(domain("big"), b("k" + i), b("w" + i), Expect.version(written.get(i).version()))
                    : WriteOp.delete(domain("big"), b("k" + i), Expect.version(written.get(i).version())));
        }
        List<WriteResult> again = store.writeAll(rewrites);
        for (int i = 0; i < 600; i++) {
            assertTrue(again.get(i).written() && again.get(i).version() > written.get(i).version(), "write " + i);
            Versioned now = store.get(domain("big"), b("k" + i));
            if (i % 2 == 0) {
                assertArrayEquals(b("w" + i), now.value());
            } else {
                assertNull(now);
            }
        }
    }

    @Test
    void countersIncrementAtomicallyAndLiveBesideRecords() throws Exception {
        assertEquals(5, store.increment(domain("c"), b("n"), 5));
        assertEquals(105, store.increment(domain("c"), b("n"), 100));
        assertNull(store.get(domain("c"), b("n")), "a counter is not a record");
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 250; i++) {
                        store.increment(domain("c"), b("n"), 1);
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(1106, store.increment(domain("c"), b("n"), 1));
    }

    @Test
    void aCounterWithAFloorClimbsPastItEvenAfterGoingBack() {
        assertEquals(5, store.increment(domain("c"), b("n"), 5));
        assertEquals(101, store.increment(domain("c"), b("n"), 1, 100), "raised to the floor, then incremented");
        assertEquals(102, store.increment(domain("c"), b("n"), 1, 50), "a floor below the value changes nothing");
        // A fail-over that lost increments, as the counter sees it: it went back below values handed out.
        assertEquals(12, store.increment(domain("c"), b("n"), -90));
        assertEquals(103, store.increment(domain("c"), b("n"), 1, 102), "never 13..102 again");
        assertEquals(1010, store.increment(domain("c"), b("absent"), 10, 1000), "an absent counter is 0 below the floor");
        long clock = RecordStore.clockFloor();
        assertTrue(store.increment(domain("c"), b("sparse"), 1, clock) > clock);
    }

    @Test
    void scanReturnsRangeInUnsignedOrderWithLimit() {
        byte[][] keys = {{0x01}, {0x7f}, {(byte) 0x80}, {(byte) 0xff}, {0x01, 0x00}, {}};
        for (byte[] k : keys) {
            store.write(WriteOp.insert(domain("s"), k, k));
        }
        store.write(WriteOp.insert(domain("other"), new byte[] {0x02}, b("x")));
        List<StoredRecord> all = store.scan(domain("s"), KeyRange.ALL, 100);
        List<byte[]> order = all.stream().map(StoredRecord::key).toList();
        assertEquals(6, order.size());
        assertArrayEquals(new byte[] {}, order.get(0));
        assertArrayEquals(new byte[] {0x01}, order.get(1));
        assertArrayEquals(new byte[] {0x01, 0x00}, order.get(2));
        assertArrayEquals(new byte[] {0x7f}, order.get(3));
        assertArrayEquals(new byte[] {(byte) 0x80}, order.get(4));
        assertArrayEquals(new byte[] {(byte) 0xff}, order.get(5));
        for (StoredRecord r : all) {
            assertArrayEquals(r.key(), r.value());
            assertTrue(r.version() > 0);
        }
        List<StoredRecord> mid = store.scan(domain("s"), new KeyRange(new byte[] {0x01, 0x00}, new byte[] {(byte) 0xff}), 100);
        assertEquals(3, mid.size());
        assertArrayEquals(new byte[] {0x01, 0x00}, mid.get(0).key());
        assertArrayEquals(new byte[] {(byte) 0x80}, mid.get(2).key());
        assertEquals(2, store.scan(domain("s"), KeyRange.ALL, 2).size());
        assertTrue(store.scan(domain("empty"), KeyRange.ALL, 10).isEmpty());
    }

    @Test
    void scansSeeEveryRecordThatStaysWhileOthersAreDeletedAndInsertedAgain() throws Exception {
        String d = domain("churn");
        int stable = 50;
        int churned = 8;
        for (int i = 0; i < stable; i++) {
            store.write(WriteOp.insert(d, b("s" + (char) ('a' + i % 26) + i), b("v")));
        }
        long seed = System.nanoTime();
        int threads = 3;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                java.util.Random random = new java.util.Random(seed + t);
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 400; i++) {
                        byte[] key = b("c" + random.nextInt(churned));
                        Versioned cur = store.get(d, key);
                        store.write(cur == null ? WriteOp.insert(d, key, b("v")) : WriteOp.delete(d, key, Expect.version(cur.version())));
                    }
                }));
            }
            for (int scans = 0; scans < 20; scans++) {
                long seen = store.scan(d, KeyRange.ALL, Integer.MAX_VALUE).stream()
                        .filter(r -> r.key()[0] == 's').count();
                assertEquals(stable, seen, "records present throughout a scan appear in it (seed " + seed + ")");
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        List<String> scanned = store.scan(d, KeyRange.ALL, Integer.MAX_VALUE).stream()
                .map(r -> new String(r.key(), StandardCharsets.UTF_8)).filter(k -> k.startsWith("c")).toList();
        List<String> present = new ArrayList<>();
        for (int i = 0; i < churned; i++) {
            if (store.get(d, b("c" + i)) != null) {
                present.add("c" + i);
            }
        }
        assertEquals(present, scanned, "after the churn a scan shows exactly the records a read finds (seed " + seed + ")");
    }

    @Test
    void purgeEmptiesItsDomainsInOneCallAndNoOther() {
        List<WriteOp> batch = new ArrayList<>();
        for (int i = 0; i < 2500; i++) { // more than one page of a keyspace walk
            batch.add(WriteOp.insert(i % 2 == 0 ? domain("p") : domain("p.q"), b("k" + i), b("v")));
        }
        store.writeAll(batch);
        long before = store.get(domain("p"), b("k0")).version();
        store.write(WriteOp.insert(domain("keep"), b("k0"), b("kept")));
        store.write(WriteOp.insert(domain("pkeep"), b("k0"), b("kept")));
        store.increment(domain("p"), b("ids"), 7);
        store.increment(domain("keep"), b("ids"), 7);

        assertEquals(2500, store.purge(Set.of(domain("p"), domain("p.q"))));

        assertTrue(store.scan(domain("p"), KeyRange.ALL, 10).isEmpty());
        assertTrue(store.scan(domain("p.q"), KeyRange.ALL, 10).isEmpty());
        assertArrayEquals(b("kept"), store.get(domain("keep"), b("k0")).value());
        assertArrayEquals(b("kept"), store.get(domain("pkeep"), b("k0")).value());
        assertEquals(1, store.increment(domain("p"), b("ids"), 1), "the purged domain's counter is gone");
        assertEquals(8, store.increment(domain("keep"), b("ids"), 1));
        WriteResult again = store.write(WriteOp.insert(domain("p"), b("k0"), b("v")));
        assertTrue(again.written() && again.version() > before, "versions never repeat, purge or not");
        assertEquals(0, store.purge(Set.of(domain("nothing"))));
    }

    @Test
    void concurrentLoadLinkStoreConditionalLosesNoUpdate() throws Exception {
        String d = domain("cas");
        store.write(WriteOp.insert(d, b("ctr"), b("0")));
        int threads = 4;
        int perThread = 100;
        AtomicInteger conflicts = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        while (true) {
                            Versioned cur = store.get(d, b("ctr"));
                            long n = Long.parseLong(new String(cur.value(), StandardCharsets.UTF_8));
                            WriteResult r = store.write(WriteOp.put(d, b("ctr"), b(Long.toString(n + 1)),
                                    Expect.version(cur.version())));
                            if (r.written()) {
                                break;
                            }
                            conflicts.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(Integer.toString(threads * perThread), new String(store.get(d, b("ctr")).value(), StandardCharsets.UTF_8));
    }

    @Test
    void storedBytesAreNotAliasedWithCallerArrays() {
        byte[] value = b("abc");
        byte[] key = b("k");
        store.write(WriteOp.insert(domain("d"), key, value));
        value[0] = 'X';
        key[0] = 'Z';
        Versioned read = store.get(domain("d"), b("k"));
        assertArrayEquals(b("abc"), read.value());
        read.value()[0] = 'Y';
        assertArrayEquals(b("abc"), store.get(domain("d"), b("k")).value());
    }

    @Test
    void badDomainNamesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> store.get("has space", b("k")));
        assertThrows(IllegalArgumentException.class, () -> store.get("", b("k")));
    }
}
