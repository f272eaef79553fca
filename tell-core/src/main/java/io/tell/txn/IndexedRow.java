package io.tell.txn;

/** A row found through an index: its rid and its bytes as the transaction sees them. */
public record IndexedRow(long rid, byte[] row) {
}
