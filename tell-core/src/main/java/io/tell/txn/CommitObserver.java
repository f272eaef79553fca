package io.tell.txn;

/**
 * Sees a read-write commit pass its steps, for fault-injection tests that stop a processing
 * node at a chosen point (the chaos test halts or pauses the JVM there). Called on the
 * committing thread; an observer must not throw.
 */
public interface CommitObserver {
    enum Step {
        /** The write set is in the transaction log; nothing else is written. */
        LOGGED,
        /** New index entries are added; no record is written. */
        INDEXED,
        /** Part of the records are written (the apply batch is sent in two halves while observed). */
        PARTLY_APPLIED,
        /**
         * Every record is written and unique keys are claimed; the commit manager is not told
         * yet. Under snapshot isolation the commit is decided already: the last of those
         * batches moved its log entry to {@code COMMITTED}.
         */
        APPLIED
    }

    void reached(Step step, long tid);
}
