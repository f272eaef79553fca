package io.tell.bench.tpcc;

/**
 * Round trips a Tell processing node made per transaction, on average over {@code transactions}:
 * store calls by kind (a batch of keys is one call) and calls to the commit manager; and
 * {@code buffered}, the records its shared buffer served without a store read (0 unless the node
 * runs {@code buffer=shared|synced}).
 */
public record RoundTrips(long transactions, double reads, double writes, double increments, double scans,
                         double commitManager, double buffered) {

    /** All store calls. */
    public double store() {
        return reads + writes + increments + scans;
    }
}
