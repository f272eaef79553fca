package io.tell.index.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one tree client's unusual paths, for tests and metrics: how often the cache was
 * wrong (back-ups), splits were in flight (moves right, separators posted for others),
 * conditional writes lost a race (conflicts), and emptied leaves were removed.
 */
public final class TreeStats {
    final LongAdder conflicts = new LongAdder();
    final LongAdder backUps = new LongAdder();
    final LongAdder movesRight = new LongAdder();
    final LongAdder restarts = new LongAdder();
    final LongAdder splits = new LongAdder();
    final LongAdder separatorsHelped = new LongAdder();
    final LongAdder rootsWritten = new LongAdder();
    final LongAdder leavesRemoved = new LongAdder();

    /** A copy of the counters. */
    public record Snapshot(long conflicts, long backUps, long movesRight, long restarts, long splits,
                           long separatorsHelped, long rootsWritten, long leavesRemoved) {
        public Snapshot plus(Snapshot o) {
            return new Snapshot(conflicts + o.conflicts, backUps + o.backUps, movesRight + o.movesRight,
                    restarts + o.restarts, splits + o.splits, separatorsHelped + o.separatorsHelped,
                    rootsWritten + o.rootsWritten, leavesRemoved + o.leavesRemoved);
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(conflicts.sum(), backUps.sum(), movesRight.sum(), restarts.sum(), splits.sum(),
                separatorsHelped.sum(), rootsWritten.sum(), leavesRemoved.sum());
    }
}
