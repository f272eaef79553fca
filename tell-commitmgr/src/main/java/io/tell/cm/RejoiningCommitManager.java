package io.tell.cm;

import io.tell.store.RecordStore;
import io.tell.txn.CommitManager;
import io.tell.txn.ForwardingCommitManager;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable commit manager of a {@code tell commitmgr} process. A member that could not
 * publish for longer than the grace (a store fail-over, a long pause) is taken for dead by the
 * others, who settle its tids and remove its record; it then finds itself fenced and stops
 * serving. Rather than leave a process that answers nothing for good, this opens a new
 * incarnation over the same store, exactly as a restarted process would (the designed way
 * back: tids of the old incarnation are settled by the cluster, its reports are refused or
 * decided through the log as for any dead member).
 */
final class RejoiningCommitManager extends ForwardingCommitManager {
    private static final Logger LOG = LoggerFactory.getLogger(RejoiningCommitManager.class);

    private final RecordStore store;
    private final LocalCommitManager.Options options;
    private final ScheduledExecutorService watchdog;
    private volatile LocalCommitManager current;
    private volatile boolean closed;

    RejoiningCommitManager(RecordStore store, LocalCommitManager.Options options) {
        this.store = store;
        this.options = options;
        this.current = LocalCommitManager.open(store, options);
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tell-cm-rejoin");
            t.setDaemon(true);
            return t;
        });
        watchdog.scheduleWithFixedDelay(this::rejoinIfFenced, 100, 100, TimeUnit.MILLISECONDS);
    }

    LocalCommitManager current() {
        return current;
    }

    private void rejoinIfFenced() {
        LocalCommitManager cm = current;
        if (closed || !cm.isFenced()) {
            return;
        }
        try {
            LocalCommitManager next = LocalCommitManager.open(store, options);
            current = next;
            cm.crash(); // its record is gone; nothing of it may be published any more
            LOG.warn("commit manager {} was fenced by the cluster; rejoined as {}", cm.incarnation(), next.incarnation());
        } catch (RuntimeException e) {
            LOG.warn("commit manager {} was fenced; rejoining failed, retrying: {}", cm.incarnation(), e.toString());
        }
    }

    @Override
    protected CommitManager delegate() {
        return current;
    }

    @Override
    public void close() {
        closed = true;
        watchdog.shutdownNow();
        current.close();
    }
}
