package io.tell.txn;

import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Removes, on a thread of its own, the index entries that readers found to point at rows gone
 * for everyone ({@link IndexReader}). A removal is a tree delete of several round trips; on the
 * reader's thread it lengthened the transaction that found the entry (TPC-C's Delivery paid for
 * every New-Order row the previous Delivery had deleted). Removal is an optimisation, so an
 * entry that cannot be queued (the queue is full, or the node is closing) is simply left for a
 * later reader to find again; an entry already queued is not queued twice.
 */
final class StaleEntries implements AutoCloseable {
    /** Entries waiting at most; beyond that readers' finds are dropped. */
    static final int MAX_QUEUED = 10_000;

    private final ExecutorService worker;
    private final Set<String> queued = ConcurrentHashMap.newKeySet();

    StaleEntries(String nodeId) {
        worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(MAX_QUEUED), r -> {
            Thread t = new Thread(r, "tell-index-cleanup-" + nodeId);
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.AbortPolicy());
    }

    /** Queues the removal of {@code entry} from {@code index}, whose row is gone for every snapshot. */
    void remove(TableIndex index, IndexEntry entry) {
        String id = index.name() + '/' + HexFormat.of().formatHex(entry.key()) + '/' + entry.rid();
        if (!queued.add(id)) {
            return;
        }
        try {
            worker.execute(() -> {
                try {
                    index.tree().delete(entry.key(), entry.rid());
                } catch (TellException e) {
                    // Left in place: the next reader that meets it queues it again.
                } finally {
                    queued.remove(id);
                }
            });
        } catch (RejectedExecutionException e) {
            queued.remove(id);
        }
    }

    /** Waits until every removal queued before the call has been tried (for tests). */
    void awaitQueued() {
        try {
            worker.submit(() -> { }).get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("index clean-up did not finish", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        worker.shutdown();
        try {
            worker.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
