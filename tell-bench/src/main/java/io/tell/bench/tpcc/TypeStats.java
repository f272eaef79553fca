package io.tell.bench.tpcc;

import org.HdrHistogram.Histogram;

/**
 * What one terminal (or, merged, the whole run) saw of one transaction type: outcomes counted
 * inside the measured interval, latencies in microseconds from the first attempt to the end of
 * the last (retries included), and commits per second of the whole run for the timeline.
 * Written by one thread; merged after the terminals stopped.
 */
final class TypeStats {
    long committed;
    long rolledBack;
    /** Attempts aborted by a conflict (SQLState 40001 / 40P01) and run again. */
    long retried;
    long errors;
    final Histogram latencyMicros = new Histogram(3);
    final long[] committedPerSecond;

    TypeStats(int seconds) {
        committedPerSecond = new long[seconds];
    }

    void merge(TypeStats other) {
        committed += other.committed;
        rolledBack += other.rolledBack;
        retried += other.retried;
        errors += other.errors;
        latencyMicros.add(other.latencyMicros);
        for (int s = 0; s < committedPerSecond.length; s++) {
            committedPerSecond[s] += other.committedPerSecond[s];
        }
    }
}
