package io.tell.txn;

import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.process.RedisProcess;
import org.junit.jupiter.api.Test;

/** {@link IndexedConcurrencyTest} on a real redis-server started on a free loopback port. */
class RedisIndexedConcurrencyIT {
    @Test
    void uniqueOwnersLookupsAndTotalHoldOnRedis() throws Exception {
        try (RedisProcess redis = RedisProcess.start(); RecordStore store = RecordStores.open(redis.url())) {
            IndexedConcurrencyTest.run(store, 150);
        }
    }
}
