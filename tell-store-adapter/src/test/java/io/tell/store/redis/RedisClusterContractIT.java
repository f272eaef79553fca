package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.RecordStoreContractTest;
import io.tell.store.RecordStores;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The record store contract against a 3-primary, 3-replica Redis Cluster, every write acknowledged by a replica. */
class RedisClusterContractIT extends RecordStoreContractTest {
    private static RedisClusterProcesses cluster;

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterProcesses.start();
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    protected RecordStore openStore() {
        return RecordStores.open(cluster.url() + "?replicas=1");
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
            primaries.add(cluster.primaryFor(RedisKeys.slot(RedisKeys.recordKey(keys.get(i)))).port());
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

    @Test
    void withoutReplicasTheSameWritesWork() {
        try (RecordStore plain = RecordStores.open(cluster.url())) {
            long v = plain.write(WriteOp.insert(domain("plain"), b("k"), b("a"))).version();
            assertEquals(new WriteResult.Conflict(v), plain.write(WriteOp.put(domain("plain"), b("k"), b("b"), Expect.ABSENT)));
            assertArrayEquals(b("a"), store.get(domain("plain"), b("k")).value());
        }
    }
}
