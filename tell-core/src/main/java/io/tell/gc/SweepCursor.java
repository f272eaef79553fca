package io.tell.gc;

import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Where the sweeper's walks over tids stand, kept in one record, {@code tell.sys/gc.cursor}:
 * the next tid whose garbage list ({@link io.tell.txn.GarbageLog}) and the next tid whose log
 * entry ({@link io.tell.txn.TxLog}) is to be read. Tids below a cursor are done for good. Moved
 * only by the lease holder, with writes conditional on the version read; a write that conflicts
 * means another process took the lease over, and the pass ends.
 */
final class SweepCursor {
    static final RecordKey KEY = new RecordKey("tell.sys", "gc.cursor".getBytes(StandardCharsets.UTF_8));

    private final RecordStore store;
    private long garbageNext;
    private long logNext;
    private long version;

    private SweepCursor(RecordStore store, long garbageNext, long logNext, long version) {
        this.store = store;
        this.garbageNext = garbageNext;
        this.logNext = logNext;
        this.version = version;
    }

    static SweepCursor read(RecordStore store) {
        Versioned v = store.get(KEY.domain(), KEY.key());
        if (v == null) {
            return new SweepCursor(store, 1, 1, 0);
        }
        ByteBuffer buf = ByteBuffer.wrap(v.value());
        return new SweepCursor(store, buf.getLong(), buf.getLong(), v.version());
    }

    long garbageNext() {
        return garbageNext;
    }

    long logNext() {
        return logNext;
    }

    void moveGarbage(long next) {
        save(next, logNext);
    }

    void moveLog(long next) {
        save(garbageNext, next);
    }

    private void save(long garbage, long log) {
        byte[] value = ByteBuffer.allocate(16).putLong(garbage).putLong(log).array();
        WriteResult r = store.write(new WriteOp(KEY, value, version == 0 ? Expect.ABSENT : Expect.version(version)));
        if (!r.written()) {
            throw new SweepPass.LeaseLost();
        }
        version = r.version();
        garbageNext = garbage;
        logNext = log;
    }
}
