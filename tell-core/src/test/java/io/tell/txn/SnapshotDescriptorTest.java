package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SnapshotDescriptorTest {
    @Test
    void everythingUpToBaseIsVisible() {
        SnapshotDescriptor s = SnapshotDescriptor.ofBase(10);
        assertTrue(s.isVisible(1));
        assertTrue(s.isVisible(10));
        assertFalse(s.isVisible(11));
        assertEquals(10, s.highestVisible());
    }

    @Test
    void bitsAboveBaseSayWhichTidsAreVisible() {
        BitSet n = new BitSet();
        n.set(0);   // tid 101
        n.set(63);  // tid 164
        n.set(64);  // tid 165
        n.set(200); // tid 301
        SnapshotDescriptor s = new SnapshotDescriptor(100, n.toLongArray());
        assertTrue(s.isVisible(101));
        assertFalse(s.isVisible(102));
        assertTrue(s.isVisible(164));
        assertTrue(s.isVisible(165));
        assertTrue(s.isVisible(301));
        assertFalse(s.isVisible(302));
        assertFalse(s.isVisible(100_000));
        assertEquals(301, s.highestVisible());
    }

    @Test
    void randomDescriptorsRoundTripAndAgreeWithAModel() {
        long seed = Long.getLong("tell.seed", 1);
        Random rnd = new Random(seed);
        for (int i = 0; i < 500; i++) {
            long base = rnd.nextInt(1_000_000);
            BitSet model = new BitSet();
            int bits = rnd.nextInt(300);
            for (int b = 0; b < bits; b++) {
                if (rnd.nextInt(3) == 0) {
                    model.set(b);
                }
            }
            SnapshotDescriptor s = new SnapshotDescriptor(base, model.toLongArray());
            SnapshotDescriptor back = SnapshotDescriptor.fromBytes(s.toBytes());
            assertEquals(s, back, "seed " + seed);
            assertEquals(s.encodedSize(), s.toBytes().length);
            for (long t = Math.max(1, base - 5); t < base + 310; t++) {
                boolean expected = t <= base || model.get((int) (t - base - 1));
                assertEquals(expected, back.isVisible(t), "seed " + seed + " tid " + t);
            }
        }
    }

    @Test
    void trailingZeroWordsAreTrimmed() {
        SnapshotDescriptor s = new SnapshotDescriptor(5, new long[] {1, 0, 0});
        assertEquals(12 + 8, s.toBytes().length);
        assertEquals(new SnapshotDescriptor(5, new long[] {1}), s);
    }

    @Test
    void malformedBytesAreCorruptData() {
        byte[] good = new SnapshotDescriptor(5, new long[] {3}).toBytes();
        TellException e = assertThrows(TellException.class,
                () -> SnapshotDescriptor.fromBytes(Arrays.copyOf(good, good.length - 1)));
        assertSame(ErrorCode.CORRUPT_DATA, e.code());
        assertThrows(TellException.class, () -> SnapshotDescriptor.fromBytes(new byte[3]));
    }

    @Test
    void subsetAgreesWithTheVisibleTids() {
        long seed = Long.getLong("tell.seed", 1);
        Random rnd = new Random(seed);
        for (int round = 0; round < 500; round++) {
            SnapshotDescriptor a = new SnapshotDescriptor(rnd.nextInt(20), new long[] {rnd.nextLong() & rnd.nextLong()});
            SnapshotDescriptor b = new SnapshotDescriptor(rnd.nextInt(20), new long[] {rnd.nextLong() | rnd.nextLong()});
            boolean model = true;
            for (long tid = 1; tid < 100; tid++) {
                if (a.isVisible(tid) && !b.isVisible(tid)) {
                    model = false;
                }
            }
            assertEquals(model, a.isSubsetOf(b), a + " within " + b + " (seed " + seed + ")");
            assertTrue(a.isSubsetOf(a));
        }
        assertTrue(SnapshotDescriptor.ofBase(5).isSubsetOf(SnapshotDescriptor.ofBase(9)));
        assertFalse(SnapshotDescriptor.ofBase(9).isSubsetOf(SnapshotDescriptor.ofBase(5)));
    }
}
