package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.ForwardingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A real store with one injected failure on the next batch write that touches a given domain:
 * either applied and then the answer is lost, or lost on the way (kept for a late delivery).
 */
final class FaultyStore extends ForwardingRecordStore {
    enum Fault { NONE, APPLY_THEN_TIMEOUT, DELAY_AND_TIMEOUT }

    private volatile Fault fault = Fault.NONE;
    private volatile String faultDomain;
    final List<WriteOp> delayed = new ArrayList<>();

    FaultyStore(RecordStore delegate) {
        super(delegate);
    }

    void failNextBatchOn(String domain, Fault f) {
        faultDomain = domain;
        fault = f;
    }

    /** Delivers the batch that was "lost" on the way, as a slow network might. */
    List<WriteResult> deliverLate() {
        return delegate.writeAll(delayed);
    }

    @Override
    public CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops) {
        Fault f = fault;
        if (f != Fault.NONE && ops.stream().anyMatch(o -> !o.isCheck() && o.key().domain().equals(faultDomain))) {
            fault = Fault.NONE;
            if (f == Fault.APPLY_THEN_TIMEOUT) {
                delegate.writeAll(ops);
            } else {
                delayed.addAll(ops);
            }
            return CompletableFuture.failedFuture(TellException.of(ErrorCode.STORE_TIMEOUT, "injected: no answer"));
        }
        return delegate.writeAllAsync(ops);
    }






    @Override
    public String describe() {
        return "faulty(" + delegate.describe() + ")";
    }

}
