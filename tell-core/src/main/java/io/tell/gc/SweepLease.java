package io.tell.gc;

import io.tell.error.TellException;

import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The cluster-wide sweeper lease: one record, {@code tell.sys/gc.lease} (holder id and lease
 * length), taken and renewed with conditional writes. Every renewal gives the record a new
 * version, so "expired" needs no synchronized clocks: a process that sees the <i>same</i>
 * version for a whole lease length (by its own clock, counted from after its read, i.e. after
 * the write) takes the lease over, conditional on that version. The holder counts its lease from
 * before its write, so its own deadline always falls before anyone else may take over.
 *
 * <p>The lease keeps sweepers from doing the same work twice; it is not what makes sweeping
 * safe — every delete is conditional on the version the sweeper read and justified by lav.
 */
final class SweepLease {
    static final RecordKey KEY = new RecordKey("tell.sys", "gc.lease".getBytes(StandardCharsets.UTF_8));

    private final RecordStore store;
    private final String holder;
    private final long durationNanos;
    private final LongSupplier nanoClock;
    private long heldVersion;
    private long validUntil;
    private long seenVersion;
    private long seenAt;
    private long acquisitions;
    private volatile boolean stopped;

    SweepLease(RecordStore store, String holder, Duration duration, LongSupplier nanoClock) {
        this.store = store;
        this.holder = holder;
        this.durationNanos = duration.toNanos();
        this.nanoClock = nanoClock;
    }

    /** Takes or renews the lease (one read and at most one write); true when this process holds it now. */
    synchronized boolean acquire() {
        if (stopped) {
            return false;
        }
        long before = nanoClock.getAsLong();
        Versioned current = store.get(KEY.domain(), KEY.key());
        Expect expect;
        if (current == null) {
            expect = Expect.ABSENT;
        } else if (heldVersion != 0 && current.version() == heldVersion) {
            expect = Expect.version(heldVersion);
        } else {
            heldVersion = 0; // someone else wrote the record: whatever we held is gone
            long now = nanoClock.getAsLong();
            if (current.version() != seenVersion) {
                seenVersion = current.version();
                seenAt = now;
                return false;
            }
            if (now - seenAt < durationOf(current.value())) {
                return false;
            }
            expect = Expect.version(current.version());
        }
        boolean renewal = heldVersion != 0;
        WriteResult r = store.write(new WriteOp(KEY, encode(), expect));
        if (!r.written()) {
            heldVersion = 0;
            return false;
        }
        heldVersion = r.version();
        validUntil = before + durationNanos;
        if (!renewal) {
            acquisitions++;
        }
        return true;
    }

    /** True while the lease is held and not past its deadline by this process's clock. */
    synchronized boolean held() {
        return !stopped && heldVersion != 0 && nanoClock.getAsLong() - validUntil < 0;
    }

    /** True when a third of the lease has passed since the last renewal. */
    synchronized boolean dueForRenewal() {
        return heldVersion == 0 || validUntil - nanoClock.getAsLong() < durationNanos * 2 / 3;
    }

    synchronized long acquisitions() {
        return acquisitions;
    }

    /** From now on this process neither takes nor renews the lease; a pass under way stops at its next check. */
    void stop() {
        stopped = true;
    }

    /** Gives the lease up at once (conditional on our version), so another process need not wait it out. */
    synchronized void release() {
        if (heldVersion != 0) {
            try {
                store.write(WriteOp.delete(KEY.domain(), KEY.key(), Expect.version(heldVersion)));
            } catch (RuntimeException e) {
                // Unreleased, the lease simply runs out.
            }
            heldVersion = 0;
        }
    }

    private byte[] encode() {
        byte[] name = holder.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + name.length).putLong(durationNanos).put(name).array();
    }

    /** The holder's own lease length: processes need not agree on it. */
    private long durationOf(byte[] value) {
        return value.length >= 8 ? ByteBuffer.wrap(value).getLong() : durationNanos;
    }

    /** Who holds (or last held) the sweeper lease in {@code store}, or null when nobody took it yet. */
    static String holder(RecordStore store) {
        io.tell.store.Versioned v = TellException.join(store.getAsync(KEY));
        return v == null ? null : holderOf(v.value());
    }

    /** The holder named in a lease record (for tests and tools). */
    static String holderOf(byte[] value) {
        return new String(value, 8, value.length - 8, StandardCharsets.UTF_8);
    }
}
