package io.tell.sql;

import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** {@link CatalogTest} on a real Redis ({@code redis-server} started on a free loopback port), flushed before each test. */
class CatalogRedisIT extends CatalogTest {
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

    @Override
    protected RecordStore openStore() {
        redis.call("FLUSHALL");
        return RecordStores.open(redis.url());
    }
}
