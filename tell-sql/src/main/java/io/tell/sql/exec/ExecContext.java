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
 * node's sequences, and cancellation. One per execution; not thread-safe.
 */
public final class ExecContext {
    private final Transaction transaction;
    private final Object[] params;
    private LocalDateTime statementTime;
    private final Map<Integer, Object[]> correlated = new HashMap<>();
    private final Map<Object, java.util.List<Object[]>> spools = new HashMap<>();
    private final long deadlineNanos;
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
    public synchronized java.util.List<Object[]> spooled(Object key, java.util.function.Supplier<java.util.List<Object[]>> rows) {
        java.util.List<Object[]> kept = spools.get(key);
        if (kept == null) {
            kept = rows.get();
            spools.put(key, kept);
        }
        return kept;
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
     * Threads for intra-query parallelism: scans of large tables run on up to {@code degree} of
     * them at once ({@link io.tell.txn.Transaction#readInParallel}). Without, everything runs on
     * the caller's thread.
     */
    public record Workers(java.util.concurrent.Executor executor, int degree) {
    }

    public void useWorkers(Workers workers) {
        this.workers = workers;
    }

    /** The threads this execution may spread its scans over; null for none. */
    public Workers workers() {
        return workers;
    }

    public void cancel() {
        cancelled = true;
    }

    /** Throws when the statement was cancelled or ran past its timeout; operators call it per row or batch. */
    public void check() {
        if (cancelled) {
            throw TellException.of(ErrorCode.CANCELLED, "statement cancelled");
        }
        if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() > deadlineNanos) {
            throw TellException.of(ErrorCode.TIMEOUT, "statement timed out");
        }
    }
}
