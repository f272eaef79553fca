package io.tell.bench.tpcc;

import org.HdrHistogram.Histogram;

/** Latency of one transaction type over the measured interval, in milliseconds. */
public record LatencySummary(long count, double mean, double stdDev, double p50, double p95, double p99, double p999,
                             double max) {

    static LatencySummary of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(micros.getTotalCount(), micros.getMean() / 1e3, micros.getStdDeviation() / 1e3,
                ms(micros, 50), ms(micros, 95), ms(micros, 99), ms(micros, 99.9), micros.getMaxValue() / 1e3);
    }

    private static double ms(Histogram micros, double percentile) {
        return micros.getValueAtPercentile(percentile) / 1e3;
    }
}
