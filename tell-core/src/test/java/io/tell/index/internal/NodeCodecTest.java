package io.tell.index.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class NodeCodecTest {
    private static final long SEED = Long.getLong("tell.seed", 1);

    @Test
    void randomNodesSurviveARoundTrip() {
        Random rnd = new Random(SEED);
        for (int round = 0; round < 2000; round++) {
            TreeSet<IndexEntry> set = new TreeSet<>();
            int n = rnd.nextInt(20) + 2;
            while (set.size() < n) {
                byte[] key = new byte[rnd.nextInt(6)];
                for (int i = 0; i < key.length; i++) {
                    key[i] = (byte) (rnd.nextInt(3) * 127);
                }
                set.add(new IndexEntry(key, rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(3)));
            }
            IndexEntry[] all = set.toArray(IndexEntry[]::new);
            IndexEntry low = rnd.nextBoolean() ? null : all[0];
            IndexEntry high = rnd.nextBoolean() ? null : all[all.length - 1];
            IndexEntry[] inside = Arrays.copyOfRange(all, 1, all.length - 1);
            BTreeNode node;
            if (rnd.nextBoolean()) {
                node = BTreeNode.leaf(rnd.nextLong(), low, high, rnd.nextInt(3), inside);
            } else {
                long[] children = rnd.longs(inside.length + 1).toArray();
                node = BTreeNode.inner(rnd.nextLong(), 1 + rnd.nextInt(5), low, high, rnd.nextInt(3), inside, children);
            }
            byte[] bytes = NodeCodec.encode(node);
            BTreeNode back = NodeCodec.decode(bytes);
            assertEquals(node.toString(), back.toString(), "seed " + SEED);
            assertArrayEquals(bytes, NodeCodec.encode(back), "seed " + SEED);
        }
    }

    @Test
    void truncatedNodesAreReportedAsCorrupt() {
        BTreeNode node = BTreeNode.leaf(7, null, null, 0, new IndexEntry[] {new IndexEntry(new byte[] {1, 2}, 3)});
        byte[] bytes = NodeCodec.encode(node);
        for (int len = 0; len < bytes.length; len++) {
            byte[] cut = Arrays.copyOf(bytes, len);
            assertThrows(TellException.class, () -> NodeCodec.decode(cut));
        }
    }
}
