package io.tell.txn;

import java.util.Arrays;

/**
 * What a commit manager hands a starting transaction. A read-write transaction gets a fresh
 * {@code tid} (positive; tids increase system-wide and are the versions of the row versions
 * it writes). A read-only transaction gets a negative id, which is no version: it only lets
 * the commit manager hold {@code lav} back until the reader ends. {@code lav} is the lowest
 * base of any running transaction: no one can see a version below the newest version
 * {@code <= lav} of a record any more.
 *
 * <p>{@code writers}: what the commit manager knew, when it took the snapshot, of the
 * SERIALIZABLE writers that had begun validating ({@link ReadValidator}, for transactions that
 * write nothing).
 */
public record TxStart(long tid, SnapshotDescriptor snapshot, long lav, Writers writers) {
    /** A start whose commit manager knows nothing of the writers running at its snapshot. */
    public TxStart(long tid, SnapshotDescriptor snapshot, long lav) {
        this(tid, snapshot, lav, Writers.UNKNOWN);
    }

    public boolean readOnly() {
        return tid < 0;
    }

    /** Whether this transaction sees the versions of {@code writer}: its own, or those its snapshot sees. */
    public boolean sees(long writer) {
        return writer == tid || snapshot.isVisible(writer);
    }

    /**
     * Whether the transaction {@code writer}, whose versions this snapshot does not see, may be
     * serialized before a writer this snapshot sees: it may have begun validating before the
     * snapshot was taken, and before some transaction the snapshot sees completed.
     */
    public boolean mayPrecedeSnapshot(long writer) {
        return writers.mayPrecede(writer);
    }

    /**
     * The writers a commit manager hears: every tid of {@code [from, to]} is its own (issued by it,
     * in this incarnation, or to be), those up to {@code issuedUpTo} handed out before the snapshot
     * was taken and the rest after it; {@code validating} (sorted) are those of them that had
     * reported {@link CommitManager#validatingAsync} by then and before some transaction the
     * snapshot sees completed. Each of its writers reports to it, so every other tid it issued
     * before the snapshot began validating after it, or precedes nothing the snapshot sees. Of a tid outside
     * {@code [from, to]} (a cluster peer's, an earlier incarnation's) nothing is known: it may
     * precede, which is always safe — it only makes a reader abort more often.
     */
    public record Writers(long from, long issuedUpTo, long to, long[] validating) {
        /** Knows of no tid. */
        public static final Writers UNKNOWN = new Writers(1, 0, 0, new long[0]);

        public Writers {
            if (validating == null) {
                throw new IllegalArgumentException("validating must not be null");
            }
        }

        /** Whether {@code tid} reports to this commit manager ({@link CommitManager#validatingAsync}). */
        public boolean hears(long tid) {
            return tid >= from && tid <= to;
        }

        boolean mayPrecede(long writer) {
            if (!hears(writer)) {
                return true;
            }
            return writer <= issuedUpTo && Arrays.binarySearch(validating, writer) >= 0;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Writers w && from == w.from && issuedUpTo == w.issuedUpTo && to == w.to
                    && Arrays.equals(validating, w.validating);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(from) * 31 + Long.hashCode(issuedUpTo) * 17 + Long.hashCode(to) + Arrays.hashCode(validating);
        }

        @Override
        public String toString() {
            return "Writers[" + from + ".." + issuedUpTo + ".." + to + ", validating " + Arrays.toString(validating) + "]";
        }
    }
}
