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
     * died), every record where no version of the tid is found is rewritten as it is (an
     * absent one as an empty record), so that such a late conditional write can only fail.
     * Throws a retriable {@link TellException} when the store does not let it finish.
     */
    public static void revert(RecordStore store, long tid, List<RecordKey> keys, boolean outcomeUnknown) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            List<Versioned> current = TellException.join(store.getAllAsync(keys));
            List<WriteOp> ops = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                WriteOp op = revertOp(tid, keys.get(i), current.get(i), outcomeUnknown);
                if (op != null) {
                    ops.add(op);
                }
            }
            if (ops.isEmpty() || TellException.join(store.writeAllAsync(ops)).stream().allMatch(r -> r.written())) {
                return;
            }
        }
        throw TellException.of(ErrorCode.STORE_TIMEOUT, "could not revert tid " + tid + " after " + ATTEMPTS + " attempts");
    }

    private static WriteOp revertOp(long tid, RecordKey key, Versioned v, boolean outcomeUnknown) {
        if (v == null) {
            return outcomeUnknown ? new WriteOp(key, new MvccRecord(List.of()).encode(), Expect.ABSENT) : null;
        }
        MvccRecord record = MvccRecord.decode(v.value());
        Expect expect = Expect.version(v.version());
        if (!record.hasVersionOf(tid)) {
            return outcomeUnknown ? new WriteOp(key, v.value(), expect) : null;
        }
        MvccRecord rest = record.without(tid);
        return new WriteOp(key, rest.isEmpty() ? null : rest.encode(), expect);
    }
}
