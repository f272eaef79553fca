package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.SnapshotDescriptor;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CommitStateTest {

    private static CommitState fresh() {
        return new CommitState(0, new BitSet(), 0);
    }

    private static void beginAll(CommitState s, long from, long to) {
        for (long t = from; t <= to; t++) {
            s.begin(t, s.base());
        }
    }

    @Test
    void baseAdvancesOverOutOfOrderCompletions() {
        CommitState s = fresh();
        beginAll(s, 1, 5);
        assertTrue(s.complete(3));
        assertEquals(0, s.base());
        assertTrue(s.complete(1));
        assertEquals(1, s.base());
        assertTrue(s.complete(5));
        assertEquals(1, s.base());
        assertTrue(s.complete(2));
        assertEquals(3, s.base(), "2 fills the gap up to the already completed 3");
        assertTrue(s.complete(4));
        assertEquals(5, s.base());
        assertEquals(SnapshotDescriptor.ofBase(5), s.snapshot());
    }

    @Test
    void snapshotHoldsExactlyTheCompletedTids() {
        CommitState s = fresh();
        beginAll(s, 1, 70);
        for (long t : new long[] {2, 3, 65, 70}) {
            s.complete(t);
        }
        SnapshotDescriptor snap = s.snapshot();
        assertEquals(0, snap.base());
        for (long t = 1; t <= 71; t++) {
            assertEquals(t == 2 || t == 3 || t == 65 || t == 70, snap.isVisible(t), "tid " + t);
        }
        assertEquals(70, snap.highestVisible());
    }

    @Test
    void snapshotIsRebuiltAfterEveryCompletion() {
        CommitState s = fresh();
        beginAll(s, 1, 3);
        SnapshotDescriptor before = s.snapshot();
        assertSame(before, s.snapshot(), "unchanged state reuses its descriptor");
        s.complete(2);
        assertFalse(before.isVisible(2));
        assertTrue(s.snapshot().isVisible(2));
    }

    @Test
    void repeatedAndUnknownReports() {
        CommitState s = fresh();
        beginAll(s, 1, 2);
        assertTrue(s.complete(2));
        assertTrue(s.complete(2), "reports are idempotent");
        assertEquals(0, s.base());
        assertFalse(s.complete(3), "never issued");
        assertFalse(s.complete(0), "0 is no tid");
        assertTrue(s.complete(1));
        assertTrue(s.complete(1));
        assertEquals(2, s.base());
        assertEquals(0, s.runningCount());
    }

    @Test
    void tidsNeitherDoneNorRunningAreInDoubt() {
        BitSet done = new BitSet();
        done.set(1); // tid 4 (base 2: bit i is tid 3 + i)
        CommitState s = new CommitState(2, done, 6);
        assertEquals(List.of(3L, 5L, 6L), s.inDoubt());
        assertFalse(s.isCompleted(3));
        assertTrue(s.isCompleted(4));
        s.begin(7, s.base());
        assertEquals(List.of(3L, 5L, 6L), s.inDoubt(), "a running tid is not in doubt");
        assertTrue(s.complete(5), "an in-doubt tid may still be reported by its owner");
        assertEquals(List.of(3L, 6L), s.inDoubt());
        assertFalse(s.snapshot().isVisible(3));
        assertTrue(s.snapshot().isVisible(5));
        s.complete(3);
        assertEquals(5, s.base());
        assertEquals(List.of(6L), s.inDoubt());
    }

    @Test
    void skippedTidsCountAsCompleted() {
        CommitState s = fresh();
        beginAll(s, 1, 2);
        s.skip(3, 6);
        assertEquals(6, s.highestIssued());
        assertEquals(0, s.base());
        s.complete(2);
        s.complete(1);
        assertEquals(6, s.base());
        s.skip(4, 5); // already below the base: nothing to do
        assertEquals(6, s.base());
    }

    @Test
    void lavIsHeldBackByRunningReadWriteTransactions() {
        CommitState s = fresh();
        s.begin(1, s.base());
        s.begin(2, s.base()); // snapshot base 0
        s.complete(1);
        assertEquals(1, s.base());
        assertEquals(0, s.lav(), "tid 2 still reads at base 0");
        s.complete(2);
        assertEquals(2, s.lav());
    }

    @Test
    void lavIsHeldBackByRunningReaders() {
        CommitState s = fresh();
        s.begin(1, s.base());
        s.complete(1);
        s.begin(-1, s.base()); // reader at base 1
        s.begin(2, s.base());
        s.begin(-2, s.base());
        s.complete(2);
        assertEquals(2, s.base());
        assertEquals(1, s.lav());
        s.complete(-1);
        assertEquals(1, s.lav(), "the second reader has base 1 too");
        s.complete(-2);
        assertEquals(2, s.lav());
        s.complete(-2);
        assertEquals(2, s.lav(), "a repeated reader report changes nothing");
    }

    @Test
    void durableFormRoundTrips() {
        CommitState s = fresh();
        beginAll(s, 1, 200);
        for (long t : new long[] {1, 2, 5, 64, 130, 199}) {
            s.complete(t);
        }
        s.begin(-1, s.base()); // running transactions are not part of the durable form
        CommitState back = CommitState.fromBytes(s.toBytes());
        assertEquals(s.base(), back.base());
        assertEquals(s.doneAboveBase(), back.doneAboveBase());
        assertEquals(s.highestIssued(), back.highestIssued());
        assertEquals(s.snapshot(), back.snapshot());
        assertEquals(0, back.runningCount());
    }

    @Test
    void malformedDurableFormIsCorruptData() {
        byte[] good = fresh().toBytes();
        for (byte[] bad : new byte[][] {new byte[0], java.util.Arrays.copyOf(good, 10), badWordCount()}) {
            TellException e = assertThrows(TellException.class, () -> CommitState.fromBytes(bad));
            assertEquals(ErrorCode.CORRUPT_DATA, e.code());
        }
    }

    private static byte[] badWordCount() {
        return java.nio.ByteBuffer.allocate(20).putLong(0).putLong(0).putInt(1000).array();
    }

    /** Completes tids in a seeded random order and checks base and snapshot against a plain set. */
    @Test
    void randomCompletionOrderMatchesAModel() {
        long seed = Long.getLong("tell.seed", 1);
        Random random = new Random(seed);
        CommitState s = fresh();
        int n = 2000;
        beginAll(s, 1, n);
        List<Long> order = new ArrayList<>();
        for (long t = 1; t <= n; t++) {
            order.add(t);
        }
        Collections.shuffle(order, random);
        Set<Long> done = new HashSet<>();
        for (int i = 0; i < order.size(); i++) {
            s.complete(order.get(i));
            done.add(order.get(i));
            long expectedBase = 0;
            while (done.contains(expectedBase + 1)) {
                expectedBase++;
            }
            assertEquals(expectedBase, s.base(), "seed " + seed + " step " + i);
            if (i % 97 == 0) {
                SnapshotDescriptor snap = s.snapshot();
                for (long t = 1; t <= n; t++) {
                    assertEquals(done.contains(t), snap.isVisible(t), "seed " + seed + " tid " + t);
                }
            }
        }
        assertEquals(n, s.base());
    }
}
