package io.tell.server.pool;

import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import io.tell.txn.Directory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PN server's place in its pool (issue 12, item 3): a {@link PoolMember} record written at
 * start, rewritten every {@code period} by a daemon thread with the server's load, and deleted
 * on {@link #close}. A server that dies without closing leaves its record, which readers see as
 * stale once its heartbeat stops changing ({@link Pools}). A record that vanished or was
 * changed by someone else is written anew, so a server never silently drops out of its pool.
 *
 * <p>Members also clean up after dead ones: every few heartbeats a member reads the other
 * records, and one whose heartbeat count has not changed for {@code pruneAfter} by this
 * member's clock is deleted, conditionally on the version it was seen at (so a record rewritten
 * meanwhile stays). A server that was only paused that long writes its record anew on its next
 * heartbeat.
 */
public final class PoolMembership implements AutoCloseable {
    /** How often a member rewrites its record. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
    /** How long a record may stay unchanged before members remove it as its server's leftover. */
    public static final Duration DEFAULT_PRUNE_AFTER = Duration.ofMinutes(1);
    private static final int PRUNE_EVERY_BEATS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(PoolMembership.class);

    private final RecordStore store;
    private final String id;
    private final IntSupplier sessions;
    private final LongSupplier statements;
    private final ScheduledExecutorService timer;
    private final long pruneAfterNanos;
    /** The other members' records as last seen: heartbeat count, version, when first seen at that count. */
    private final Map<String, long[]> watched = new HashMap<>();
    private int beats;
    private PoolMember record; // the heartbeat thread's, after the constructor
    private long version;
    private long lastStatements;
    private long lastNanos;
    private volatile boolean closed;

    private PoolMembership(RecordStore store, PoolMember first, IntSupplier sessions, LongSupplier statements, Duration period,
                           Duration pruneAfter) {
        this.store = store;
        this.pruneAfterNanos = pruneAfter.toNanos();
        this.id = first.pool() + "@" + first.address() + "." + Long.toHexString(first.startMillis());
        this.sessions = sessions;
        this.statements = statements;
        this.record = first;
        this.lastStatements = statements.getAsLong();
        this.lastNanos = System.nanoTime();
        directory(store).add(id);
        this.version = insert(first);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tell-pool-heartbeat");
            t.setDaemon(true);
            return t;
        });
        long ms = period.toMillis();
        timer.scheduleWithFixedDelay(this::heartbeatQuietly, ms, ms, TimeUnit.MILLISECONDS);
    }

    /**
     * Registers the server at {@code host:port} in {@code pool} and keeps its record fresh every
     * {@code period}; {@code sessions} and {@code statements} (a running count) give its load.
     * Blocks on two store writes; throws when the store cannot be reached.
     */
    public static PoolMembership join(RecordStore store, String pool, String host, int port, int metricsPort, IntSupplier sessions,
                                      LongSupplier statements, Duration period) {
        return join(store, pool, host, port, metricsPort, sessions, statements, period, DEFAULT_PRUNE_AFTER);
    }

    /**
     * As {@link #join(RecordStore, String, String, int, int, IntSupplier, LongSupplier, Duration)},
     * removing other members' records left unchanged for {@code pruneAfter}.
     */
    public static PoolMembership join(RecordStore store, String pool, String host, int port, int metricsPort, IntSupplier sessions,
                                      LongSupplier statements, Duration period, Duration pruneAfter) {
        if (pool == null || pool.isEmpty() || pool.length() > 200) {
            throw new IllegalArgumentException("a pool name has 1 to 200 characters: '" + pool + "'");
        }
        long now = System.currentTimeMillis();
        PoolMember first = new PoolMember(pool, host, port, metricsPort, ProcessHandle.current().pid(), now, now, 1,
                sessions.getAsInt(), 0);
        return new PoolMembership(store, first, sessions, statements, period, pruneAfter);
    }

    static Directory directory(RecordStore store) {
        return new Directory(store, PoolMember.DOMAIN, "pool");
    }

    /** The record's id (after {@value PoolMember#KEY_PREFIX} in its key). */
    public String id() {
        return id;
    }

    private long insert(PoolMember m) {
        WriteResult w = store.write(new WriteOp(PoolMember.key(id), m.encode(), Expect.ABSENT));
        if (!w.written()) {
            throw new IllegalStateException("pool member record " + id + " already exists");
        }
        return w.version();
    }

    private void heartbeatQuietly() {
        try {
            heartbeat();
        } catch (RuntimeException e) {
            LOG.warn("pool heartbeat of {} failed: {}", id, e.toString());
        }
    }

    /** One heartbeat; package-private for tests that drive it by hand. */
    synchronized void heartbeat() {
        if (closed) {
            return;
        }
        long now = System.nanoTime();
        long count = statements.getAsLong();
        double perSecond = (count - lastStatements) * 1e9 / Math.max(1, now - lastNanos);
        lastStatements = count;
        lastNanos = now;
        PoolMember next = record.next(System.currentTimeMillis(), sessions.getAsInt(), perSecond);
        WriteResult w = store.write(new WriteOp(PoolMember.key(id), next.encode(), Expect.version(version)));
        if (!w.written()) {
            // Removed (or overwritten) behind our back: take the place again.
            LOG.warn("pool member record {} was changed by someone else; writing it anew", id);
            directory(store).add(id);
            w = store.write(new WriteOp(PoolMember.key(id), next.encode(), Expect.ANY));
        }
        record = next;
        version = w.version();
        if (++beats % PRUNE_EVERY_BEATS == 0) {
            pruneStale();
        }
    }

    /** Removes the records of other members that have not beaten for {@code pruneAfter}, by this member's clock. */
    private void pruneStale() {
        List<String> ids = new ArrayList<>(directory(store).read());
        ids.remove(id);
        watched.keySet().retainAll(ids);
        if (ids.isEmpty()) {
            return;
        }
        List<Versioned> records = store.getAll(ids.stream().map(PoolMember::key).toList());
        long now = System.nanoTime();
        for (int i = 0; i < ids.size(); i++) {
            Versioned v = records.get(i);
            if (v == null) {
                continue; // listed before its record is written, or being removed
            }
            long heartbeat = PoolMember.decode(v.value()).heartbeat();
            long[] seen = watched.get(ids.get(i));
            if (seen == null || seen[0] != heartbeat || seen[1] != v.version()) {
                watched.put(ids.get(i), new long[] {heartbeat, v.version(), now});
            } else if (now - seen[2] > pruneAfterNanos) {
                if (store.write(WriteOp.delete(PoolMember.DOMAIN, PoolMember.key(ids.get(i)).key(), Expect.version(v.version())))
                        .written()) {
                    directory(store).remove(ids.get(i));
                    LOG.info("removed pool member record {}: no heartbeat for {} ms", ids.get(i), pruneAfterNanos / 1_000_000);
                }
                watched.remove(ids.get(i));
            }
        }
    }

    /** Stops the heartbeat and leaves the pool: the record and its directory entry are removed. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        timer.shutdownNow();
        try {
            store.write(WriteOp.delete(PoolMember.DOMAIN, PoolMember.key(id).key(), Expect.ANY));
            directory(store).remove(id);
        } catch (TellException e) {
            LOG.warn("pool member record {} not removed on close: {}", id, e.toString());
        }
    }

    /** Stops the heartbeat and leaves the record behind, as a crash would (for tests). */
    void abandon() {
        closed = true;
        timer.shutdownNow();
    }
}
