package io.tell.bench.tpcc;

import io.tell.sql.ProcessingNode;
import io.tell.sql.jdbc.TellConnection;
import io.tell.store.CountingRecordStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The round-trip counters of the Tell processing nodes behind some JDBC connections (none for
 * another database). Connections to one shared Tell URL share a node, so each node is counted
 * once. The counters cover everything the node does, so a sample is only as clean as the
 * node's other work is quiet.
 */
final class TellCounters {
    private final List<ProcessingNode> nodes;

    private TellCounters(List<ProcessingNode> nodes) {
        this.nodes = nodes;
    }

    static TellCounters of(Collection<Connection> connections) throws SQLException {
        List<ProcessingNode> nodes = new ArrayList<>();
        for (Connection c : connections) {
            if (c.isWrapperFor(TellConnection.class)) {
                ProcessingNode node = c.unwrap(TellConnection.class).node();
                if (nodes.stream().noneMatch(n -> n == node)) {
                    nodes.add(node);
                }
            }
        }
        return new TellCounters(nodes);
    }

    /** Whether the connections are Tell's. */
    boolean present() {
        return !nodes.isEmpty();
    }

    Sample sample() {
        long reads = 0;
        long writes = 0;
        long increments = 0;
        long scans = 0;
        long cm = 0;
        long buffered = 0;
        for (ProcessingNode node : nodes) {
            CountingRecordStore.Counts c = node.storeCounts();
            reads += c.reads();
            writes += c.writes();
            increments += c.increments();
            scans += c.scans();
            cm += node.commitManagerCalls();
            long[] shared = node.transactions().sharedBufferCounts();
            buffered += shared[0] + shared[1];
        }
        return new Sample(new CountingRecordStore.Counts(reads, writes, increments, scans), cm, buffered);
    }

    /** The counters at one moment, summed over the nodes. */
    record Sample(CountingRecordStore.Counts store, long commitManager, long buffered) {

        /** What happened since {@code earlier}, per transaction of {@code transactions}. */
        RoundTrips since(Sample earlier, long transactions) {
            CountingRecordStore.Counts d = store.minus(earlier.store);
            double n = Math.max(1, transactions);
            return new RoundTrips(transactions, d.reads() / n, d.writes() / n, d.increments() / n, d.scans() / n,
                    (commitManager - earlier.commitManager) / n, (buffered - earlier.buffered) / n);
        }
    }
}
