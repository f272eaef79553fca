package io.tell.bench.tpcc;

/**
 * The time line of a run in {@link System#nanoTime()}: it starts, warms up, and is measured
 * from {@code measureStart} to {@code measureEnd}, when the terminals stop.
 */
record RunClock(long start, long measureStart, long measureEnd) {

    static RunClock startingNow(double warmupSeconds, double durationSeconds) {
        long now = System.nanoTime();
        long measureStart = now + (long) (warmupSeconds * 1e9);
        return new RunClock(now, measureStart, measureStart + (long) (durationSeconds * 1e9));
    }

    /** Whole seconds from start to end, rounded up: the length of the timeline. */
    int totalSeconds() {
        return (int) Math.ceil((measureEnd - start) / 1e9) + 1;
    }

    boolean measured(long endNanos) {
        return endNanos >= measureStart && endNanos <= measureEnd;
    }

    int second(long nanos) {
        return (int) Math.max(0, (nanos - start) / 1_000_000_000L);
    }

    double measuredSeconds() {
        return (measureEnd - measureStart) / 1e9;
    }
}
