package io.tell.txn;

/**
 * What a commit manager hands a starting transaction. A read-write transaction gets a fresh
 * {@code tid} (positive; tids increase system-wide and are the versions of the row versions
 * it writes). A read-only transaction gets a negative id, which is no version: it only lets
 * the commit manager hold {@code lav} back until the reader ends. {@code lav} is the lowest
 * base of any running transaction: no one can see a version below the newest version
 * {@code <= lav} of a record any more.
 */
public record TxStart(long tid, SnapshotDescriptor snapshot, long lav) {
    public boolean readOnly() {
        return tid < 0;
    }
}
