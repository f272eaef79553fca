package io.tell.index.internal;

import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The B+tree's model and concurrency tests on a real Redis (a {@code redis-server} this test
 * starts on a free loopback port): shorter runs than on {@code mem}, same checks.
 */
class BTreeRedisIT {
    private static final int OPS = Integer.getInteger("tell.btree.redisOps", 6_000);
    private static RedisProcess redis;

    @BeforeAll
    static void startRedis() {
        redis = RedisProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    private static RecordStore open() {
        return RecordStores.open(redis.url());
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
}
