package io.tell.txn;

import io.tell.cm.LocalCommitManager;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.process.RedisProcess;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link SharedBufferTest}'s transfers on a real redis-server started on a free loopback port. */
class RedisSharedBufferIT {
    @ParameterizedTest
    @EnumSource(value = Buffering.class, names = {"SHARED", "SYNCED"})
    void transfersKeepTheirTotalOnRedis(Buffering buffering) throws Exception {
        try (RedisProcess redis = RedisProcess.start(); RecordStore store = RecordStores.open(redis.url());
             LocalCommitManager cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded())) {
            SharedBufferTest.runTransfers(store, cm, buffering, 150);
        }
    }
}
