package io.tell.bench.tpcc;

import java.io.PrintStream;

/** Prints a {@link TpccResult} as a plain-text table. */
public final class ResultTable {
    private ResultTable() {
    }

    public static void print(TpccResult r, PrintStream out) {
        out.printf("TPC-C on %s: %d warehouse%s, %d terminals, %.0f s measured after %.0f s warm-up%n", r.url(),
                r.warehouses(), r.warehouses() == 1 ? "" : "s", r.terminals(), r.measuredSeconds(), r.warmupSeconds());
        if (!r.scale().isSpec()) {
            out.printf("REDUCED SCALE (tests only, not a TPC-C result): %,d items, %,d customers per district%n",
                    r.scale().items(), r.scale().customersPerDistrict());
        }
        out.printf("tpmC %,.0f (committed New-Orders per minute)   total %,.1f tx/s committed%n%n", r.tpmC(),
                r.transactionsPerSecond());
        out.printf("%-13s %10s %11s %8s %7s %7s %9s %8s %8s %8s %8s %9s%n", "transaction", "committed", "rolled back",
                "retried", "errors", "abort%", "mean ms", "σ ms", "p50 ms", "p95 ms", "p99 ms", "p99.9 ms");
        for (TypeResult t : r.types()) {
            LatencySummary l = t.latency();
            out.printf("%-13s %,10d %,11d %,8d %,7d %7.2f %9.2f %8.2f %8.2f %8.2f %8.2f %9.2f%n", t.type().label(),
                    t.committed(), t.rolledBack(), t.retried(), t.errors(), t.abortPercent(), l.mean(), l.stdDev(),
                    l.p50(), l.p95(), l.p99(), l.p999());
        }
        out.println("abort% = attempts aborted by a conflict (SQLState 40001/40P01, retried with the same input) / all attempts;");
        out.println("rolled back = New-Order's intended 1 % (unused item); latency from first attempt to commit, retries included");
        if (r.skippedDeliveries() > 0) {
            out.printf("Delivery skipped %,d districts without an undelivered order%n", r.skippedDeliveries());
        }
        if (r.roundTrips() != null) {
            printRoundTrips(r, out);
        }
        out.println();
        out.println("consistency (TPC-C §3.3.2):");
        for (ConsistencyCheck.Result c : r.checks()) {
            out.printf("  %d  %-52s %s  %s%n", c.condition(), c.description(), c.passed() ? "PASS" : "FAIL", c.detail());
        }
    }

    private static void printRoundTrips(TpccResult r, PrintStream out) {
        out.println();
        out.println("Tell round trips per transaction (store calls, a batch counting one; CM = commit-manager calls;");
        out.println("buffered = records the node's shared buffer served without a store read):");
        out.printf("%-22s %9s %7s %7s %7s %7s %7s %7s %8s%n", "", "txns", "store", "reads", "writes", "incr", "scans", "CM",
                "buffered");
        roundTrips(out, "run, per commit", r.roundTrips());
        for (TransactionType type : TransactionType.values()) {
            RoundTrips t = r.roundTripsAlone().get(type);
            if (t != null) {
                roundTrips(out, type.label() + " alone", t);
            }
        }
        out.println("run, per commit = the measured interval's round trips / its commits (aborted attempts included);");
        out.println("<type> alone = after the run, one connection running only that type (New-Order's rollbacks included)");
    }

    private static void roundTrips(PrintStream out, String label, RoundTrips t) {
        out.printf("%-22s %,9d %7.1f %7.1f %7.1f %7.1f %7.1f %7.1f %8.1f%n", label, t.transactions(), t.store(), t.reads(),
                t.writes(), t.increments(), t.scans(), t.commitManager(), t.buffered());
    }
}
