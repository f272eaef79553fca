package io.tell.index.internal;

import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The B+tree's model and concurrency tests on a real Redis (a {@code redis-server} this test
 * starts on a free loopback port): shorter runs than on {@code mem}, same checks.
 */
class BTreeRedisIT {
    private static final int OPS = Integer.getInteger("tell.btree.redisOps", 6_000);
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private static RecordStore open() {
        return RecordStores.open(REDIS.url());
    }

    @Test
    void modelTestNonUniqueOutOfLineLeaves() {
        try (RecordStore store = open()) {
            BTreeModelTest.runModel(store, "redis-model-n", false, false, OPS);
        }
    }

    @Test
    void modelTestUniqueInlineLeaves() {
        try (RecordStore store = open()) {
            BTreeModelTest.runModel(store, "redis-model-u", true, true, OPS);
        }
    }

    @Test
    void concurrentClientsOnRedis() throws Exception {
        try (RecordStore store = open()) {
            BTreeConcurrencyTest.runConcurrent(store, "redis-conc", false, false, false);
        }
    }

    @Test
    void concurrentClientsThatCrashMidSplitOnRedis() throws Exception {
        try (RecordStore store = open()) {
            BTreeConcurrencyTest.runConcurrent(store, "redis-conc-crash", true, true, true);
        }
    }

    @Test
    void auditsWhileClientsCrashOnRedis() throws Exception {
        try (RecordStore store = open()) {
            BTreeConcurrencyTest.runConcurrent(store, "redis-audited", false, false, true, true);
        }
    }
}
