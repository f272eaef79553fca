package io.tell.bench.jmh;

import io.tell.cm.LocalCommitManager;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.CountingRecordStore;
import io.tell.txn.CountingCommitManager;
import io.tell.txn.TransactionManager;
import java.nio.ByteBuffer;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One-row update transaction: begin, read, write, commit. {@code store} is {@code mem:} or a
 * Redis URL (e.g. {@code -p store=redis://127.0.0.1:6390}); the commit manager is in-process
 * (durable, journaling to the store, when the store is Redis). Rows are drawn at random from
 * {@code rows}, so with one thread there are no conflicts.
 */
@State(Scope.Benchmark)
public class OneRowUpdateBench extends BenchmarkDefaults {
    @Param({"mem:"})
    public String store;

    @Param({"10000"})
    public int rows;

    private RecordStore recordStore;
    private CountingRecordStore counted;
    private CountingCommitManager cm;
    private final LongAdder operations = new LongAdder();
    private CountingRecordStore.Counts loaded;
    private long cmCallsLoaded;
    private TransactionManager tm;
    private final byte[] row = new byte[100];

    @Setup
    public void setUp() {
        recordStore = RecordStores.open(store);
        counted = new CountingRecordStore(recordStore);
        boolean mem = store.startsWith("mem:");
        cm = new CountingCommitManager(LocalCommitManager.open(recordStore,
                mem ? LocalCommitManager.Options.embedded() : LocalCommitManager.Options.durableService()));
        tm = new TransactionManager(counted, cm, "bench");
        for (int from = 0; from < rows; from += 1000) {
            int start = from;
            tm.run(5, tx -> {
                for (int r = start; r < Math.min(rows, start + 1000); r++) {
                    tx.put("bench.rows", key(r), row);
                }
                return null;
            });
        }
        loaded = counted.counts();
        cmCallsLoaded = cm.calls();
    }

    /** Round trips per operation of the whole run (the commit manager's own journal writes not included). */
    @TearDown
    public void tearDown() {
        long ops = Math.max(1, operations.sum());
        CountingRecordStore.Counts c = counted.counts().minus(loaded);
        System.out.printf("%n[%s] per one-row update: %.2f store round trips (%.2f reads, %.2f writes), %.2f commit-manager calls%n",
                store, (double) c.total() / ops, (double) c.reads() / ops, (double) c.writes() / ops, (double) (cm.calls() - cmCallsLoaded) / ops);
        tm.close();
        cm.close();
        recordStore.close();
    }

    @Benchmark
    public byte[] updateOneRow() {
        byte[] key = key(ThreadLocalRandom.current().nextInt(rows));
        operations.increment();
        return tm.run(100, tx -> {
            byte[] current = tx.get("bench.rows", key);
            current[0]++;
            tx.update("bench.rows", key, current);
            return current;
        });
    }

    private static byte[] key(int r) {
        return ByteBuffer.allocate(4).putInt(r).array();
    }
}
