package io.tell.cm;

import io.tell.store.Expect;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.txn.Reverter;
import io.tell.txn.TxLog;
import java.util.List;
import java.util.function.Predicate;

/**
 * Settles a tid whose owner can no longer be relied on — its commit manager died, or its
 * processing node's lease expired — from its transaction-log entry ({@link TxLog}):
 * <ul>
 *   <li>no entry: insert a {@code FENCED} one; the owner can then never write, so the tid is aborted;</li>
 *   <li>{@code COMMITTED}: the commit was decided; it is committed;</li>
 *   <li>{@code WRITING} by a node that still holds its lease: wait for that node's report;</li>
 *   <li>{@code WRITING} otherwise: move it to {@code FENCED} (conditional on the version read,
 *       so a commit decided meanwhile wins instead), revert every key listed, aborted;</li>
 *   <li>{@code FENCED}: a recovery that may have died midway, or {@code WITHDRAWN}: a node that
 *       gave its commit up and may have died before reverting; revert again (idempotent), aborted.</li>
 * </ul>
 * Reverts assume the outcome of the owner's writes is unknown, so a late write of a paused
 * owner can only conflict. Blocks on store calls: run it off event loops.
 */
final class TidResolver {
    enum Outcome { COMMITTED, ABORTED, WAITING }

    private static final int ATTEMPTS = 5;
    private final RecordStore store;

    TidResolver(RecordStore store) {
        this.store = store;
    }

    Outcome resolve(long tid, Predicate<String> nodeAlive) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Versioned v = store.get(TxLog.DOMAIN, TxLog.key(tid));
            if (v == null) {
                byte[] fence = TxLog.encode(new TxLog.Entry(TxLog.State.FENCED, "commit-manager", System.currentTimeMillis(), List.of()));
                if (store.write(new WriteOp(TxLog.recordKey(tid), fence, Expect.ABSENT)).written()) {
                    return Outcome.ABORTED;
                }
                continue;
            }
            TxLog.Entry entry = TxLog.decode(v.value());
            switch (entry.state()) {
                case COMMITTED:
                    return Outcome.COMMITTED;
                case FENCED:
                case WITHDRAWN:
                    Reverter.revert(store, tid, entry.keys(), true);
                    return Outcome.ABORTED;
                case WRITING:
                    if (nodeAlive.test(entry.node())) {
                        return Outcome.WAITING;
                    }
                    WriteOp fence = new WriteOp(TxLog.recordKey(tid), TxLog.encode(entry.in(TxLog.State.FENCED)), Expect.version(v.version()));
                    if (store.write(fence).written()) {
                        Reverter.revert(store, tid, entry.keys(), true);
                        return Outcome.ABORTED;
                    }
                    break;
                default:
                    throw new IllegalStateException("unknown log state " + entry.state());
            }
        }
        return Outcome.WAITING;
    }
}
