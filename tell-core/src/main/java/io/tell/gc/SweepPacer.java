package io.tell.gc;

import java.util.concurrent.locks.LockSupport;

/**
 * Keeps the sweeper under its records-per-second bound: each unit of work books time at the
 * rate, and the next one waits until the booked time has come. No bursts beyond one page.
 */
final class SweepPacer {
    private final long nanosPerRecord;
    private long next = System.nanoTime();

    SweepPacer(int recordsPerSecond) {
        this.nanosPerRecord = 1_000_000_000L / recordsPerSecond;
    }

    /** Waits for the time booked so far, then books {@code records} more. */
    void pace(int records) {
        long now = System.nanoTime();
        if (next - now > 0) {
            LockSupport.parkNanos(next - now);
            now = System.nanoTime();
        }
        next = Math.max(next, now) + records * nanosPerRecord;
    }
}
