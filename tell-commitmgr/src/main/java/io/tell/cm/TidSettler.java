package io.tell.cm;

import io.tell.store.RecordStore;
import io.tell.txn.NodeLease;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles, for one cluster member, the tids whose owner is gone and that nobody else would ever
 * report (with {@link TidResolver}): those of dead members' ranges, those of counter ranges no
 * member claims (a member died between reserving and publishing), and this member's running
 * transactions whose processing node's lease is gone (a node that died before its log write
 * left nothing for lease recovery to find). Settled tids are completed through the member like
 * any report. Runs on the member's settler thread; not thread-safe except {@link #owned} and
 * {@link #forget}.
 */
final class TidSettler {
    private static final Logger LOG = LoggerFactory.getLogger(TidSettler.class);

    private final LocalCommitManager owner;
    private final RecordStore store;
    private final TidResolver resolver;
    private final long graceNanos;
    private final long incarnation;
    /** The lease ids of the processing nodes running this member's transactions, by tid or reader id. */
    private final Map<Long, String> owners = new ConcurrentHashMap<>();
    private final Map<Long, Long> unownedSince = new HashMap<>();

    TidSettler(LocalCommitManager owner, RecordStore store, TidResolver resolver, long graceNanos, long incarnation) {
        this.owner = owner;
        this.store = store;
        this.resolver = resolver;
        this.graceNanos = graceNanos;
        this.incarnation = incarnation;
    }

    void owned(long id, String node) {
        owners.put(id, node);
    }

    void forget(long id) {
        owners.remove(id);
    }

    /**
     * Settles the {@code open} tids that belong to a member in {@code dead}, or to no member of
     * {@code view} and not to this one ({@code mine}) for longer than the grace.
     */
    void settleLeftovers(List<Long> open, Map<Long, MemberRecord> view, Set<Long> dead, LongPredicate mine) {
        long now = System.nanoTime();
        Set<Long> unownedNow = new HashSet<>();
        for (long tid : open) {
            if (owner.isClosed()) {
                return;
            }
            if (mine.test(tid)) {
                continue;
            }
            MemberRecord holder = null;
            for (MemberRecord r : view.values()) {
                if (r.owns(tid)) {
                    holder = r;
                }
            }
            if (holder == null) {
                unownedNow.add(tid);
                if (now - unownedSince.computeIfAbsent(tid, t -> now) < graceNanos) {
                    continue;
                }
            } else if (!dead.contains(holder.incarnation())) {
                continue;
            }
            resolve(tid);
        }
        unownedSince.keySet().retainAll(unownedNow);
    }

    /**
     * Settles this member's running transactions whose node's lease is neither in {@code live}
     * nor held in the store. Without a log entry the tid is fenced (its node, should it still
     * run, can then never write); with one it is settled as recovery does. A reader is released.
     */
    void settleOrphans(Set<String> live) {
        Map<String, Boolean> held = new HashMap<>();
        for (Map.Entry<Long, String> e : List.copyOf(owners.entrySet())) {
            String node = e.getValue();
            if (owner.isClosed()) {
                return;
            }
            if (live.contains(node) || held.computeIfAbsent(node, n -> NodeLease.held(store, n))) {
                continue;
            }
            long id = e.getKey();
            if (id < 0) {
                owner.abortedAsync(id);
                continue;
            }
            boolean completed;
            synchronized (owner) {
                completed = owner.state().isCompleted(id);
            }
            if (completed) {
                owners.remove(id); // reported through another member
                continue;
            }
            LOG.info("commit manager {}: settling tid {} of gone processing node {}", incarnation, id, node);
            resolve(id);
        }
    }

    private void resolve(long tid) {
        TidResolver.Outcome outcome = resolver.resolve(tid, node -> NodeLease.held(store, node));
        if (outcome != TidResolver.Outcome.WAITING) {
            settled(tid, outcome == TidResolver.Outcome.COMMITTED);
        }
    }

    /**
     * Completes a settled tid through the member like any report. A committed one's log entry
     * goes once published; a fenced one's stays (so that a late report of its owner is refused)
     * until the sweeper removes it.
     */
    void settled(long tid, boolean committed) {
        owner.abortedAsync(tid).whenComplete((ok, e) -> {
            if (e != null) {
                LOG.warn("settled tid {} not yet published: {}", tid, e.toString());
            } else if (committed) {
                TxLogCleanup.deleteQuietly(store, tid, 0);
            }
        });
    }
}
