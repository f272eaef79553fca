package io.tell.bench.tpcc;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The result of a TPC-C run: tpmC (committed New-Orders per minute of the measured interval),
 * all committed transactions per second, one {@link TypeResult} per type, the latency histograms
 * and the per-second commit timeline (warm-up included), and the consistency checks. On Tell
 * also the round trips: {@code roundTrips} per committed transaction of the run (aborted attempts
 * included; null on other databases) and {@code roundTripsAlone} per execution of each type run
 * alone afterwards (empty on other databases).
 */
public record TpccResult(String url, TpccScale scale, int warehouses, int terminals, double warmupSeconds, double measuredSeconds,
                         double tpmC, double transactionsPerSecond, List<TypeResult> types,
                         Map<TransactionType, Histogram> latencyMicros, Map<TransactionType, long[]> committedPerSecond,
                         long skippedDeliveries, List<ConsistencyCheck.Result> checks, RoundTrips roundTrips,
                         Map<TransactionType, RoundTrips> roundTripsAlone) {

    static TpccResult of(TpccOptions options, int warehouses, TpccRun.Recorded recorded, List<ConsistencyCheck.Result> checks,
                         Map<TransactionType, RoundTrips> roundTripsAlone) {
        double seconds = recorded.clock().measuredSeconds();
        List<TypeResult> types = new ArrayList<>();
        Map<TransactionType, Histogram> histograms = new EnumMap<>(TransactionType.class);
        Map<TransactionType, long[]> timeline = new EnumMap<>(TransactionType.class);
        long committed = 0;
        for (TransactionType type : TransactionType.values()) {
            TypeStats s = recorded.stats().get(type);
            types.add(new TypeResult(type, s.committed, s.rolledBack, s.retried, s.errors, LatencySummary.of(s.latencyMicros)));
            histograms.put(type, s.latencyMicros);
            timeline.put(type, s.committedPerSecond);
            committed += s.committed;
        }
        double tpmC = recorded.stats().get(TransactionType.NEW_ORDER).committed * 60 / seconds;
        return new TpccResult(options.target().url(), options.scale(), warehouses, options.terminals(), options.warmupSeconds(), seconds,
                tpmC, committed / seconds, List.copyOf(types), histograms, timeline, recorded.skippedDeliveries(),
                List.copyOf(checks), recorded.roundTrips(), Map.copyOf(roundTripsAlone));
    }

    public TypeResult type(TransactionType type) {
        return types.get(type.ordinal());
    }

    /** Conflict aborts as a share of all attempts of all types, in percent. */
    public double abortPercent() {
        long attempts = 0;
        long retried = 0;
        for (TypeResult t : types) {
            attempts += t.committed() + t.rolledBack() + t.retried() + t.errors();
            retried += t.retried();
        }
        return attempts == 0 ? 0 : 100.0 * retried / attempts;
    }

    public long errors() {
        return types.stream().mapToLong(TypeResult::errors).sum();
    }

    public boolean consistent() {
        return checks.stream().allMatch(ConsistencyCheck.Result::passed);
    }
}
