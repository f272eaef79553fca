package io.tell.bench.chaos;

import java.io.PrintStream;
import java.util.List;

/**
 * The outcome of a {@link ChaosRun}: the transfer ledger against what the store holds, each
 * fault with its times to full service, and every broken invariant ({@link #violations}).
 */
public record ChaosReport(long seed, double seconds, int nodesStarted, long begun, long acknowledged, long failed,
                          java.util.Map<String, Long> failedByCode, long inDoubt, long inDoubtApplied, long lost, long duplicated, long failedButApplied,
                          long expectedTotal, long actualTotal, List<FaultResult> faults,
                          List<Throughput> throughput, long allAccountsWritableMillis, long snapshotPassedMillis,
                          long deadTids, List<String> violations) {

    /**
     * Acknowledged transfers per second around one fault (one per fault, in order): the mean over
     * the 3 s before, the lowest 500 ms window in the 5 s after, and the ms from the fault until a
     * 500 ms window from the lowest one on reached 80 % of the rate before (0: it never dropped
     * below; -1: not within 20 s).
     */
    public record Throughput(double beforePerSecond, double lowestPerSecond, long backMillis) {
    }

    /**
     * One fault: what was done, and the milliseconds from the fault until every live node had
     * committed a transfer again ({@code -1}: not within the bound), until the killed node's rows
     * were writable again ({@code -1}: not applicable or not reached), and until the store's
     * fail-over finished (Redis only; else {@code -1}).
     */
    public record FaultResult(String fault, String detail, long atMillis, long fullServiceMillis, long rowsWritableMillis,
                              long failoverMillis, String note) {
    }

    public boolean ok() {
        return violations.isEmpty();
    }

    public void print(PrintStream out) {
        out.printf("chaos report (seed %d, %.1f s, %d processing nodes started)%n", seed, seconds, nodesStarted);
        out.printf("  transfers begun %,d: acknowledged %,d, lost %d, duplicated %d, failed %,d (of which applied %d),"
                + " in doubt %,d (of which applied %d)%n", begun, acknowledged, lost, duplicated, failed, failedButApplied,
                inDoubt, inDoubtApplied);
        out.println("  failed by code: " + failedByCode);
        out.printf("  total balance %,d (expected %,d)%n", actualTotal, expectedTotal);
        out.println("  faults (times from the fault):");
        for (int i = 0; i < faults.size(); i++) {
            FaultResult f = faults.get(i);
            StringBuilder s = new StringBuilder(String.format("    at %6.1f s  %-24s %s: every live node committing again after %s",
                    f.atMillis() / 1000.0, f.fault(), f.detail(), millis(f.fullServiceMillis())));
            if (f.rowsWritableMillis() >= 0 || f.fault().startsWith("kill node")) {
                s.append(", its rows writable after ").append(millis(f.rowsWritableMillis()));
            }
            if (f.failoverMillis() >= 0) {
                s.append(", replica promoted after ").append(millis(f.failoverMillis()));
            }
            if (!f.note().isEmpty()) {
                s.append(" (").append(f.note()).append(')');
            }
            out.println(s);
            Throughput t = throughput.get(i);
            out.printf("             throughput %,.0f/s in the 3 s before, lowest %,.0f/s (500 ms windows), back to 80 %% from %s on%n",
                    t.beforePerSecond(), t.lowestPerSecond(), millis(t.backMillis()));
        }
        out.printf("  afterwards: every account written in one transaction after %s; the snapshot passed all %d tids"
                + " of the killed nodes after %s%n", millis(allAccountsWritableMillis), deadTids, millis(snapshotPassedMillis));
        out.println(ok() ? "  invariants: OK" : "  invariants VIOLATED:");
        violations.forEach(v -> out.println("    " + v));
    }

    private static String millis(long ms) {
        return ms < 0 ? "(not reached)" : ms + " ms";
    }
}
