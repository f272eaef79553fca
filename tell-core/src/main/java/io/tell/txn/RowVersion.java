package io.tell.txn;

/** One version of a row: written by {@code tid}; {@code row} is null when the version is a delete. */
public record RowVersion(long tid, byte[] row) {
    public boolean deleted() {
        return row == null;
    }
}
