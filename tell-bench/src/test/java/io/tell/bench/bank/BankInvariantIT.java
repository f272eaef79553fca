package io.tell.bench.bank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The seeded bank invariant over three processing nodes sharing one store and one commit
 * manager reached over TCP: the total balance never changes and exactly the acknowledged
 * transfers are applied, each once — also across commit-manager outages and restarts.
 * The seed is printed; override it with {@code -Dtell.seed=N}.
 */
class BankInvariantIT {
    static final long SEED = Long.getLong("tell.seed", 20261122);
    static final LocalCommitManager.Options DURABLE_CM = new LocalCommitManager.Options(100, true, Duration.ofSeconds(2));

    @BeforeAll
    static void printSeed() {
        System.out.println("BankInvariantIT seed " + SEED + " (override with -Dtell.seed=N)");
    }

    /**
     * Runs the bank on {@code cluster}: {@code transfersPerThread} transfers per thread when
     * there is no disturbance; otherwise for {@code seconds}, with {@code disturbance} run once,
     * 300 ms in, on another thread — it must be over before the run ends.
     */
    static BankWorkload.Result runBank(BankCluster cluster, int accounts, int threads, int transfersPerThread,
                                       double seconds, Consumer<BankCluster> disturbance) throws Exception {
        boolean timed = disturbance != null;
        BankWorkload bank = new BankWorkload(new BankWorkload.Config(accounts, 1_000, threads,
                timed ? Integer.MAX_VALUE : transfersPerThread, timed ? seconds : 300, SEED), cluster.nodes, null);
        bank.load();
        ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
        try {
            ScheduledFuture<?> disturbed = timed
                    ? chaos.schedule(() -> disturbance.accept(cluster), 300, TimeUnit.MILLISECONDS) : null;
            BankWorkload.Result r = bank.run();
            if (disturbed != null) {
                assertTrue(disturbed.isDone(), "the disturbance outlasted the run; lengthen the run");
                disturbed.get(); // rethrows a failure of the disturbance itself
            }
            System.out.printf("bank on %s (seed %d): %d committed, %d conflicts, %d other retries in %.1f s; violations %s%n",
                    cluster.storeUrl(), SEED, r.committed(), r.conflicts(), r.otherRetries(), r.seconds(), r.violations());
            return r;
        } finally {
            chaos.shutdown();
            chaos.awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    /** The invariants; {@code expectedCommitted} < 0 for a timed run (any positive count). */
    static void assertInvariants(BankWorkload.Result r, long expectedCommitted) {
        assertTrue(r.ok(), "seed " + SEED + ": " + r.violations());
        assertEquals(r.expectedTotal(), r.actualTotal(), "seed " + SEED);
        if (expectedCommitted >= 0) {
            assertEquals(expectedCommitted, r.committed(), "seed " + SEED + ": every transfer eventually commits");
        } else {
            assertTrue(r.committed() > 0, "seed " + SEED + ": nothing committed");
        }
        assertEquals(r.transfersAcknowledged(), r.transfersFound(), "seed " + SEED);
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void memStoreThreeNodesCommitManagerOverTcp() throws Exception {
        try (BankCluster cluster = new BankCluster("mem:bank-it-plain", 3, LocalCommitManager.Options.embedded())) {
            BankWorkload.Result r = runBank(cluster, 20, 8, 500, 0, null);
            assertInvariants(r, 8 * 500);
            assertTrue(r.conflicts() > 0, "20 hot accounts and 8 threads should conflict sometimes");
        }
    }

    @Test
    void survivesCommitManagerNetworkOutage() throws Exception {
        try (BankCluster cluster = new BankCluster("mem:bank-it-outage", 3, LocalCommitManager.Options.embedded())) {
            BankWorkload.Result r = runBank(cluster, 50, 6, 0, 3.5, c -> {
                c.stopServer();
                sleep(1500);
                c.restartServer();
            });
            assertInvariants(r, -1);
        }
    }

    @Test
    void survivesCommitManagerRestartFromItsJournal() throws Exception {
        try (BankCluster cluster = new BankCluster("mem:bank-it-restart", 3, DURABLE_CM)) {
            BankWorkload.Result r = runBank(cluster, 50, 6, 0, 2.5, c -> {
                c.restartCommitManager();
                sleep(500);
                c.restartCommitManager();
            });
            assertInvariants(r, -1);
        }
    }
}
