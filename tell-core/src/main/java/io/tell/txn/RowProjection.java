package io.tell.txn;

/**
 * The part of a row that a read used (the columns a statement asked for, and those that
 * placed the row in the index range it scanned), so that read validation can let a
 * concurrent change of the rest of the row pass ({@link ReadValidator}). A read given none
 * used the whole row. Column-level reads are sound because a write that leaves every value a
 * reader used as it was changes nothing that reader saw: the reader conflicts only with writers
 * of the columns it read.
 */
@FunctionalInterface
public interface RowProjection {
    /** Whether two live rows of the same record agree on everything this read used. */
    boolean same(byte[] a, byte[] b);
}
