package io.tell.txn;

/**
 * What a commit manager hands a starting transaction. A read-write transaction gets a fresh
 * {@code tid} (positive; tids increase system-wide and are the versions of the row versions
 * it writes). A read-only transaction gets a negative id, which is no version: it only lets
 * the commit manager hold {@code lav} back until the reader ends. {@code lav} is the lowest
 * base of any running transaction: no one can see a version below the newest version
 * {@code <= lav} of a record any more.
 *
 * <p>{@code tidHorizon}: every tid above it was handed out after {@code snapshot} was taken, so
 * its transaction cannot have written or validated anything before then. A commit manager that
 * cannot tell (a cluster member, whose peers issue tids of their own ranges, or a start that came
 * over the wire) says {@link Long#MAX_VALUE}, which is always safe: it only makes a
 * SERIALIZABLE transaction that wrote nothing abort more often ({@link ReadValidator}).
 */
public record TxStart(long tid, SnapshotDescriptor snapshot, long lav, long tidHorizon) {
    /** A start whose commit manager cannot bound the tids issued before its snapshot. */
    public TxStart(long tid, SnapshotDescriptor snapshot, long lav) {
        this(tid, snapshot, lav, Long.MAX_VALUE);
    }

    public boolean readOnly() {
        return tid < 0;
    }
}
