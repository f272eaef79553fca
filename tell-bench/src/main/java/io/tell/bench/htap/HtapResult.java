package io.tell.bench.htap;

import io.tell.bench.tpcc.TpccResult;
import java.util.List;

/**
 * An HTAP run: TPC-C alone, then TPC-C while analytical streams run the CH-benCHmark queries,
 * and each query's executions during the second run.
 *
 * @param olapUrl where the analytical streams ran
 * @param streams how many analytical streams ran at once
 * @param analyticSeconds how long they ran (the second TPC-C run's warm-up and measured interval)
 */
public record HtapResult(TpccResult alone, TpccResult mixed, String olapUrl, int streams, double analyticSeconds,
                         List<Query> queries) {

    /**
     * One query's executions while TPC-C ran: how many completed, ran out of time and failed
     * (with the first error), latency in milliseconds of the completed ones (NaN when none
     * completed), rows of its last run.
     */
    public record Query(int number, String title, int runs, int timeouts, int errors, String firstError, double medianMs,
                        double meanMs, double maxMs, long rows) {
    }

    /** tpmC with the analytical load over tpmC without it. */
    public double tpmCRatio() {
        return mixed.tpmC() / alone.tpmC();
    }

    /** Completed executions of all queries per hour the streams ran (QphH in the CH-benCHmark's sense). */
    public double queriesPerHour() {
        return queries.stream().mapToLong(Query::runs).sum() * 3600 / analyticSeconds;
    }

    public boolean consistent() {
        return alone.consistent() && mixed.consistent();
    }
}
