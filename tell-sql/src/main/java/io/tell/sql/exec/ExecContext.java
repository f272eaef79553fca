package io.tell.sql.exec;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.Transaction;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.Map;

/**
 * What one execution of a plan runs with: the transaction, the bound parameter values (already
 * coerced to their inferred types), the statement's start time (CURRENT_DATE and
 * CURRENT_TIMESTAMP are constant within a statement), rows bound to correlation variables, the
 * node's sequences, and cancellation. One per execution (and one per part of a parallel
 * execution, {@link #forPart}); not thread-safe.
 */
public final class ExecContext {
    private final Transaction transaction;
    private final Object[] params;
    private LocalDateTime statementTime;
    private final Map<Integer, Object[]> correlated;
    private final Map<Object, java.util.concurrent.CompletableFuture<java.util.List<Object[]>>> spools;
    private final long deadlineNanos;
    /** The context of the whole execution: this one, or the one a part was made from. */
    private final ExecContext whole;
    /** Set on the context of one part of a parallel execution ({@link #forPart}). */
    private final Part part;
    private long targetRid;
    private volatile boolean cancelled;
    private boolean checkAtStatement;
    private Workers workers;
    private SequenceSource sequences = new SequenceSource() {
        @Override
        public long next(String name) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "sequences are not available here");
        }

        @Override
        public long current(String name) {
            return next(name);
        }
    };

    /** Where NEXT VALUE FOR / nextval() and CURRENT VALUE FOR / currval() get their values. */
    public interface SequenceSource {
        /** The next value of the sequence named {@code name} (as the catalog spells it). */
        long next(String name);

        /** The value {@link #next} last gave this session for {@code name}; OBJECT_NOT_IN_STATE before that. */
        long current(String name);
    }

    /** With {@code statementTime} null, the time is read when the statement first asks for it. */
    public ExecContext(Transaction transaction, Object[] params, LocalDateTime statementTime, long timeoutMillis) {
        this.transaction = transaction;
        this.params = params;
        this.statementTime = statementTime;
        this.deadlineNanos = timeoutMillis <= 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutMillis * 1_000_000L;
        this.correlated = new HashMap<>();
        this.spools = new java.util.concurrent.ConcurrentHashMap<>();
        this.whole = this;
        this.part = null;
    }

    private ExecContext(ExecContext from, Transaction reader, Part part) {
        this.transaction = reader;
        this.params = from.params;
        this.statementTime = from.statementTime();
        this.deadlineNanos = from.deadlineNanos;
        this.correlated = new HashMap<>(from.correlated);
        this.spools = from.spools;
        this.whole = from.whole;
        this.part = part;
        this.sequences = from.sequences;
    }

    /**
     * One part of a parallel execution ({@link PartedRun}): the rows of {@code range} of the scan
     * that drives it. The part reads through {@code reader} (a reader of this execution's
     * snapshot, {@link Transaction#readInParallel}), sees the parameters, statement time and
     * correlation variables bound so far, shares this execution's spooled subplans, and stops
     * when it is cancelled or times out. Runs on its own thread; nothing in it runs in parallel again.
     */
    public ExecContext forPart(Transaction reader, PartedRun run, io.tell.index.ScanRange range) {
        return new ExecContext(this, reader, new Part(run, range));
    }

    private record Part(PartedRun run, io.tell.index.ScanRange range) {
    }

    /** The key range {@code scan} reads when it drives the part this context runs; null for the whole table. */
    public io.tell.index.ScanRange rangeOf(Object scan) {
        return part != null && part.run().drivenBy(scan) ? part.range() : null;
    }

    /**
     * {@code compute}'s value: in a part of a parallel execution whose parts all need the same
     * value of {@code key} (a hash join's table on their path), the one computed for all of them
     * before they started; elsewhere computed at each call.
     */
    public <T> T sharedByParts(Object key, java.util.function.Supplier<T> compute) {
        return part == null ? compute.get() : part.run().shared(key, compute);
    }

    public Transaction transaction() {
        return transaction;
    }

    /** The value of parameter {@code index} (0-based). */
    public Object param(int index) {
        return params[index];
    }

    public LocalDateTime statementTime() {
        if (statementTime == null) {
            statementTime = LocalDateTime.now();
        }
        return statementTime;
    }

    /** The row currently bound to correlation variable {@code id} ({@code $cor<id>}). */
    public Object[] correlated(int id) {
        Object[] row = correlated.get(id);
        if (row == null) {
            throw TellException.of(ErrorCode.INTERNAL, "correlation variable $cor" + id + " is not bound");
        }
        return row;
    }

    /**
     * The rows of the shared subplan {@code key} in this execution: computed by {@code rows} at
     * the first call, the same list after (the subplan reads no correlation variable, so every
     * opening would give the same rows).
     */
    public java.util.List<Object[]> spooled(Object key, java.util.function.Supplier<java.util.List<Object[]>> rows) {
        // The parts of a parallel execution share them: one computes, the others wait for its
        // rows. No lock is held while computing (a subplan may run in parts whose own parts
        // open other spooled subplans).
        java.util.concurrent.CompletableFuture<java.util.List<Object[]>> mine = new java.util.concurrent.CompletableFuture<>();
        java.util.concurrent.CompletableFuture<java.util.List<Object[]>> first = spools.putIfAbsent(key, mine);
        if (first != null) {
            return joined(first);
        }
        try {
            mine.complete(rows.get());
        } catch (RuntimeException | Error e) {
            spools.remove(key, mine); // a later opening tries again, as it would run again unspooled
            mine.completeExceptionally(e);
            throw e;
        }
        return joined(mine);
    }

    private static <T> T joined(java.util.concurrent.CompletableFuture<T> f) {
        try {
            return f.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    public void bind(int id, Object[] row) {
        correlated.put(id, row);
    }

    /** The rid of the row of the DML target table that the scan below the modification emitted last. */
    public long targetRid() {
        return targetRid;
    }

    public void setTargetRid(long rid) {
        targetRid = rid;
    }

    /**
     * Data modifications check for conflicts when they run (newer versions of the rows they
     * change, unique keys already held) instead of leaving it to the commit.
     */
    public void checkAtStatement(boolean on) {
        checkAtStatement = on;
    }

    public boolean checksAtStatement() {
        return checkAtStatement;
    }

    public void useSequences(SequenceSource source) {
        sequences = source;
    }

    /** The next value of sequence {@code name}; UNDEFINED_OBJECT when there is none. */
    public long nextValue(String name) {
        return sequences.next(name);
    }

    /** The value this session's last {@link #nextValue} of sequence {@code name} gave. */
    public long currentValue(String name) {
        return sequences.current(name);
    }

    /**
     * Threads for intra-query parallelism: scans of large tables, and aggregates over them, run
     * on up to {@code degree} of them at once ({@link io.tell.txn.Transaction#readInParallel}).
     * Without, everything runs on the caller's thread. {@code scans} counts the scans that ran in
     * parts on their own, {@code subplans} the subplans that did ({@code PartedInput}).
     */
    public record Workers(java.util.concurrent.Executor executor, int degree, java.util.concurrent.atomic.LongAdder scans,
                          java.util.concurrent.atomic.LongAdder subplans) {
        public Workers(java.util.concurrent.Executor executor, int degree) {
            this(executor, degree, new java.util.concurrent.atomic.LongAdder(), new java.util.concurrent.atomic.LongAdder());
        }
    }

    public void useWorkers(Workers workers) {
        this.workers = workers;
    }

    /** The threads this execution may spread its scans over; null for none (and in a part of a parallel execution). */
    public Workers workers() {
        return part == null ? workers : null;
    }

    public void cancel() {
        whole.cancelled = true;
    }

    /** Throws when the statement was cancelled or ran past its timeout; operators call it per row or batch. */
    public void check() {
        if (part != null) {
            part.run().check();
        }
        if (whole.cancelled) {
            throw TellException.of(ErrorCode.CANCELLED, "statement cancelled");
        }
        if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() > deadlineNanos) {
            throw TellException.of(ErrorCode.TIMEOUT, "statement timed out");
        }
    }
}
