package io.tell.bench.htap;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The executions of one analytical query, over all streams: latencies, rows of the last run, timeouts, errors. Thread-safe. */
final class QueryStats {
    private final List<Long> nanos = new ArrayList<>();
    private long rows = -1;
    private int errors;
    private int timeouts;
    private String firstError;

    synchronized void ran(long elapsedNanos, long rowCount) {
        nanos.add(elapsedNanos);
        rows = rowCount;
    }

    synchronized void timedOut() {
        timeouts++;
    }

    synchronized void failed(String error) {
        errors++;
        if (firstError == null) {
            firstError = error;
        }
    }

    synchronized HtapResult.Query summary(int number, String title) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        double median = sorted.isEmpty() ? Double.NaN : millis(sorted.get(sorted.size() / 2));
        double max = sorted.isEmpty() ? Double.NaN : millis(sorted.get(sorted.size() - 1));
        double mean = sorted.isEmpty() ? Double.NaN : sorted.stream().mapToLong(Long::longValue).average().orElseThrow() / 1e6;
        return new HtapResult.Query(number, title, sorted.size(), timeouts, errors, firstError, median, mean, max, rows);
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
