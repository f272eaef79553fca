package io.tell.sql;

import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link SweeperTest} on a real Redis ({@code redis-server} started on a free loopback port), flushed before each test. */
class SweeperRedisIT extends SweeperTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    @Override
    protected RecordStore openStore() {
        REDIS.process().call("FLUSHALL");
        return RecordStores.open(REDIS.url());
    }
}
