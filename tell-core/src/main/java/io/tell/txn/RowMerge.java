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
     * The row {@code theirs} with the changes that turned {@code base} into {@code ours}; null
     * when they cannot join: a column changed in both (unless the change is one that can be made
     * again on their value, such as an addition), or a column that no merge may touch (an indexed
     * one) changed in either. All three are live rows of one record.
     */
    byte[] merge(byte[] base, byte[] ours, byte[] theirs);

    /**
     * True when {@link #merge} computes some column again from {@code theirs}'s value of it
     * where that differs from {@code base}'s (a change made again on their value, such as an
     * addition). Such a merge puts the transaction after their writer, so its commit validates
     * every other read it made, as SERIALIZABLE does: else it would come after them for this row
     * and before them for a row of theirs it read (docs/transactions.md, "Column merges").
     */
    default boolean reapplies(byte[] base, byte[] theirs) {
        return false;
    }

    /**
     * How the row merges once this write of it was followed by {@code later}, another write of
     * the same row in the same transaction that gives a merge.
     */
    default RowMerge then(RowMerge later) {
        return later;
    }
}
