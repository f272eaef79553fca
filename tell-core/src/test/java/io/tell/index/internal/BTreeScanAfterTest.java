package io.tell.index.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.store.RecordStores;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link BTree#scanAfter}: a walk over a whole tree in pages, also through long runs of one key. */
class BTreeScanAfterTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 7, 1000})
    void aWalkInPagesReturnsEveryEntryOnceInOrder(int page) {
        BTree tree = BTree.open(RecordStores.open("mem:"), new BTreeConfig("t", false, 4, 1000, 10, false));
        TreeSet<IndexEntry> model = new TreeSet<>();
        Random rnd = new Random(7);
        for (int i = 0; i < 300; i++) {
            // Few keys, so runs of one key span many leaves; sparse, huge rids.
            IndexEntry e = new IndexEntry(i % 2 == 0 ? new byte[0] : new byte[] {(byte) rnd.nextInt(3)},
                    1_700_000_000_000_000L + rnd.nextLong(1L << 40));
            model.add(e);
            tree.insert(e.key(), e.rid());
        }
        List<IndexEntry> walked = new ArrayList<>();
        IndexEntry after = null;
        while (true) {
            List<IndexEntry> got = tree.scanAfter(after, page);
            walked.addAll(got);
            if (got.size() < page) {
                break;
            }
            after = got.get(got.size() - 1);
        }
        assertEquals(new ArrayList<>(model), walked);
        assertEquals(List.of(), tree.scanAfter(model.last(), page));
        assertEquals(List.of(), tree.scanAfter(null, 0));
        assertThrows(IllegalArgumentException.class, () -> tree.scanAfter(null, -1));
    }
}
