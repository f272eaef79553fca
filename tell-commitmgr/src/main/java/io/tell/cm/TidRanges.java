package io.tell.cm;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.txn.TxStart;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Hands out tids from ranges reserved on the store's tid counter without ever waiting for the
 * store: the next range is fetched asynchronously once half of the current one is used, and
 * a start that finds no tid left waits (as a future) for the range in flight. Tids increase
 * across ranges because every reservation passes the highest tid reserved so far as the
 * counter's floor (the journaled one after a restart), so a counter that went back in a store
 * fail-over is pushed past it; what it lost in between is skipped like a lost answer.
 *
 * <p>Not thread-safe on its own: every method runs under the monitor of {@code owner}, which
 * also guards the {@link CommitState} that {@link LocalCommitManager#begin} touches.
 */
final class TidRanges {
    private final LocalCommitManager owner;
    private final RecordStore store;
    private final RecordKey counter;
    private final int rangeSize;
    private final Executor callbacks;
    private long next;
    private long last;
    /** A range fetched ahead of need, or {@code 0, -1} when none. */
    private long prefetchedFirst;
    private long prefetchedLast = -1;
    /** The highest tid of any range reserved so far. */
    private long reservedUpTo;
    private boolean reserving;
    private final ArrayDeque<CompletableFuture<TxStart>> waiting = new ArrayDeque<>();

    TidRanges(LocalCommitManager owner, RecordStore store, RecordKey counter, int rangeSize, long highestIssued,
              Executor callbacks) {
        this.owner = owner;
        this.store = store;
        this.counter = counter;
        this.rangeSize = rangeSize;
        this.callbacks = callbacks;
        this.next = highestIssued + 1;
        this.last = highestIssued;
        this.reservedUpTo = highestIssued;
    }

    /** Starts a read-write transaction now if a tid is at hand, else once a range arrives. */
    CompletableFuture<TxStart> start() {
        if (next > last && prefetchedLast >= prefetchedFirst) {
            next = prefetchedFirst;
            last = prefetchedLast;
            prefetchedLast = -1;
        }
        if (next <= last) {
            TxStart started = owner.begin(next++);
            if (last - next + 1 < (rangeSize + 1) / 2 && prefetchedLast < 0) {
                reserve();
            }
            return CompletableFuture.completedFuture(started);
        }
        CompletableFuture<TxStart> f = new CompletableFuture<>();
        waiting.add(f);
        reserve();
        return f;
    }

    private void reserve() {
        if (reserving) {
            return;
        }
        reserving = true;
        // The floor: a counter that went back (a store fail-over lost increments) is pushed
        // past every tid reserved so far, so no tid is ever handed out twice.
        // Completed on the journal thread, never on the store's I/O thread, so that callers'
        // callbacks cannot stall the store client.
        store.incrementAsync(counter, rangeSize, reservedUpTo).whenCompleteAsync(this::journalThenReserved, callbacks);
    }

    /** A durable owner journals the range's end before any tid of it is handed out. */
    private void journalThenReserved(Long end, Throwable failure) {
        if (failure == null) {
            try {
                owner.journalReserved(end);
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        reserved(end, failure);
    }

    private void reserved(Long end, Throwable failure) {
        List<CompletableFuture<TxStart>> failed = new ArrayList<>();
        List<Runnable> completions = new ArrayList<>();
        synchronized (owner) {
            reserving = false;
            if (owner.isClosed()) {
                return;
            }
            if (failure != null) {
                failed.addAll(waiting);
                waiting.clear();
            } else {
                long first = Math.max(end - rangeSize + 1, next);
                if (first > reservedUpTo + 1) {
                    // A reservation whose answer was lost (a store timeout) still took its
                    // range: nobody will use those tids, so they must not hold the base back.
                    owner.skip(reservedUpTo + 1, first - 1);
                }
                reservedUpTo = Math.max(reservedUpTo, end);
                if (next <= last) {
                    prefetchedFirst = first;
                    prefetchedLast = end;
                } else {
                    next = first;
                    last = end;
                }
                while (!waiting.isEmpty() && next <= last) {
                    CompletableFuture<TxStart> f = waiting.poll();
                    TxStart started = owner.begin(next++);
                    completions.add(() -> f.complete(started));
                }
                if (!waiting.isEmpty()) {
                    reserve();
                }
            }
        }
        completions.forEach(Runnable::run);
        if (!failed.isEmpty()) {
            TellException e = TellException.of(ErrorCode.CM_UNAVAILABLE,
                    "cannot reserve tids: " + TellException.unwrap(failure).getMessage(), failure);
            failed.forEach(f -> f.completeExceptionally(e));
        }
    }

    /** Removes and returns the starts still waiting (the owner is closing). */
    List<CompletableFuture<TxStart>> drainWaiting() {
        List<CompletableFuture<TxStart>> out = new ArrayList<>(waiting);
        waiting.clear();
        return out;
    }
}
