package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MvccRecordTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static MvccRecord record(RowVersion... versions) {
        return new MvccRecord(List.of(versions));
    }

    @Test
    void readerTakesNewestVisibleVersionOrItsOwn() {
        MvccRecord r = record(new RowVersion(30, b("c")), new RowVersion(20, null), new RowVersion(10, b("a")));
        assertArrayEquals(b("a"), r.visibleTo(SnapshotDescriptor.ofBase(15), 99).row());
        assertTrue(r.visibleTo(SnapshotDescriptor.ofBase(25), 99).deleted());
        assertArrayEquals(b("c"), r.visibleTo(SnapshotDescriptor.ofBase(5), 30).row());
        assertNull(r.visibleTo(SnapshotDescriptor.ofBase(5), 99));
    }

    @Test
    void encodingRoundTripsRandomRecords() {
        long seed = Long.getLong("tell.seed", 1);
        Random rnd = new Random(seed);
        for (int i = 0; i < 1000; i++) {
            List<RowVersion> versions = new ArrayList<>();
            long tid = 1L + rnd.nextInt(Integer.MAX_VALUE) + (rnd.nextBoolean() ? (1L << 40) : 0);
            for (int v = rnd.nextInt(5); v >= 0; v--) {
                byte[] row = rnd.nextInt(4) == 0 ? null : new byte[rnd.nextInt(300)];
                if (row != null) {
                    rnd.nextBytes(row);
                }
                versions.add(new RowVersion(tid, row));
                tid -= 1 + rnd.nextInt(1000);
            }
            MvccRecord back = MvccRecord.decode(new MvccRecord(versions).encode());
            assertEquals(versions.size(), back.versions().size(), "seed " + seed);
            for (int v = 0; v < versions.size(); v++) {
                assertEquals(versions.get(v).tid(), back.versions().get(v).tid());
                assertArrayEquals(versions.get(v).row(), back.versions().get(v).row());
            }
        }
    }

    @Test
    void smallRowsEncodeCompactly() {
        byte[] enc = record(new RowVersion(1000, b("hello"))).encode();
        // format, count, tid (2-byte varint), flags, length, 5 bytes
        assertEquals(1 + 1 + 2 + 1 + 1 + 5, enc.length);
    }

    @Test
    void eagerGcKeepsNewestVersionAtOrBelowLavAndDropsOlder() {
        MvccRecord r = record(new RowVersion(50, b("e")), new RowVersion(40, b("d")),
                new RowVersion(30, b("c")), new RowVersion(20, b("b")));
        MvccRecord next = r.withNewest(new RowVersion(60, b("f")), 35);
        assertEquals(List.of(60L, 50L, 40L, 30L), next.versions().stream().map(RowVersion::tid).toList());
        MvccRecord all = r.withNewest(new RowVersion(60, b("f")), 55);
        assertEquals(List.of(60L, 50L), all.versions().stream().map(RowVersion::tid).toList());
    }

    @Test
    void gcDropsDeletesAtTheBottom() {
        MvccRecord r = record(new RowVersion(20, null), new RowVersion(10, b("a")));
        MvccRecord next = r.withNewest(new RowVersion(30, b("new")), 25);
        assertEquals(List.of(30L), next.versions().stream().map(RowVersion::tid).toList());
    }

    @Test
    void withoutRemovesOnlyThatTid() {
        MvccRecord r = record(new RowVersion(30, b("c")), new RowVersion(10, b("a")));
        assertFalse(r.without(30).hasVersionOf(30));
        assertEquals(1, r.without(30).versions().size());
        assertTrue(r.without(30).without(10).isEmpty());
    }

    @Test
    void aFenceIsEmptyAndSaysWhenItWasWritten() {
        MvccRecord fence = MvccRecord.decode(MvccRecord.fence(1_790_000_000_123L));
        assertTrue(fence.isEmpty());
        assertEquals(1_790_000_000_123L, fence.fencedAt());
        assertEquals(0, MvccRecord.decode(new MvccRecord(List.of()).encode()).fencedAt(), "an older fence says nothing");
        assertEquals(0, record(new RowVersion(7, b("x"))).fencedAt());
    }

    @Test
    void corruptRecordsAreRejectedClearly() {
        byte[] good = record(new RowVersion(7, b("xyz"))).encode();
        for (int cut = 0; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, cut);
            TellException e = assertThrows(TellException.class, () -> MvccRecord.decode(truncated));
            assertSame(ErrorCode.CORRUPT_DATA, e.code());
        }
        byte[] trailing = Arrays.copyOf(good, good.length + 1);
        assertThrows(TellException.class, () -> MvccRecord.decode(trailing));
        byte[] badFormat = good.clone();
        badFormat[0] = 9;
        assertThrows(TellException.class, () -> MvccRecord.decode(badFormat));
    }
}
