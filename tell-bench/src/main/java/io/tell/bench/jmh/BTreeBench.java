package io.tell.bench.jmh;

import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Point lookups and inserts on the distributed B+tree (one tree client, warm cache), with a
 * {@link ConcurrentSkipListMap} of the same keys as the in-memory baseline in the same run.
 * Run multi-threaded with {@code -t N}; {@code -p store=redis://127.0.0.1:6390} for Redis.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class BTreeBench extends BenchmarkDefaults {
    @Param({"mem:"})
    public String store;

    @Param({"100000"})
    public int keys;

    @Param({"false"})
    public boolean inlineLeaves;

    private RecordStore recordStore;
    private BTree tree;
    private final ConcurrentSkipListMap<byte[], Long> baseline = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
    private final AtomicLong nextNewKey = new AtomicLong(1L << 40);

    @Setup
    public void setUp() {
        recordStore = RecordStores.open(store);
        tree = BTree.open(recordStore, BTreeConfig.of("bench.idx" + System.nanoTime(), true).withInlineLeaves(inlineLeaves));
        for (long k = 0; k < keys; k++) {
            tree.insert(key(k), k);
            baseline.put(key(k), k);
        }
        for (long k = 0; k < keys; k++) {
            tree.lookup(key(k)); // warm the inner-node cache and leaf hints
        }
    }

    @TearDown
    public void tearDown() {
        recordStore.close();
    }

    @Benchmark
    public Object treeLookup() {
        return tree.lookup(key(ThreadLocalRandom.current().nextInt(keys)));
    }

    @Benchmark
    public Object skipListLookup() {
        return baseline.get(key(ThreadLocalRandom.current().nextInt(keys)));
    }

    @Benchmark
    public Object treeInsert() {
        long k = nextNewKey.getAndIncrement();
        return tree.insert(key(k), k);
    }

    private static byte[] key(long k) {
        return ByteBuffer.allocate(8).putLong(k).array();
    }
}
