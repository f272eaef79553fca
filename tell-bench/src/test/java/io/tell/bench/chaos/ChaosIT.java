package io.tell.bench.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The chaos scenario of issue 10 ({@link ChaosRun}): real Redis Cluster, two commit-manager
 * processes, three processing-node JVMs under bank transfers; nodes killed mid-commit at three
 * steps, a commit manager and a Redis primary killed. Asserts the ledger against the store
 * (nothing acknowledged lost, nothing failed applied, the total unchanged), that every account
 * is writable again and that the killed nodes' tids are all settled, each within a bounded wait;
 * and that every fault was injected and the service came back. The seed is printed; override
 * it with {@code -Dtell.seed=N}.
 */
class ChaosIT {
    @Test
    void survivesKilledNodesCommitManagerAndRedisPrimary() throws Exception {
        long seed = Long.getLong("tell.seed", 20261124);
        System.out.println("ChaosIT seed " + seed + " (override with -Dtell.seed=N)");
        Path dir = Files.createTempDirectory("tell-chaos-it-");
        ChaosReport r = ChaosRun.run(new ChaosRun.Config(seed, 15, 3, 20, 2, 2_000, dir, System.out));
        r.print(System.out);
        assertTrue(r.ok(), "seed " + seed + ": " + r.violations() + " (logs in " + dir + ")");
        assertEquals(0, r.lost(), "seed " + seed);
        assertEquals(0, r.duplicated(), "seed " + seed);
        assertEquals(0, r.failedButApplied(), "seed " + seed);
        assertEquals(r.expectedTotal(), r.actualTotal(), "seed " + seed);
        assertTrue(r.acknowledged() > 0, "seed " + seed + ": nothing was acknowledged");
        assertEquals(ChaosRun.Fault.values().length, r.faults().size(), "seed " + seed);
        for (ChaosReport.FaultResult f : r.faults()) {
            assertTrue(f.note().isEmpty() || !f.note().startsWith("no commit reached"), "seed " + seed + ": " + f);
            assertTrue(f.fullServiceMillis() >= 0, "seed " + seed + ": no full service after " + f);
            if (f.fault().startsWith("kill node")) {
                assertTrue(f.rowsWritableMillis() >= 0, "seed " + seed + ": rows not writable after " + f);
            }
        }
        assertEquals(r.faults().size(), r.throughput().size(), "seed " + seed);
        for (ChaosReport.Throughput t : r.throughput()) {
            assertTrue(t.beforePerSecond() > 0, "seed " + seed + ": no transfer acknowledged before a fault: " + t);
        }
        assertTrue(r.allAccountsWritableMillis() >= 0, "seed " + seed);
        assertTrue(r.snapshotPassedMillis() >= 0, "seed " + seed);
    }
}
