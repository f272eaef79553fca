package io.tell.bench.bank;

import static io.tell.bench.bank.BankInvariantIT.DURABLE_CM;
import static io.tell.bench.bank.BankInvariantIT.assertInvariants;
import static io.tell.bench.bank.BankInvariantIT.runBank;
import static io.tell.bench.bank.BankInvariantIT.sleep;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.redis.process.RedisClusterProcesses;
import io.tell.store.redis.process.RedisProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bank invariant on Redis: real {@code redis-server} processes on loopback ports, three
 * processing nodes with their own connections, a durable commit manager over TCP journaling
 * to the same Redis. Also through a store outage and a cluster primary's death.
 */
class RedisBankInvariantIT {
    private static RedisProcess standalone;
    private static RedisClusterProcesses cluster;

    @BeforeAll
    static void startRedis() {
        standalone = RedisProcess.start();
        cluster = RedisClusterProcesses.start();
    }

    @AfterAll
    static void stopRedis() {
        if (standalone != null) {
            standalone.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void flush() {
        standalone.call("FLUSHALL");
        for (RedisProcess primary : cluster.primaries()) {
            primary.call("FLUSHALL");
        }
    }

    @Test
    void standaloneRedis() throws Exception {
        try (BankCluster bank = new BankCluster(standalone.url(), 3, DURABLE_CM)) {
            BankWorkload.Result r = runBank(bank, 20, 6, 150, 0, null);
            assertInvariants(r, 6 * 150);
        }
    }

    @Test
    void standaloneRedisPausedMidRun() throws Exception {
        try (BankCluster bank = new BankCluster(standalone.url() + "?timeoutMs=500", 3, DURABLE_CM)) {
            BankWorkload.Result r = runBank(bank, 20, 6, 0, 3.5, c -> {
                standalone.pause();
                sleep(1500);
                standalone.resume();
            });
            assertInvariants(r, -1);
            assertTrue(r.otherRetries() > 0, "the outage should have failed some attempts retriably");
        }
    }

    @Test
    void redisClusterWithReplicas() throws Exception {
        try (BankCluster bank = new BankCluster(cluster.url() + "?replicas=1", 3, DURABLE_CM)) {
            BankWorkload.Result r = runBank(bank, 20, 6, 100, 0, null);
            assertInvariants(r, 6 * 100);
        }
    }
}
