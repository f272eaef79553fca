package io.tell.index.internal;

/**
 * Called after each conditional write of a split, with the level of the node written. Tests
 * throw from it to stop a client between two writes, as a crash would.
 */
@FunctionalInterface
public interface SplitHook {
    SplitHook NONE = (step, level) -> { };

    void after(SplitStep step, int level);
}
