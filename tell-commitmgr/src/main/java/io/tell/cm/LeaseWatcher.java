package io.tell.cm;

import io.tell.store.Expect;
import io.tell.store.KeyRange;
import io.tell.store.RecordStore;
import io.tell.store.StoredRecord;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import io.tell.txn.NodeLease;
import io.tell.txn.TxLog;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the processing nodes' leases ({@link NodeLease}) for a commit manager: learns the
 * lowest snapshot base the live ones still run (part of the cluster's {@code lav}), and
 * recovers a node whose lease expired. Recovery is claimed by one conditional write on the
 * lease record (so exactly one watcher of the cluster runs it; a claim that is itself not
 * finished within another lease time can be taken over), settles every transaction the node
 * logged with {@link TidResolver}, reports each settled tid, and removes the lease. Runs on
 * its manager's background thread; not thread-safe.
 */
final class LeaseWatcher {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseWatcher.class);
    private static final int LOG_PAGE = 1000;

    private final RecordStore store;
    private final TidResolver resolver;
    private final Liveness<String> liveness = new Liveness<>();
    private volatile long lowestBase = Long.MAX_VALUE;
    private volatile long longestLeaseNanos;
    private final java.util.concurrent.atomic.AtomicLong recovered = new java.util.concurrent.atomic.AtomicLong();
    private volatile Set<String> live = Set.of();

    LeaseWatcher(RecordStore store, TidResolver resolver) {
        this.store = store;
        this.resolver = resolver;
    }

    /** The lowest base of the live nodes' running transactions at the last pass. */
    long lowestBase() {
        return lowestBase;
    }

    /** The longest lease time of the leases seen at the last pass: every live node renews within it. */
    long longestLeaseNanos() {
        return longestLeaseNanos;
    }

    /** The ids of the leases held (written and not being recovered) at the last pass. */
    Set<String> live() {
        return live;
    }

    /** Nodes recovered by this watcher so far. */
    long recovered() {
        return recovered.get();
    }

    /** One look at every lease; {@code settled} hears each tid recovery settled (tid, committed?). */
    void pass(BiConsumer<Long, Boolean> settled) {
        long now = System.nanoTime();
        long lowest = Long.MAX_VALUE;
        long longest = 0;
        Set<String> present = new HashSet<>();
        Set<String> held = new HashSet<>();
        for (NodeLease.Leased l : NodeLease.all(store)) {
            present.add(l.id());
            if (l.record() == null) {
                continue; // listed but not written yet, or removed after its directory entry
            }
            long timeout = TimeUnit.MILLISECONDS.toNanos(l.record().leaseMillis()) * (l.record().recovering() ? 2 : 1);
            longest = Math.max(longest, TimeUnit.MILLISECONDS.toNanos(l.record().leaseMillis()));
            boolean expired = liveness.expired(l.id(), l.record().heartbeat(), timeout, now);
            if (!l.record().recovering()) {
                lowest = Math.min(lowest, l.record().lowestBase());
                held.add(l.id());
            }
            if (expired) {
                claimAndRecover(l, settled);
            }
        }
        liveness.retain(present);
        lowestBase = lowest;
        longestLeaseNanos = longest;
        live = held;
    }

    private void claimAndRecover(NodeLease.Leased l, BiConsumer<Long, Boolean> settled) {
        NodeLease.Record r = l.record();
        NodeLease.Record claim = new NodeLease.Record(true, r.leaseMillis(), r.heartbeat() + 1, r.lowestBase());
        WriteResult w = store.write(new WriteOp(NodeLease.key(l.id()), claim.encode(), Expect.version(l.version())));
        if (!w.written()) {
            return; // renewed after all, or another watcher claimed it
        }
        recovered.incrementAndGet();
        LOG.warn("lease of processing node {} expired: recovering its transactions", l.id());
        int committed = 0;
        int aborted = 0;
        int waiting = 0;
        byte[] from = null;
        while (true) {
            var page = store.scan(TxLog.DOMAIN, new KeyRange(from, null), LOG_PAGE);
            for (StoredRecord entry : page) {
                TxLog.Entry e = TxLog.decode(entry.value());
                if (!e.node().equals(l.id())) {
                    continue;
                }
                long tid = ByteBuffer.wrap(entry.key()).getLong();
                switch (resolver.resolve(tid, node -> false)) {
                    case COMMITTED -> {
                        committed++;
                        settled.accept(tid, true);
                    }
                    case ABORTED -> {
                        aborted++;
                        settled.accept(tid, false);
                    }
                    case WAITING -> waiting++;
                }
            }
            if (page.size() < LOG_PAGE) {
                break;
            }
            from = nextKey(page.get(page.size() - 1).key());
        }
        if (waiting == 0) {
            NodeLease.remove(store, l.id(), w.version());
        }
        LOG.warn("recovered processing node {}: {} transactions reverted, {} completed, {} left for a retry",
                l.id(), aborted, committed, waiting);
    }

    private static byte[] nextKey(byte[] key) {
        byte[] next = java.util.Arrays.copyOf(key, key.length + 1);
        return next;
    }
}
