package io.tell.gc;

import java.util.ArrayDeque;

/**
 * How far the walks over tids may go: the snapshot base and lav that a pass of this sweeper saw
 * at least the grace period ago. A tid below them completed that long ago, so a write of its log
 * entry or garbage list that timed out has landed by now or never will; walking only that far,
 * the cursors never pass a tid whose record may still appear behind them. Kept in memory: a
 * process that takes the lease over walks nothing until it has seen a grace period go by.
 */
final class SettledHorizon {
    /** What a pass saw at its start. */
    record Sample(long millis, long base, long lav) {
    }

    private final ArrayDeque<Sample> younger = new ArrayDeque<>();
    private Sample settled = new Sample(0, 0, 0);

    /** Records what the pass starting now saw and returns the newest sample at least {@code graceMillis} old. */
    synchronized Sample observe(Sample now, long graceMillis) {
        younger.addLast(now);
        while (!younger.isEmpty() && younger.peekFirst().millis() <= now.millis() - graceMillis) {
            settled = younger.removeFirst();
        }
        return settled;
    }
}
