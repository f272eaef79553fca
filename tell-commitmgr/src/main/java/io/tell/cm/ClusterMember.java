package io.tell.cm;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import io.tell.txn.Directory;
import io.tell.txn.NodeLease;
import io.tell.txn.TxLog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster side of a durable {@link LocalCommitManager} (architecture §6). Every member
 * publishes a {@link MemberRecord} and merges the others' every {@value #SYNC_MILLIS} ms, so
 * a snapshot from any member holds only completions some member made durable (a consistent
 * cut: a tid is reported only after all its writes are applied) and lags the others by about
 * that period. A commit with a log entry arrives decided by its node (the entry is {@code
 * COMMITTED} already: acknowledged at once), or is decided here by moving the entry to {@code
 * COMMITTED}, which recovery cannot also fence ({@link TidResolver}), and acknowledged then
 * (group commit: one batch decides every report that arrived meanwhile); the record naming it
 * follows.
 *
 * <p>Nothing is assumed about tids of others: a tid is visible once some member published it
 * completed. A member silent for the grace is dead: any member settles the tids of its ranges
 * with {@link TidResolver} (a transaction begun on it can still commit through another member
 * meanwhile), and removes its record once they are all completed and the grace has passed
 * again (its {@code lav} is held until then, for readers it started). Tids of the counter that
 * no record claims (a reservation whose member died before publishing it) are settled the same
 * way after the grace. Every member also watches processing-node leases ({@link LeaseWatcher}).
 */
final class ClusterMember {
    static final long SYNC_MILLIS = 5;
    private static final long LEASE_WATCH_MILLIS = 50;
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final int DIRECTORY_EVERY = 20;
    private static final int SETTLE_EVERY = 10;
    private static final Logger LOG = LoggerFactory.getLogger(ClusterMember.class);

    private record Pending(long tid, long logVersion, CompletableFuture<Void> ack) {
    }

    private final LocalCommitManager owner;
    private final RecordStore store;
    private final long graceNanos;
    private final long incarnation;
    private final RecordKey key;
    private final Directory directory;
    private final TidResolver resolver;
    private final LeaseWatcher leases;
    private final TidSettler settlements;
    private final ExecutorService settler;
    private final AtomicBoolean settling = new AtomicBoolean();
    // Guarded by the owner's monitor:
    private final List<long[]> ranges = new ArrayList<>();
    private List<Pending> pending = new ArrayList<>();
    private List<CompletableFuture<Void>> claims = new ArrayList<>();
    /** Log entries of decided commits ({tid, version}), deleted once a record naming them completed is published; background thread only. */
    private final List<long[]> committedEntries = new ArrayList<>();
    private boolean flushing;
    private boolean heartbeatDue;
    /** Completions marked done since the record was last taken to publish: the next tick publishes them. */
    private boolean unpublished;
    private long publishedNanos;
    private long heartbeat;
    private long version;
    /** When this member last handed out a tid (readers take none); under the owner's monitor. */
    private long lastWriterStartNanos = System.nanoTime();
    // Only on the owner's background thread:
    private final Liveness<Long> liveness = new Liveness<>();
    // Written by the background thread under the owner's monitor, read under it:
    private Map<Long, MemberRecord> others = new HashMap<>();
    private final Map<Long, Long> deadSince = new HashMap<>();
    private Set<String> memberNames = new HashSet<>();
    private long ticks;
    private volatile long othersLav = Long.MAX_VALUE;

    ClusterMember(LocalCommitManager owner, RecordStore store, LocalCommitManager.Options options, long incarnation) {
        this.owner = owner;
        this.store = store;
        this.graceNanos = options.inDoubtGrace().toNanos();
        this.incarnation = incarnation;
        this.key = MemberRecord.key(incarnation);
        this.directory = new Directory(store, LocalCommitManager.SYSTEM_DOMAIN, "cm");
        this.resolver = new TidResolver(store);
        this.leases = new LeaseWatcher(store, resolver);
        this.settlements = new TidSettler(owner, store, resolver, graceNanos, incarnation);
        this.settler = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "tell-cm-settle-" + incarnation);
            t.setDaemon(true);
            return t;
        });
    }

    /** Publishes this member's first record and merges what the others published. */
    void join() {
        directory.add(Long.toString(incarnation));
        MemberRecord first;
        synchronized (owner) {
            heartbeat = 1;
            first = record();
        }
        WriteResult w = store.write(new WriteOp(key, first.encode(), Expect.ABSENT));
        synchronized (owner) {
            version = w.version();
        }
        poll(true);
        owner.background.scheduleWithFixedDelay(this::tick, SYNC_MILLIS, SYNC_MILLIS, TimeUnit.MILLISECONDS);
        owner.background.scheduleWithFixedDelay(() -> settleAsync(this::watchLeases), LEASE_WATCH_MILLIS,
                LEASE_WATCH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The lowest base anyone else in the cluster may still read at: other members and live processing nodes. */
    long clusterLav() {
        return Math.min(othersLav, leases.lowestBase());
    }

    long recoveredNodes() {
        return leases.recovered();
    }

    String describe() {
        return "member=" + incarnation + " others=" + others.keySet() + " dead=" + deadSince.keySet();
    }

    /**
     * Called under the owner's monitor: a released tid to decide ({@code logVersion} > 0: its
     * entry's version) and mark done before acknowledging. A commit its node decided
     * ({@code logVersion} < 0: minus the {@code COMMITTED} entry's version) is durable already:
     * done and acknowledged at once, published and its entry deleted by the next publish.
     */
    CompletableFuture<Void> complete(long tid, long logVersion) {
        CompletableFuture<Void> ack = new CompletableFuture<>();
        pending.add(new Pending(tid, logVersion, ack));
        if (logVersion < 0) {
            owner.state().markDone(tid);
            ack.complete(null);
        }
        requestFlush();
        return ack;
    }

    /** A reserved range becomes usable once this member's published record names it. */
    CompletableFuture<Void> claimRange(long first, long last) {
        CompletableFuture<Void> published = new CompletableFuture<>();
        synchronized (owner) {
            ranges.add(new long[] {first, last});
            claims.add(published);
            requestFlush();
        }
        return published;
    }

    private void requestFlush() {
        if (!flushing) {
            flushing = true;
            owner.runInBackground(this::flush);
        }
    }

    /**
     * Group commit, one group per run (the next run is queued behind whatever else is due on the
     * member's thread; at close, until nothing is pending): decide the logged commits (one batch), mark every
     * decided completion done here and acknowledge it, then publish — at once when a range waits
     * for it, a heartbeat is due, the member closes or the last publish is a sync period old, else
     * at the next tick: under a stream of reports a record written per group would cost the store
     * two writes per transaction (the record, then the log entries' delete) that nobody waits
     * for, since the others merge records only once a sync period anyway. A completion is durable
     * before it is acknowledged: a commit by its {@code COMMITTED} log entry, which stays until a
     * record naming the tid completed is published (a member that dies in between leaves it to
     * {@link TidResolver}, which settles it completed); an abort, a finished reader or an
     * abandoned tid has no entry and nothing of its own left in the store, so recovery fences
     * it, which is what it is. Ranges are usable only once published.
     */
    private void flush() {
        while (true) {
            List<Pending> batch;
            List<CompletableFuture<Void>> published;
            boolean publishNow;
            synchronized (owner) {
                if (pending.isEmpty() && claims.isEmpty() && !heartbeatDue) {
                    flushing = false;
                    return;
                }
                publishNow = heartbeatDue || !claims.isEmpty() || owner.isClosed()
                        || System.nanoTime() - publishedNanos >= TimeUnit.MILLISECONDS.toNanos(SYNC_MILLIS);
                heartbeatDue = false;
                batch = pending;
                published = claims;
                pending = new ArrayList<>();
                claims = new ArrayList<>();
            }
            List<Long> decided = new ArrayList<>();
            try {
                decide(batch, decided);
                synchronized (owner) {
                    decided.forEach(owner.state()::markDone);
                }
                batch.forEach(p -> p.ack().complete(null));
                batch = List.of();
                if (publishNow) {
                    publish();
                } else {
                    synchronized (owner) {
                        unpublished = true;
                    }
                }
            } catch (RuntimeException e) {
                LOG.warn("commit manager {} could not publish: {}", incarnation, e.toString());
                if (!owner.isClosed()) {
                    // Kept and tried again: some completions have no one to resend them (given-up
                    // tids, tids settled by recovery), and must not stay open for good.
                    synchronized (owner) {
                        pending.addAll(0, batch);
                        claims.addAll(0, published);
                        heartbeatDue = true; // what was decided is still to be published
                    }
                    pause();
                    continue;
                }
                TellException failure = e instanceof TellException te && te.code() == ErrorCode.CM_UNAVAILABLE
                        ? te : TellException.of(ErrorCode.CM_UNAVAILABLE, "publishing completions failed: " + e.getMessage(), e);
                batch.forEach(p -> p.ack().completeExceptionally(failure));
                published.forEach(f -> f.completeExceptionally(failure));
                continue;
            }
            published.forEach(f -> f.complete(null));
            if (publishNow) {
                TxLogCleanup.deleteAllQuietly(store, List.copyOf(committedEntries));
                committedEntries.clear();
            }
            if (!owner.isClosed()) {
                // The next group after whatever else is due on this one thread: a steady stream of
                // reports would otherwise starve the sync tick, and this member's view of the
                // others' completions would go stale. (At close, leave() drains it here.)
                owner.runInBackground(this::flush);
                return;
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(SYNC_MILLIS * 4);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Moves the log entries of reported commits to COMMITTED (one batch). A report whose entry
     * recovery fenced first fails with TX_FENCED; the others go on to be published.
     */
    private void decide(List<Pending> batch, List<Long> decided) {
        List<Pending> logged = new ArrayList<>();
        List<WriteOp> ops = new ArrayList<>();
        byte[] committed = TxLog.encode(new TxLog.Entry(TxLog.State.COMMITTED, "cm-" + incarnation, System.currentTimeMillis(), List.of()));
        for (Pending p : batch) {
            if (p.logVersion() > 0) {
                logged.add(p);
                ops.add(new WriteOp(TxLog.recordKey(p.tid()), committed, Expect.version(p.logVersion())));
            } else {
                decided.add(p.tid());
                if (p.logVersion() < 0) {
                    committedEntries.add(new long[] {p.tid(), -p.logVersion()}); // decided by its node
                }
            }
        }
        if (ops.isEmpty()) {
            return;
        }
        List<WriteResult> results = store.writeAll(ops);
        boolean polled = false;
        for (int i = 0; i < logged.size(); i++) {
            Pending p = logged.get(i);
            if (results.get(i) instanceof WriteResult.Written w) {
                decided.add(p.tid());
                committedEntries.add(new long[] {p.tid(), w.version()});
                continue;
            }
            Versioned now = store.get(TxLog.DOMAIN, TxLog.key(p.tid()));
            if (now == null && !polled && !completed(p.tid())) {
                // A member that decided it may have published it and deleted the entry, then died
                // before answering; the report came here before this member merged that record.
                // One read of the others' records serves the whole batch.
                poll(true);
                polled = true;
            }
            if (now != null && TxLog.decode(now.value()).state() == TxLog.State.COMMITTED || now == null && completed(p.tid())) {
                decided.add(p.tid()); // decided by an earlier attempt of this report
            } else {
                batch.remove(p);
                p.ack().completeExceptionally(TellException.of(ErrorCode.TX_FENCED, "transaction " + p.tid()
                        + " was taken over by recovery before its commit was decided; it is aborted"));
            }
        }
    }

    private boolean completed(long tid) {
        synchronized (owner) {
            return owner.state().isCompleted(tid);
        }
    }

    /** Writes this member's record as its state is now. */
    private void publish() {
        MemberRecord next;
        long expected;
        synchronized (owner) {
            heartbeat++;
            next = record();
            expected = version;
            unpublished = false;
            publishedNanos = System.nanoTime();
        }
        WriteResult w = store.write(new WriteOp(key, next.encode(), Expect.version(expected)));
        if (!w.written()) {
            // Only this member writes its record; the others only delete it (a reaper that took
            // it for dead). A record still there is ours: an earlier write whose answer was lost
            // (a store timeout) landed after all. Carry on from it.
            Versioned mine = store.get(key.domain(), key.key());
            if (mine == null) {
                LOG.error("commit manager {}: its record was removed by another member that took it for dead; it stops", incarnation);
                owner.fenced();
                throw TellException.of(ErrorCode.CM_UNAVAILABLE, "this commit manager was taken for dead by another");
            }
            w = store.write(new WriteOp(key, next.encode(), Expect.version(mine.version())));
            if (!w.written()) {
                throw TellException.of(ErrorCode.CM_UNAVAILABLE, "publishing completions raced with a reaper; retry");
            }
        }
        synchronized (owner) {
            version = w.version();
        }
    }

    /** The record to publish now; under the monitor. */
    private MemberRecord record() {
        CommitState state = owner.state();
        long base = state.base();
        ranges.removeIf(r -> r[1] <= base);
        return new MemberRecord(incarnation, heartbeat, owner.isClosed(), base,
                Math.min(state.localLav(), base), List.copyOf(ranges), state.doneAboveBase().toLongArray());
    }

    private void tick() {
        if (owner.isClosed()) {
            return;
        }
        ticks++;
        synchronized (owner) {
            // Before the poll, which may fail: what is unpublished goes out within a tick regardless
            // (the flush runs after this tick, on the same thread).
            if (unpublished || ticks % Math.max(1, graceNanos / TimeUnit.MILLISECONDS.toNanos(SYNC_MILLIS) / 10) == 0) {
                heartbeatDue = true; // publish even with nothing pending: the others see us alive
                requestFlush();
            }
        }
        try {
            poll(ticks % DIRECTORY_EVERY == 0);
            abandonIdleRange();
            if (ticks % SETTLE_EVERY == 0) {
                settleAsync(this::settleDead); // store reads per open tid: not every sync period
            }
        } catch (RuntimeException e) {
            LOG.warn("commit manager {}: cluster sync failed: {}", incarnation, e.toString());
        }
    }

    /** Reads the others' records (and, when {@code full}, the member directory and tid counter) and merges them. */
    private void poll(boolean full) {
        if (full || memberNames.isEmpty()) {
            memberNames = directory.read();
            long issued = store.increment(LocalCommitManager.SYSTEM_DOMAIN, LocalCommitManager.TID_COUNTER, 0);
            synchronized (owner) {
                owner.state().issuedUpTo(issued);
            }
        }
        List<Long> ids = new ArrayList<>();
        List<RecordKey> keys = new ArrayList<>();
        for (String name : memberNames) {
            long id = Long.parseLong(name);
            if (id != incarnation) {
                ids.add(id);
                keys.add(MemberRecord.key(id));
            }
        }
        List<Versioned> records = keys.isEmpty() ? List.of() : store.getAll(keys);
        long now = System.nanoTime();
        long lav = Long.MAX_VALUE;
        Map<Long, MemberRecord> seen = new HashMap<>();
        Set<Long> expired = new HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            if (records.get(i) != null) {
                MemberRecord r = MemberRecord.decode(records.get(i).value());
                seen.put(ids.get(i), r);
                lav = Math.min(lav, r.lav());
                if (liveness.expired(ids.get(i), r.heartbeat(), graceNanos, now)) {
                    expired.add(ids.get(i));
                }
            }
        }
        liveness.retain(seen.keySet());
        synchronized (owner) {
            others = seen;
            deadSince.keySet().retainAll(expired);
            expired.forEach(id -> deadSince.putIfAbsent(id, now));
            for (MemberRecord r : seen.values()) {
                owner.state().merge(r.base(), r.done());
                r.ranges().forEach(range -> owner.state().issuedUpTo(range[1]));
            }
        }
        othersLav = lav;
    }

    /** A tid was handed out (under the owner's monitor): the member is not idle. */
    void writerStarted() {
        lastWriterStartNanos = System.nanoTime();
    }

    /**
     * A member that handed out no tid for a while gives up its unissued tids, so they do not hold
     * the cluster's base back — also while it serves readers, which take none: a schema change
     * waits for the base to pass every range another member published ({@link ClusterStatus#highestReservedElsewhere}).
     */
    private void abandonIdleRange() {
        synchronized (owner) {
            if (System.nanoTime() - lastWriterStartNanos >= IDLE_NANOS) {
                abandon();
            }
        }
    }

    /** Gives up every reserved tid not handed out yet; under the owner's monitor. */
    private void abandon() {
        for (long[] r : owner.tidsToAbandon()) {
            for (long t = r[0]; t <= r[1]; t++) {
                owner.state().release(t);
                pending.add(new Pending(t, 0, new CompletableFuture<>()));
            }
        }
        if (!pending.isEmpty()) {
            requestFlush();
        }
    }

    private void settleAsync(Runnable work) {
        if (settling.compareAndSet(false, true)) {
            try {
                settler.execute(() -> {
                    try {
                        work.run();
                    } catch (RuntimeException e) {
                        LOG.warn("commit manager {}: settling failed: {}", incarnation, e.toString());
                    } finally {
                        settling.set(false);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                settling.set(false);
            }
        }
    }

    /** Transaction {@code id} runs for the processing node holding lease {@code owner}. */
    void owned(long id, String owner) {
        settlements.owned(id, owner);
    }

    /** Transaction {@code id} was reported: its owner no longer matters. */
    void forget(long id) {
        settlements.forget(id);
    }

    private void watchLeases() {
        leases.pass(settlements::settled);
        settlements.settleOrphans(leases.live());
    }

    /**
     * Settles what dead members and lost reservations left (on the settler thread, from a
     * snapshot of the background thread's view), and removes dead members' records once
     * nothing of theirs is open and the grace has passed again.
     */
    private void settleDead() {
        Map<Long, MemberRecord> view;
        Map<Long, Long> dead;
        List<Long> open;
        synchronized (owner) {
            view = new HashMap<>(others);
            dead = new HashMap<>(deadSince);
            open = owner.state().notCompleted(owner.state().highestIssued());
        }
        settlements.settleLeftovers(open, view, dead.keySet(), tid -> {
            synchronized (owner) {
                return ranges.stream().anyMatch(r -> tid >= r[0] && tid <= r[1]);
            }
        });
        long now = System.nanoTime();
        for (Map.Entry<Long, Long> d : dead.entrySet()) {
            MemberRecord r = view.get(d.getKey());
            boolean anyOpen = open.stream().anyMatch(r::owns);
            // Its lav hold (readers it started) may go only once every live node has renewed its
            // lease since: the lease then carries those readers' snapshot bases.
            long hold = Math.max(graceNanos, leases.longestLeaseNanos() + TimeUnit.MILLISECONDS.toNanos(2 * LEASE_WATCH_MILLIS));
            if (!anyOpen && now - d.getValue() >= hold) {
                Versioned v = store.get(LocalCommitManager.SYSTEM_DOMAIN, MemberRecord.key(r.incarnation()).key());
                if (v != null && MemberRecord.decode(v.value()).heartbeat() == r.heartbeat()
                        && store.write(WriteOp.delete(LocalCommitManager.SYSTEM_DOMAIN, MemberRecord.key(r.incarnation()).key(),
                        Expect.version(v.version()))).written()) {
                    directory.remove(Long.toString(r.incarnation()));
                    LOG.info("commit manager {} removed the record of dead member {}", incarnation, r.incarnation());
                }
            }
        }
    }

    /** Publishes a last record that gives up the unissued tids (on the background thread, at close). */
    void leave() {
        synchronized (owner) {
            abandon();
            heartbeatDue = true; // the last record, closed, with whatever is still unpublished
        }
        flush();
        settler.shutdownNow();
    }

    /** Fails whatever still waits to be published (the manager closed or crashed). */
    void failPending(TellException e) {
        List<Pending> left;
        List<CompletableFuture<Void>> waiting;
        synchronized (owner) {
            left = pending;
            waiting = claims;
            pending = new ArrayList<>();
            claims = new ArrayList<>();
        }
        left.forEach(p -> p.ack().completeExceptionally(e));
        waiting.forEach(f -> f.completeExceptionally(e));
        settler.shutdownNow();
    }
}
