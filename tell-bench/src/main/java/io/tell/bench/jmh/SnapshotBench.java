package io.tell.bench.jmh;

import io.tell.txn.MvccRecord;
import io.tell.txn.RowVersion;
import io.tell.txn.SnapshotDescriptor;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Visibility checks, descriptor serialization, and MVCC record encode/decode. */
@State(Scope.Thread)
public class SnapshotBench extends BenchmarkDefaults {
    private SnapshotDescriptor snapshot;
    private byte[] snapshotBytes;
    private long[] probes;
    private int next;
    private MvccRecord record;
    private byte[] recordBytes;

    @Setup
    public void setUp() {
        Random rnd = new Random(1);
        BitSet n = new BitSet();
        for (int i = 0; i < 256; i++) {
            if (rnd.nextBoolean()) {
                n.set(i);
            }
        }
        snapshot = new SnapshotDescriptor(1_000_000, n.toLongArray()); // 256 tids in flight above base
        snapshotBytes = snapshot.toBytes();
        probes = new long[1024];
        for (int i = 0; i < probes.length; i++) {
            probes[i] = 999_900 + rnd.nextInt(400);
        }
        byte[] row = new byte[100];
        rnd.nextBytes(row);
        record = new MvccRecord(List.of(new RowVersion(1_000_010, row), new RowVersion(999_000, row.clone())));
        recordBytes = record.encode();
    }

    @Benchmark
    public boolean isVisible() {
        return snapshot.isVisible(probes[next++ & 1023]);
    }

    @Benchmark
    public byte[] snapshotToBytes() {
        return snapshot.toBytes();
    }

    @Benchmark
    public SnapshotDescriptor snapshotFromBytes() {
        return SnapshotDescriptor.fromBytes(snapshotBytes);
    }

    @Benchmark
    public byte[] recordEncode() {
        return record.encode();
    }

    @Benchmark
    public MvccRecord recordDecode() {
        return MvccRecord.decode(recordBytes);
    }
}
