package io.tell.cm;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.SnapshotDescriptor;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The commit manager's bookkeeping, free of I/O and not thread-safe (the owner serialises
 * calls): which tids completed, the base, the running transactions and {@code lav}.
 *
 * <p>Invariant: every tid {@code <= base} has completed; bit {@code i} of {@code done} says
 * whether tid {@code base + 1 + i} has. Tids above {@code base} that are neither done nor
 * running are <i>in doubt</i> (handed out by an earlier incarnation of the commit manager);
 * they stay invisible until reported or fenced.
 */
final class CommitState {
    private long base;
    private BitSet done = new BitSet();
    private long highestIssued;
    /** The highest tid of a counter range reserved (journaled as issued: a restart must not reissue it). */
    private long reservedUpTo;
    private final Map<Long, Long> running = new HashMap<>();
    private final TreeMap<Long, Integer> runningBases = new TreeMap<>();
    /** A bound on lav for transactions this state does not know (an earlier incarnation's). */
    private long lavFloor = Long.MAX_VALUE;
    /** The descriptor of the current state, built once per change rather than once per start. */
    private SnapshotDescriptor snapshot;

    CommitState(long base, BitSet doneAboveBase, long highestIssued) {
        this.base = base;
        this.done = (BitSet) doneAboveBase.clone();
        this.highestIssued = Math.max(base, highestIssued);
        advance();
    }

    long base() {
        return base;
    }

    BitSet doneAboveBase() {
        return (BitSet) done.clone();
    }

    long highestIssued() {
        return highestIssued;
    }

    /** Tids up to {@code upTo} may be handed out from now on; journaled as issued. */
    void reserved(long upTo) {
        reservedUpTo = Math.max(reservedUpTo, upTo);
    }

    SnapshotDescriptor snapshot() {
        if (snapshot == null) {
            snapshot = new SnapshotDescriptor(base, done.toLongArray());
        }
        return snapshot;
    }

    /** Registers a transaction as running; {@code id} is a fresh tid or a negative reader id. */
    void begin(long id, long snapshotBase) {
        if (id > 0) {
            highestIssued = Math.max(highestIssued, id);
        }
        running.put(id, snapshotBase);
        runningBases.merge(snapshotBase, 1, Integer::sum);
    }

    /**
     * Marks {@code id} completed; false if it never was issued (0, or a tid above the highest
     * issued). Repeated reports are no-ops. Reader ids (negative) are not checked here: the
     * owner knows which it handed out.
     */
    boolean complete(long id) {
        if (!release(id)) {
            return false;
        }
        markDone(id);
        return true;
    }

    /**
     * Ends {@code id}'s hold on {@code lav} without making it visible (a durable owner marks
     * it done once the journal has it); false if it never was issued.
     */
    boolean release(long id) {
        if (id == 0 || id > highestIssued) {
            return false;
        }
        Long startedAt = running.remove(id);
        if (startedAt != null) {
            runningBases.merge(startedAt, -1, (a, b) -> a + b == 0 ? null : a + b);
        }
        return true;
    }

    /** Makes tid {@code id} visible to new snapshots. */
    void markDone(long id) {
        if (id > base && !done.get((int) (id - base - 1))) {
            done.set((int) (id - base - 1));
            advance();
            snapshot = null;
        }
    }

    /**
     * Marks tids {@code from..to}, which nobody will ever be handed (a counter range whose
     * reservation answer was lost), as completed, so they do not hold the base back forever.
     */
    void skip(long from, long to) {
        highestIssued = Math.max(highestIssued, to);
        long first = Math.max(from, base + 1);
        if (first <= to) {
            done.set((int) (first - base - 1), (int) (to - base));
            advance();
            snapshot = null;
        }
    }

    /**
     * Adds what another commit manager published: every tid {@code <= otherBase} and those
     * set in {@code otherDone} (bit {@code i} = tid {@code otherBase + 1 + i}) are completed.
     * Running transactions found completed (ended through another manager) are released.
     */
    void merge(long otherBase, long[] otherDone) {
        boolean changed = false;
        if (otherBase > base) {
            for (long t = base + 1; t <= otherBase; t++) {
                changed |= setDone(t);
            }
        }
        BitSet bits = BitSet.valueOf(otherDone);
        for (int i = bits.nextSetBit(0); i >= 0; i = bits.nextSetBit(i + 1)) {
            changed |= setDone(otherBase + 1 + i);
        }
        if (changed) {
            highestIssued = Math.max(highestIssued, base);
            advance();
            snapshot = null;
            running.keySet().removeIf(id -> {
                if (id > 0 && isCompleted(id)) {
                    Long startedAt = running.get(id);
                    runningBases.merge(startedAt, -1, (a, b) -> a + b == 0 ? null : a + b);
                    return true;
                }
                return false;
            });
        }
    }

    private boolean setDone(long t) {
        if (t <= base || done.get((int) (t - base - 1))) {
            return false;
        }
        done.set((int) (t - base - 1));
        return true;
    }

    /** The tids above base that are not completed, up to {@code upTo}. */
    List<Long> notCompleted(long upTo) {
        List<Long> out = new ArrayList<>();
        for (long t = base + 1; t <= upTo; t++) {
            if (!isCompleted(t)) {
                out.add(t);
            }
        }
        return out;
    }

    /** The lowest base of the transactions this state knows running (its own base when none). */
    long localLav() {
        return runningBases.isEmpty() ? base : Math.min(base, runningBases.firstKey());
    }

    /** Tids up to {@code issued} were handed out (by this manager or another of its cluster). */
    void issuedUpTo(long issued) {
        highestIssued = Math.max(highestIssued, issued);
    }

    boolean isRunning(long id) {
        return running.containsKey(id);
    }

    boolean isCompleted(long tid) {
        return tid <= base || done.get((int) (tid - base - 1));
    }

    /** The tids above base that are neither completed nor known running: left by a crash. */
    List<Long> inDoubt() {
        List<Long> out = new ArrayList<>();
        for (long t = base + 1; t <= highestIssued; t++) {
            if (!isCompleted(t) && !running.containsKey(t)) {
                out.add(t);
            }
        }
        return out;
    }

    long lav() {
        long lav = runningBases.isEmpty() ? base : Math.min(base, runningBases.firstKey());
        return Math.min(lav, lavFloor);
    }

    /**
     * Keeps lav at or below {@code floor} until {@link #releaseLavFloor()}: transactions of an
     * earlier incarnation may still run with snapshots this state never saw, and their bases
     * are at least the lav that incarnation journaled last.
     */
    void holdLav(long floor) {
        lavFloor = floor;
    }

    void releaseLavFloor() {
        lavFloor = Long.MAX_VALUE;
    }

    boolean holdsLavFloor() {
        return lavFloor != Long.MAX_VALUE;
    }

    int runningCount() {
        return running.size();
    }

    private void advance() {
        int shift = done.nextClearBit(0);
        if (shift > 0) {
            base += shift;
            done = done.get(shift, Math.max(shift, done.length()));
        }
    }

    /** The durable part (base, highest issued or reserved, lav, done bits), for the journal. */
    byte[] toBytes() {
        return encode(lav());
    }

    private byte[] encode(long lav) {
        long[] words = done.toLongArray();
        ByteBuffer buf = ByteBuffer.allocate(28 + 8 * words.length);
        buf.putLong(base).putLong(Math.max(highestIssued, reservedUpTo)).putLong(lav).putInt(words.length);
        for (long w : words) {
            buf.putLong(w);
        }
        return buf.array();
    }

    /** Reads what {@link #toBytes()} wrote; anything else is {@link ErrorCode#CORRUPT_DATA}. */
    static CommitState fromBytes(byte[] bytes) {
        return read(ByteBuffer.wrap(bytes));
    }

    static CommitState read(ByteBuffer buf) {
        try {
            long base = buf.getLong();
            long highest = buf.getLong();
            long lav = buf.getLong();
            int n = buf.getInt();
            if (base < 0 || highest < 0 || n < 0 || n > buf.remaining() / 8) {
                throw TellException.of(ErrorCode.CORRUPT_DATA,
                        "commit manager journal malformed (base " + base + ", words " + n + ")");
            }
            long[] words = new long[n];
            for (int i = 0; i < n; i++) {
                words[i] = buf.getLong();
            }
            CommitState state = new CommitState(base, BitSet.valueOf(words), highest);
            state.holdLav(lav);
            return state;
        } catch (BufferUnderflowException e) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "commit manager journal truncated", e);
        }
    }
}
