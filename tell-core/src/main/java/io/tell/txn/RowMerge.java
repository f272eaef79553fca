package io.tell.txn;

/**
 * How an update of a row joins a newer committed version of it that its snapshot does not see
 * ({@link Transaction#update(String, byte[], byte[], RowMerge)}): the update changed some columns
 * of the row it saw, the other writer changed others, and the row written holds both changes.
 * The SQL layer gives one for updates whose only reads of the row are of known columns; the
 * transaction checks those reads ({@link RowProjection}) itself, so a merge never hides a change
 * to anything the update read. Rules and argument: docs/transactions.md, "Column merges".
 */
@FunctionalInterface
public interface RowMerge {
    /**
     * The row {@code theirs} with every column that {@code ours} changed from {@code base} set as
     * in {@code ours}; null when a column changed in both, or a column that no merge may touch
     * (an indexed one) changed in either. All three are live rows of one record.
     */
    byte[] merge(byte[] base, byte[] ours, byte[] theirs);
}
