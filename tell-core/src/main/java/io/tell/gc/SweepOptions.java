package io.tell.gc;

import java.time.Duration;

/**
 * How a {@link Sweeper} paces itself. Validated once, here.
 *
 * @param pageSize         tids per batch of garbage lists or log entries read, records per scan page
 * @param recordsPerSecond rate bound: records (and index entries) examined per second, over all
 *                         kinds of work; the sweeper sleeps to stay under it
 * @param passInterval     pause between the end of one pass and the start of the next
 * @param leaseDuration    how long a lease lasts without renewal; the holder renews it every
 *                         third of that, another process takes it over only after seeing the
 *                         same lease record unchanged for that long
 * @param grace            age a transaction-log entry of a completed tid, a revert's fence, or the
 *                         notice that a domain is dead, must reach before it is reclaimed (covers
 *                         clock skew, writes landing late and a catalog change still under way)
 * @param treeAuditInterval how often the trees are searched for records no walk reaches
 *                         ({@link TreeAudit}), counted from the end of the last audit
 */
public record SweepOptions(int pageSize, int recordsPerSecond, Duration passInterval, Duration leaseDuration,
                           Duration grace, Duration treeAuditInterval) {
    public SweepOptions {
        if (pageSize < 1 || recordsPerSecond < 1) {
            throw new IllegalArgumentException("sweep page size and rate must be positive");
        }
        if (passInterval.isNegative() || grace.isNegative() || leaseDuration.isNegative() || leaseDuration.isZero()
                || treeAuditInterval.isNegative()) {
            throw new IllegalArgumentException("sweep durations must not be negative, and the lease must last");
        }
    }

    /**
     * For a production node: 2,000 records a second (a TPC-C run on one warehouse deletes about
     * 20 NEW_ORDER rows a second, so a pass keeps up with room to spare), a pass every 30 s,
     * 10 s leases, a minute's grace, a tree audit every six hours.
     */
    public static SweepOptions defaults() {
        return new SweepOptions(256, 2_000, Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofMinutes(1),
                Duration.ofHours(6));
    }

    public SweepOptions withRecordsPerSecond(int rate) {
        return new SweepOptions(pageSize, rate, passInterval, leaseDuration, grace, treeAuditInterval);
    }

    public SweepOptions withPassInterval(Duration interval) {
        return new SweepOptions(pageSize, recordsPerSecond, interval, leaseDuration, grace, treeAuditInterval);
    }

    public SweepOptions withGrace(Duration g) {
        return new SweepOptions(pageSize, recordsPerSecond, passInterval, leaseDuration, g, treeAuditInterval);
    }

    public SweepOptions withPageSize(int size) {
        return new SweepOptions(size, recordsPerSecond, passInterval, leaseDuration, grace, treeAuditInterval);
    }

    public SweepOptions withLeaseDuration(Duration d) {
        return new SweepOptions(pageSize, recordsPerSecond, passInterval, d, grace, treeAuditInterval);
    }

    public SweepOptions withTreeAuditInterval(Duration d) {
        return new SweepOptions(pageSize, recordsPerSecond, passInterval, leaseDuration, grace, d);
    }
}
