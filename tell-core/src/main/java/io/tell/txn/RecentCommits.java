package io.tell.txn;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The commits this node reported lately, by tid, with the acknowledgements of their reports:
 * a column merge onto a version of one of them learns that it committed from its report
 * ({@link Committer}), waiting briefly for one still on its way, instead of asking the commit
 * manager for a snapshot. The commit manager counts a tid committed in every snapshot it hands
 * out once it has acknowledged the report. Bounded: the oldest are forgotten, and a merge onto
 * one of those asks the commit manager as it does for other nodes' commits.
 */
final class RecentCommits {
    private static final int KEPT = 1024;
    /** How long a merge waits for the acknowledgement of a report on its way. */
    private static final long WAIT_MILLIS = 100;

    private final Map<Long, CompletableFuture<Void>> reports = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, CompletableFuture<Void>> eldest) {
            return size() > KEPT;
        }
    };

    /** Notes the report of the commit of {@code tid}, acknowledged when {@code ack} completes normally. */
    synchronized void reported(long tid, CompletableFuture<Void> ack) {
        reports.put(tid, ack);
    }

    /**
     * True when {@code tid} is a commit of this node that the commit manager acknowledged,
     * false when it refused it or does not answer in time, and null when this node did not
     * report it lately.
     */
    Boolean committed(long tid) {
        CompletableFuture<Void> ack;
        synchronized (this) {
            ack = reports.get(tid);
        }
        return ack == null ? null : TransactionManager.completesWithin(ack, WAIT_MILLIS);
    }
}
