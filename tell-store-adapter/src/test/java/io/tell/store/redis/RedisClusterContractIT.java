package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellRetriableException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.RecordStoreContractTest;
import io.tell.store.RecordStores;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import io.tell.store.redis.process.RedisProcess;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The record store contract against a 3-primary, 3-replica Redis Cluster, every write acknowledged by a replica. */
class RedisClusterContractIT extends RecordStoreContractTest {
    @RegisterExtension
    static final RedisClusterExtension CLUSTER = new RedisClusterExtension();


    /** A batch's slots go to their primaries in parallel. */
    @Override
    protected boolean expectsOrderedBatches() {
        return false;
    }

    @Override
    protected RecordStore openStore() {
        return RecordStores.open(CLUSTER.cluster().url() + "?replicas=1");
    }

    @Test
    void batchesSpanAllPrimariesAndScansSeeThemAll() {
        List<WriteOp> ops = new ArrayList<>();
        List<RecordKey> keys = new ArrayList<>();
        Set<Integer> primaries = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            byte[] k = b(String.format("key-%04d", i));
            ops.add(WriteOp.insert(domain("spread"), k, k));
            keys.add(new RecordKey(domain("spread"), k));
            primaries.add(CLUSTER.cluster().primaryFor(RedisKeys.slot(RedisKeys.recordKey(keys.get(i)))).port());
        }
        assertEquals(3, primaries.size(), "the keys should land on every primary");
        List<WriteResult> written = store.writeAll(ops);
        assertTrue(written.stream().allMatch(WriteResult::written));
        List<Versioned> read = store.getAll(keys);
        for (int i = 0; i < keys.size(); i++) {
            assertArrayEquals(keys.get(i).key(), read.get(i).value());
            assertEquals(written.get(i).version(), read.get(i).version());
        }
        assertEquals(300, store.scan(domain("spread"), io.tell.store.KeyRange.ALL, 1000).size());
        assertArrayEquals(b("key-0100"), store.scan(domain("spread"),
                new io.tell.store.KeyRange(b("key-0100"), null), 1).get(0).key());
    }

    /**
     * Slots move between primaries (importing/migrating, MIGRATE, SETSLOT) under a stream of
     * writes: the writes follow ASK, TRYAGAIN and MOVED, versions of each key keep growing,
     * and the last acknowledged value of every key is what is read at the end.
     */
    @Test
    void writesFollowSlotsThatMoveUnderThem() throws Exception {
        String d = domain("reshard");
        List<RedisProcess> primaries = CLUSTER.cluster().primaries();
        RedisProcess source = primaries.get(0);
        RedisProcess target = primaries.get(1);
        BitSet sourceSlots = CLUSTER.cluster().slotsOf(source);
        List<String> keys = new ArrayList<>();
        Set<Integer> slots = new TreeSet<>();
        for (int i = 0; keys.size() < 40; i++) {
            int slot = RedisKeys.slot(RedisKeys.recordKey(new RecordKey(d, b("k-" + i))));
            if (sourceSlots.get(slot)) {
                keys.add("k-" + i);
                slots.add(slot);
            }
        }
        Map<String, List<Long>> versions = new ConcurrentHashMap<>();
        Map<String, String> lastValue = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicInteger retried = new AtomicInteger();
        Thread writer = new Thread(() -> {
            for (int n = 0; running.get(); n++) {
                String key = keys.get(n % keys.size());
                String value = key + "@" + n;
                while (true) {
                    try {
                        long v = store.write(WriteOp.put(d, b(key), b(value), Expect.ANY)).version();
                        versions.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
                        lastValue.put(key, value);
                        acknowledged.incrementAndGet();
                        break;
                    } catch (TellRetriableException e) {
                        retried.incrementAndGet();
                        RedisProcess.sleep(10);
                    }
                }
            }
        }, "reshard-writer");
        writer.start();
        try {
            RedisProcess.sleep(100);
            for (int slot : slots) {
                CLUSTER.cluster().migrateSlot(slot, target);
            }
            int atEnd = acknowledged.get();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (acknowledged.get() < atEnd + 2 * keys.size() && System.nanoTime() < deadline) {
                RedisProcess.sleep(20);
            }
        } finally {
            running.set(false);
            writer.join();
        }
        System.out.printf("reshard: %d slots moved, %d writes acknowledged, %d retried%n", slots.size(), acknowledged.get(),
                retried.get());
        for (int slot : slots) {
            assertEquals(target.port(), CLUSTER.cluster().primaryFor(slot).port());
        }
        for (String key : keys) {
            List<Long> vs = versions.get(key);
            for (int i = 1; i < vs.size(); i++) {
                assertTrue(vs.get(i) > vs.get(i - 1), key + " versions " + vs);
            }
            Versioned read = store.get(d, b(key));
            assertArrayEquals(b(lastValue.get(key)), read.value(), key);
            assertEquals(vs.get(vs.size() - 1), read.version(), key);
        }
        assertEquals(keys.size(), store.scan(d, io.tell.store.KeyRange.ALL, 1000).size());
    }

    /**
     * One slot, step by step: while it is open but its keys are still on the source, writes
     * run there; once its keys have moved, the source answers ASK and the write runs on the
     * target behind ASKING; a new key meanwhile gets TRYAGAIN (its record and the slot's
     * version counter are not both on one node) until the slot is assigned, then follows
     * MOVED. The store's view of the topology is stale throughout.
     */
    @Test
    void writesFollowAskTryAgainAndMovedWhileOneSlotMigrates() throws Exception {
        String d = domain("migrate");
        byte[] existing = b("{slot-under-test}existing");
        byte[] fresh = b("{slot-under-test}fresh");
        int slot = RedisKeys.slot(RedisKeys.recordKey(new RecordKey(d, existing)));
        assertEquals(slot, RedisKeys.slot(RedisKeys.recordKey(new RecordKey(d, fresh))));
        long v1 = store.write(WriteOp.insert(d, existing, b("1"))).version();
        RedisProcess source = CLUSTER.cluster().primaryFor(slot);
        RedisProcess target = CLUSTER.cluster().primaries().stream().filter(p -> p != source).findFirst().orElseThrow();

        CLUSTER.cluster().openSlotMigration(slot, target);
        long v2 = store.write(WriteOp.put(d, existing, b("2"), Expect.version(v1))).version();
        CLUSTER.cluster().moveSlotKeys(slot, source, target);
        long v3 = store.write(WriteOp.put(d, existing, b("3"), Expect.version(v2))).version(); // ASK
        assertArrayEquals(b("3"), store.get(d, existing).value());
        CompletableFuture<WriteResult> insert = store.writeAsync(WriteOp.insert(d, fresh, b("new"))); // TRYAGAIN...
        RedisProcess.sleep(60);
        CLUSTER.cluster().closeSlotMigration(slot, source, target);
        assertTrue(insert.get().written()); // ...then MOVED
        long v4 = store.write(WriteOp.put(d, existing, b("4"), Expect.version(v3))).version(); // MOVED
        assertTrue(v1 < v2 && v2 < v3 && v3 < v4);
        assertEquals(target.port(), CLUSTER.cluster().primaryFor(slot).port());
        assertArrayEquals(b("4"), store.get(d, existing).value());
        assertArrayEquals(b("new"), store.get(d, fresh).value());
    }

    @Test
    void withoutReplicasTheSameWritesWork() {
        try (RecordStore plain = RecordStores.open(CLUSTER.cluster().url())) {
            long v = plain.write(WriteOp.insert(domain("plain"), b("k"), b("a"))).version();
            assertEquals(new WriteResult.Conflict(v), plain.write(WriteOp.put(domain("plain"), b("k"), b("b"), Expect.ABSENT)));
            assertArrayEquals(b("a"), store.get(domain("plain"), b("k")).value());
        }
    }
}
