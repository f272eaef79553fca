package io.tell.txn;

/**
 * What a commit manager hands a starting transaction. A read-write transaction gets a fresh
 * {@code tid} (positive; tids increase system-wide and are the versions of the row versions
 * it writes). A read-only transaction gets a negative id, which is no version: it only lets
 * the commit manager hold {@code lav} back until the reader ends. {@code lav} is the lowest
 * base of any running transaction: no one can see a version below the newest version
 * {@code <= lav} of a record any more.
 *
 * <p>Two facts about the writers running when the snapshot was taken, for SERIALIZABLE
 * transactions that write nothing ({@link ReadValidator}): {@code tidHorizon} — every tid above
 * it was handed out after the snapshot was taken; and {@code validating} — the running tids that
 * had reported {@link CommitManager#validating} by then (sorted), so every other running tid
 * validates after the snapshot. A commit manager that cannot tell (a cluster member, whose peers
 * issue tids of their own ranges and hear their own writers, or a start that came over the wire)
 * says {@link Long#MAX_VALUE} and null, which is always safe: it only makes such a transaction
 * abort more often.
 */
public record TxStart(long tid, SnapshotDescriptor snapshot, long lav, long tidHorizon, long[] validating) {
    /** A start whose commit manager knows nothing of the writers running at its snapshot. */
    public TxStart(long tid, SnapshotDescriptor snapshot, long lav) {
        this(tid, snapshot, lav, Long.MAX_VALUE, null);
    }

    public boolean readOnly() {
        return tid < 0;
    }

    /**
     * Whether the transaction {@code writer}, whose versions this snapshot does not see, may have
     * begun validating (or, not SERIALIZABLE, reporting its commit) before the snapshot was taken.
     */
    public boolean mayPrecedeSnapshot(long writer) {
        return writer <= tidHorizon && (validating == null || java.util.Arrays.binarySearch(validating, writer) >= 0);
    }
}
