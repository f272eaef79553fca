package io.tell.server.pool;

import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordStore;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import io.tell.txn.Directory;
import java.time.Duration;
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
 */
public final class PoolMembership implements AutoCloseable {
    /** How often a member rewrites its record. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(PoolMembership.class);

    private final RecordStore store;
    private final String id;
    private final IntSupplier sessions;
    private final LongSupplier statements;
    private final ScheduledExecutorService timer;
    private PoolMember record; // the heartbeat thread's, after the constructor
    private long version;
    private long lastStatements;
    private long lastNanos;
    private volatile boolean closed;

    private PoolMembership(RecordStore store, PoolMember first, IntSupplier sessions, LongSupplier statements, Duration period) {
        this.store = store;
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
        if (pool == null || pool.isEmpty() || pool.length() > 200) {
            throw new IllegalArgumentException("a pool name has 1 to 200 characters: '" + pool + "'");
        }
        long now = System.currentTimeMillis();
        PoolMember first = new PoolMember(pool, host, port, metricsPort, ProcessHandle.current().pid(), now, now, 1,
                sessions.getAsInt(), 0);
        return new PoolMembership(store, first, sessions, statements, period);
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
