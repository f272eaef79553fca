package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A processing node's lease (architecture §6): a record {@code pn.<id>} in the system domain
 * that the node rewrites (heartbeat) every {@value #RENEW_MILLIS} ms (every quarter of a lease
 * time shorter than four times that), carrying the lowest snapshot base of its running
 * transactions so that {@code lav} never passes them. Commit
 * managers watch these records; one whose heartbeat has not changed for the lease time (by
 * the watcher's own clock) is expired, and exactly one recovery claims it by a conditional
 * write and takes over the node's transactions ({@link TxLog}).
 *
 * <p>The node holds its lease until {@code validUntil}: the time it <i>sent</i> its last
 * successful renewal plus the lease time less a margin, by its own clock. A watcher starts
 * counting only when it sees a heartbeat change, which is after it was sent, so (clock rates
 * being alike) the node stops trusting its lease before any watcher may recover it. A node
 * that lost its lease — expired, or its record taken by a recovery — registers anew under a
 * fresh id; the transactions it began under the old one fail with {@link ErrorCode#TX_FENCED}.
 *
 * <p>Value: state (1 byte: 0 live, 1 being recovered), lease millis (4 bytes), heartbeat
 * sequence (8), lowest running base (8, {@link Long#MAX_VALUE} when none); big-endian.
 */
public final class NodeLease implements AutoCloseable {
    public static final String DOMAIN = "tell.sys";
    public static final String KEY_PREFIX = "pn.";
    public static final long RENEW_MILLIS = 50;
    private static final Logger LOG = LoggerFactory.getLogger(NodeLease.class);

    /** A lease record as stored. */
    public record Record(boolean recovering, int leaseMillis, long heartbeat, long lowestBase) {
        public byte[] encode() {
            return ByteBuffer.allocate(21).put((byte) (recovering ? 1 : 0)).putInt(leaseMillis)
                    .putLong(heartbeat).putLong(lowestBase).array();
        }

        public static Record decode(byte[] bytes) {
            if (bytes.length != 21) {
                throw TellException.of(ErrorCode.CORRUPT_DATA, "bad lease record of " + bytes.length + " bytes");
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            return new Record(b.get() == 1, b.getInt(), b.getLong(), b.getLong());
        }
    }

    /** One registration: the id written into log entries, and until when it may be trusted. */
    private record Holding(String id, long epoch, long version, long heartbeat, long validUntilNanos) {
    }

    private final RecordStore store;
    private final String nodeId;
    private final Duration leaseTime;
    private final LongSupplier lowestBase;
    private final ScheduledFuture<?> renewals;
    private volatile Holding holding;
    private volatile boolean closed;
    /** Held by a renewal, and by a leave while it stops them: one never runs into the other. */
    private final Object renewing = new Object();

    private NodeLease(RecordStore store, String nodeId, Duration leaseTime, LongSupplier lowestBase,
                      ScheduledExecutorService timer) {
        this.store = store;
        this.nodeId = nodeId;
        this.leaseTime = leaseTime;
        this.lowestBase = lowestBase;
        this.holding = register(0);
        // Often, not only often enough to stay alive: lav lags the leases' bases by this period,
        // and every record keeps the versions written since lav (a hot row several hundred).
        long period = Math.max(1, Math.min(RENEW_MILLIS, leaseTime.toMillis() / 4));
        this.renewals = timer.scheduleWithFixedDelay(this::renewQuietly, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Registers a lease for {@code nodeId} and keeps it renewed on {@code timer}. Blocks on
     * one store write; throws when the store cannot be reached.
     */
    public static NodeLease acquire(RecordStore store, String nodeId, Duration leaseTime, LongSupplier lowestBase,
                                    ScheduledExecutorService timer) {
        if (leaseTime.toMillis() < 40) {
            throw new IllegalArgumentException("lease time must be at least 40 ms: " + leaseTime);
        }
        return new NodeLease(store, nodeId, leaseTime, lowestBase, timer);
    }

    public static RecordKey key(String id) {
        return new RecordKey(DOMAIN, (KEY_PREFIX + id).getBytes(StandardCharsets.UTF_8));
    }

    /** The directory of lease ids (a lease is listed before its record is written). */
    public static Directory directory(RecordStore store) {
        return new Directory(store, DOMAIN, "pn");
    }

    /** The ids and records of every lease in the store (the watchers' view). */
    public static List<Leased> all(RecordStore store) {
        List<String> ids = new ArrayList<>(directory(store).read());
        List<RecordKey> keys = new ArrayList<>(ids.size());
        for (String id : ids) {
            keys.add(key(id));
        }
        List<io.tell.store.Versioned> records = store.getAll(keys);
        List<Leased> out = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            io.tell.store.Versioned v = records.get(i);
            out.add(v == null ? new Leased(ids.get(i), 0, null) : new Leased(ids.get(i), v.version(), Record.decode(v.value())));
        }
        return out;
    }

    /** Whether {@code id} holds a lease that is not being recovered (expiry aside). */
    public static boolean held(RecordStore store, String id) {
        io.tell.store.Versioned v = store.get(DOMAIN, key(id).key());
        return v != null && !Record.decode(v.value()).recovering();
    }

    /** A lease as a watcher reads it; {@code record} is null when the directory lists an id without one. */
    public record Leased(String id, long version, Record record) {
    }

    /** A registration: the lease id and its epoch, read together. */
    public record Registration(String id, long epoch) {
    }

    /** The registration transactions begun now belong to. */
    public Registration registration() {
        Holding h = holding;
        return new Registration(h.id(), h.epoch());
    }

    /** The id transactions begun now log under. */
    public String id() {
        return holding.id();
    }

    /** Identifies the registration transactions begun now belong to. */
    public long epoch() {
        return holding.epoch();
    }

    /** Throws {@link ErrorCode#TX_FENCED} unless registration {@code epoch} is current and not expired. */
    public void check(long epoch) {
        Holding h = holding;
        if (h.epoch() != epoch) {
            throw fenced("its processing node's lease was lost and taken over");
        }
        if (System.nanoTime() - h.validUntilNanos() > 0) {
            throw fenced("its processing node's lease has expired (no renewal for " + leaseTime.toMillis() + " ms)");
        }
    }

    private static TellException fenced(String why) {
        return TellException.of(ErrorCode.TX_FENCED, "transaction aborted: " + why);
    }

    private Holding register(long epoch) {
        String id = nodeId + "." + Long.toHexString(System.nanoTime() & 0xffffffffL) + epoch;
        long sent = System.nanoTime();
        Record r = new Record(false, (int) leaseTime.toMillis(), 1, lowestBase.getAsLong());
        directory(store).add(id);
        WriteResult w = store.write(new WriteOp(key(id), r.encode(), Expect.ABSENT));
        if (!w.written()) {
            throw TellException.of(ErrorCode.INTERNAL, "lease id " + id + " already in use");
        }
        return new Holding(id, epoch, w.version(), 1, validUntil(sent));
    }

    private long validUntil(long sentNanos) {
        long millis = leaseTime.toMillis();
        return sentNanos + TimeUnit.MILLISECONDS.toNanos(millis - millis / 4);
    }

    private void renewQuietly() {
        try {
            renew();
        } catch (RuntimeException e) {
            LOG.warn("lease renewal of {} failed: {}", holding.id(), e.toString());
        }
    }

    /** One heartbeat; public for tests that drive renewals by hand. */
    public void renew() {
        synchronized (renewing) {
            if (closed) {
                return;
            }
            Holding h = holding;
            long sent = System.nanoTime();
            Record next = new Record(false, (int) leaseTime.toMillis(), h.heartbeat() + 1, lowestBase.getAsLong());
            WriteResult w = store.write(new WriteOp(key(h.id()), next.encode(), Expect.version(h.version())));
            if (w.written() && sent - h.validUntilNanos() < 0) {
                holding = new Holding(h.id(), h.epoch(), w.version(), next.heartbeat(), validUntil(sent));
                return;
            }
            // Taken by a recovery, or renewed too late to be trusted: the old registration is left
            // to expire and be recovered (its transactions reverted and reported by a watcher);
            // later transactions run under a fresh one.
            LOG.warn("processing node {} lost its lease {}; registering anew", nodeId, h.id());
            holding = register(h.epoch() + 1);
        }
    }

    /**
     * Stops renewing and removes the lease (a clean leave: nothing is left to recover). A
     * renewal under way is waited for, so that the registration removed is the one it left (else
     * it could find the lease gone and register anew after the leave).
     */
    @Override
    public void close() {
        Holding h;
        synchronized (renewing) {
            closed = true;
            renewals.cancel(false);
            h = holding;
        }
        try {
            remove(store, h.id(), h.version());
        } catch (RuntimeException e) {
            LOG.debug("lease {} not removed on close: {}", h.id(), e.toString());
        }
    }

    /**
     * Removes lease {@code id} (at {@code version}) and its directory entry: a clean leave, or
     * the end of its recovery. Its log entries left, if any, belong to completed tids.
     */
    public static void remove(RecordStore store, String id, long version) {
        if (store.write(WriteOp.delete(DOMAIN, key(id).key(), Expect.version(version))).written()) {
            directory(store).remove(id);
        }
    }

    /** Stops renewing without removing the record, as a crash would (for tests). */
    public void abandon() {
        synchronized (renewing) {
            closed = true;
            renewals.cancel(false);
        }
    }
}
