package io.tell.gc;

import java.util.concurrent.atomic.LongAdder;

/** The running counts behind {@link SweepStats}; written by the sweeper thread, read by anyone. */
final class SweepCounters {
    final LongAdder passes = new LongAdder();
    final LongAdder scanned = new LongAdder();
    final LongAdder rows = new LongAdder();
    final LongAdder indexEntries = new LongAdder();
    final LongAdder claims = new LongAdder();
    final LongAdder logEntries = new LongAdder();
    final LongAdder fences = new LongAdder();
    final LongAdder deadRecords = new LongAdder();
    final LongAdder treeRecords = new LongAdder();
    final LongAdder conflicts = new LongAdder();
}
