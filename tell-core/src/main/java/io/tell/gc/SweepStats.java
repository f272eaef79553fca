package io.tell.gc;

/**
 * What a {@link Sweeper} has done since it started (plain getters; Micrometer can read them).
 *
 * @param passes              passes completed
 * @param recordsScanned      garbage-list items and log entries examined
 * @param rowsDeleted         row records whose versions were all deleted below lav
 * @param indexEntriesDeleted index entries of those rows (and old keys of rows gone since)
 * @param claimsDeleted       unique claims that still named those rows
 * @param logEntriesDeleted   orphan transaction-log entries
 * @param fencesDeleted       records a revert left with no version, to stop a late write of an aborted tid
 * @param deadRecordsDeleted  records of dropped tables and indexes
 * @param treeRecordsDeleted  tree records no walk from the root reached (crash leftovers of tree clients)
 * @param conflicts           conditional deletes refused because the record changed meanwhile
 * @param roundTrips          store round trips of the sweeper's own calls
 * @param leaseAcquisitions   times this sweeper took the lease (not counting renewals)
 */
public record SweepStats(long passes, long recordsScanned, long rowsDeleted, long indexEntriesDeleted, long claimsDeleted,
                         long logEntriesDeleted, long fencesDeleted, long deadRecordsDeleted, long treeRecordsDeleted,
                         long conflicts, long roundTrips,
                         long leaseAcquisitions) {
}
