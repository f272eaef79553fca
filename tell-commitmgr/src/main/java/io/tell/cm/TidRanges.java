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
 * across ranges because every reservation passes the highest tid known reserved as the
 * counter's floor, so a counter that went back in a store fail-over is pushed past it.
 *
 * <p>In a cluster a range is used only once the member's published record names it as its
 * own ({@link ClusterMember#claimRange}), so that the others know whose every tid is. A gap
 * in the counter is never taken to be one's own: a reservation whose answer was lost stays
 * unowned, and the cluster settles it after the grace ({@link ClusterMember}).
 *
 * <p>Not thread-safe on its own: every method runs under the monitor of {@code owner}, which
 * also guards the {@link CommitState} that {@link LocalCommitManager#begin} touches.
 */
final class TidRanges {
    private final LocalCommitManager owner;
    private final RecordStore store;
    private final RecordKey counter;
    private final int rangeSize;
    private final ClusterMember member;
    private final Executor callbacks;
    private long next;
    private long last;
    /** A range fetched ahead of need, or {@code 0, -1} when none. */
    private long prefetchedFirst;
    private long prefetchedLast = -1;
    private boolean reserving;
    /** The highest tid of any range installed so far. */
    private long reservedUpTo;
    /**
     * The first tid of the run of ranges, each following the one before with no tid of anyone
     * else between, that ends with the range in use.
     */
    private long runFrom;
    private final ArrayDeque<CompletableFuture<TxStart>> waiting = new ArrayDeque<>();

    TidRanges(LocalCommitManager owner, RecordStore store, RecordKey counter, int rangeSize, long highestIssued,
              ClusterMember member, Executor callbacks) {
        this.owner = owner;
        this.store = store;
        this.counter = counter;
        this.rangeSize = rangeSize;
        this.member = member;
        this.callbacks = callbacks;
        this.next = highestIssued + 1;
        this.last = highestIssued;
        this.reservedUpTo = highestIssued;
        this.runFrom = highestIssued + 1;
    }

    /**
     * The writers this manager hears now ({@code validating}: those of them that validate): the
     * tids of its run of ranges, including a prefetched range that follows it.
     */
    TxStart.Writers writers(long[] validating) {
        long to = prefetchedLast >= prefetchedFirst && prefetchedFirst == last + 1 ? prefetchedLast : last;
        return new TxStart.Writers(runFrom, next - 1, to, validating);
    }

    /** Starts a read-write transaction now if a tid is at hand, else once a range arrives. */
    CompletableFuture<TxStart> start() {
        if (next > last && prefetchedLast >= prefetchedFirst) {
            use(prefetchedFirst, prefetchedLast);
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

    /**
     * Gives up the tids reserved but not handed out (an idle member would otherwise hold the
     * cluster's base back): returns them as {@code {first, last}} pairs; they are never issued.
     */
    List<long[]> abandonUnissued() {
        List<long[]> out = new ArrayList<>();
        if (next <= last) {
            out.add(new long[] {next, last});
            next = last + 1;
        }
        if (prefetchedLast >= prefetchedFirst) {
            out.add(new long[] {prefetchedFirst, prefetchedLast});
            prefetchedLast = -1;
        }
        return out;
    }

    private void reserve() {
        if (reserving) {
            return;
        }
        reserving = true;
        // Completed on the manager's background thread, never on the store's I/O thread, so
        // that callers' callbacks cannot stall the store client.
        // The floor: a counter that went back (a store fail-over lost increments) is pushed past
        // every tid known reserved, in this member or (published) in any other, so no tid is
        // ever handed out twice.
        long floor = Math.max(reservedUpTo, owner.state().highestIssued());
        store.incrementAsync(counter, rangeSize, floor).whenCompleteAsync(this::reserved, callbacks);
    }

    private void reserved(Long end, Throwable failure) {
        if (failure != null) {
            failWaiting(failure);
            return;
        }
        long first = end - rangeSize + 1;
        if (member == null) {
            install(first, end);
            return;
        }
        member.claimRange(first, end).whenComplete((ok, claimFailure) -> {
            if (claimFailure != null) {
                failWaiting(claimFailure);
            } else {
                install(first, end);
            }
        });
    }

    private void install(long first, long end) {
        List<Runnable> completions = new ArrayList<>();
        synchronized (owner) {
            reserving = false;
            if (owner.isClosed()) {
                return;
            }
            if (member == null && first > reservedUpTo + 1) {
                // Alone on the counter (embedded), a gap can only be a reservation of ours whose
                // answer was lost: nobody will use those tids, so they must not hold the base back.
                owner.state().skip(reservedUpTo + 1, first - 1);
            }
            reservedUpTo = Math.max(reservedUpTo, end);
            if (member != null) {
                owner.state().issuedUpTo(end); // published as ours: reports of them are expected
            }
            if (next <= last) {
                prefetchedFirst = first;
                prefetchedLast = end;
            } else {
                use(first, end);
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
        completions.forEach(Runnable::run);
    }

    /** Hands out {@code [first, end]} from now on. */
    private void use(long first, long end) {
        if (first != last + 1) {
            runFrom = first; // tids of others (or lost ones) lie between: a new run
        }
        next = first;
        last = end;
    }

    private void failWaiting(Throwable failure) {
        List<CompletableFuture<TxStart>> failed;
        synchronized (owner) {
            reserving = false;
            failed = new ArrayList<>(waiting);
            waiting.clear();
        }
        TellException e = TellException.of(ErrorCode.CM_UNAVAILABLE,
                "cannot reserve tids: " + TellException.unwrap(failure).getMessage(), failure);
        failed.forEach(f -> f.completeExceptionally(e));
    }

    /** Removes and returns the starts still waiting (the owner is closing). */
    List<CompletableFuture<TxStart>> drainWaiting() {
        List<CompletableFuture<TxStart>> out = new ArrayList<>(waiting);
        waiting.clear();
        return out;
    }
}
