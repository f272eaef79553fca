package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import java.util.ArrayList;
import java.util.List;

/**
 * Takes every version a tid wrote out of its records: what an aborting transaction does
 * before it reports the abort, and what recovery does for a dead processing node's tid.
 * Idempotent, so two reverters of one tid (the node itself and recovery) do no harm.
 */
public final class Reverter {
    private static final int ATTEMPTS = 10;

    private Reverter() {
    }

    /**
     * Removes {@code tid}'s versions from {@code keys}. When {@code outcomeUnknown} (a write of
     * the tid may still be on its way: its apply batch failed without answers, or its node
     * died), every record where no version of the tid is found is rewritten as it is, and an
     * absent or empty one as a fresh fence ({@link MvccRecord#fence}), so that such a late
     * conditional write can only fail. Returns true when it wrote a fence: the tid's log entry
     * must then stay, since that is how the sweeper finds the fence and deletes it once it is
     * old enough. Throws a retriable {@link TellException} when the store does not let it finish.
     */
    public static boolean revert(RecordStore store, long tid, List<RecordKey> keys, boolean outcomeUnknown) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            List<Versioned> current = TellException.join(store.getAllAsync(keys));
            List<WriteOp> ops = new ArrayList<>();
            byte[] fence = MvccRecord.fence(System.currentTimeMillis());
            boolean fenced = false;
            for (int i = 0; i < keys.size(); i++) {
                WriteOp op = revertOp(tid, keys.get(i), current.get(i), outcomeUnknown, fence);
                if (op != null) {
                    ops.add(op);
                    fenced |= op.value() == fence;
                }
            }
            if (ops.isEmpty() || TellException.join(store.writeAllAsync(ops)).stream().allMatch(r -> r.written())) {
                return fenced;
            }
        }
        throw TellException.of(ErrorCode.STORE_TIMEOUT, "could not revert tid " + tid + " after " + ATTEMPTS + " attempts");
    }

    private static WriteOp revertOp(long tid, RecordKey key, Versioned v, boolean outcomeUnknown, byte[] fence) {
        if (v == null) {
            return outcomeUnknown ? new WriteOp(key, fence, Expect.ABSENT) : null;
        }
        MvccRecord record = MvccRecord.decode(v.value());
        Expect expect = Expect.version(v.version());
        if (!record.hasVersionOf(tid)) {
            if (!outcomeUnknown) {
                return null;
            }
            return new WriteOp(key, record.isEmpty() ? fence : v.value(), expect);
        }
        MvccRecord rest = record.without(tid);
        return new WriteOp(key, rest.isEmpty() ? null : rest.encode(), expect);
    }
}
