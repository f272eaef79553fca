package io.tell.server.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellException;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Servers join pools, beat, leave cleanly or go stale; readers list them and build the pool URL. */
class PoolMembershipTest {
    private static final Duration PERIOD = Duration.ofMillis(50);
    private static final Duration STALE_AFTER = Duration.ofMillis(500);
    private final RecordStore store = RecordStores.open("mem:");

    @AfterEach
    void close() {
        store.close();
    }

    private PoolMembership join(String pool, int port, AtomicLong statements) {
        return PoolMembership.join(store, pool, "127.0.0.1", port, port + 1, () -> 3, statements::get, PERIOD);
    }

    @Test
    void twoServersInAPoolThenOneLeavesAndOneGoesStale() throws InterruptedException {
        AtomicLong statements = new AtomicLong();
        PoolMembership a = join("oltp", 25601, statements);
        PoolMembership b = join("oltp", 25602, statements);
        PoolMembership c = join("olap", 25603, statements);
        try {
            statements.addAndGet(100);
            Pools pools = Pools.read(store, STALE_AFTER);
            assertEquals(3, pools.entries().size());
            assertEquals(List.of(25601, 25602), pools.live("oltp").stream().map(PoolMember::port).toList());
            assertEquals(List.of(25603), pools.live("olap").stream().map(PoolMember::port).toList());
            assertEquals("jdbc:postgresql://127.0.0.1:25601,127.0.0.1:25602/tell?loadBalanceHosts=true&targetServerType=any",
                    pools.jdbcUrl("oltp", "tell").orElseThrow());
            PoolMember m = pools.live("oltp").get(0);
            assertEquals(ProcessHandle.current().pid(), m.pid());
            assertEquals(3, m.sessions());
            assertEquals(25602, m.metricsPort());
            String status = pools.format(System.currentTimeMillis());
            assertTrue(status.contains("pool oltp") && status.contains("pool olap") && status.contains("127.0.0.1:25602"), status);

            a.close(); // a clean stop: the record goes
            pools = Pools.read(store, STALE_AFTER);
            assertEquals(List.of(25602), pools.of("oltp").stream().map(e -> e.member().port()).toList());

            b.abandon(); // a crash: the record stays, its heartbeat stops
            pools = Pools.read(store, STALE_AFTER);
            assertEquals(1, pools.of("oltp").size());
            assertFalse(pools.of("oltp").get(0).live());
            assertTrue(pools.jdbcUrl("oltp", "tell").isEmpty());
            assertTrue(pools.format(System.currentTimeMillis()).contains("stale"));
            assertTrue(pools.jdbcUrl("olap", "tell").isPresent());
            assertTrue(pools.jdbcUrl("nosuchpool", "tell").isEmpty());
        } finally {
            a.close();
            c.close();
        }
    }

    @Test
    void loadIsReportedAsStatementsPerSecond() {
        AtomicLong statements = new AtomicLong();
        try (PoolMembership a = join("oltp", 25604, statements)) {
            statements.addAndGet(1_000);
            a.heartbeat();
            PoolMember m = PoolMember.decode(store.get(PoolMember.DOMAIN, PoolMember.key(a.id()).key()).value());
            assertTrue(m.statementsPerSecond() > 0, "statements/s " + m.statementsPerSecond());
            assertTrue(m.heartbeat() >= 2);
        }
    }

    @Test
    void aRecordRemovedBehindItsBackIsWrittenAgain() throws InterruptedException {
        try (PoolMembership a = join("oltp", 25605, new AtomicLong())) {
            store.write(io.tell.store.WriteOp.delete(PoolMember.DOMAIN, PoolMember.key(a.id()).key(), io.tell.store.Expect.ANY));
            PoolMembership.directory(store).remove(a.id());
            a.heartbeat();
            assertEquals(1, Pools.read(store, STALE_AFTER).live("oltp").size());
        }
    }

    @Test
    void membersRemoveTheRecordsOfServersLongDead() throws InterruptedException {
        PoolMembership dead = join("oltp", 25606, new AtomicLong());
        dead.abandon();
        try (PoolMembership alive = PoolMembership.join(store, "oltp", "127.0.0.1", 25607, PoolMember.NO_METRICS, () -> 0, () -> 0,
                PERIOD, Duration.ofMillis(300))) {
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (Pools.read(store, STALE_AFTER).of("oltp").size() > 1 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Pools pools = Pools.read(store, STALE_AFTER);
            assertEquals(List.of(25607), pools.of("oltp").stream().map(e -> e.member().port()).toList());
            assertTrue(pools.of("oltp").get(0).live());
            assertEquals(1, PoolMembership.directory(store).read().size());
        }
    }

    @Test
    void recordsRoundTripAndBadOnesAreRefused() {
        PoolMember m = new PoolMember("olap", "::1", 5433, PoolMember.NO_METRICS, 42, 1, 2, 3, 4, 5.5);
        assertEquals(m, PoolMember.decode(m.encode()));
        assertEquals("[::1]:5433", m.address());
        byte[] bytes = m.encode();
        assertThrows(TellException.class, () -> PoolMember.decode(java.util.Arrays.copyOf(bytes, bytes.length - 1)));
        assertThrows(TellException.class, () -> PoolMember.decode(java.util.Arrays.copyOf(bytes, bytes.length + 1)));
    }
}
