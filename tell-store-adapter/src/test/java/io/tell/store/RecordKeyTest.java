package io.tell.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecordKeyTest {
    /** TPC-C STOCK-like keys: (warehouse, item) as two sign-flipped big-endian ints. */
    private static byte[] key(int w, int i) {
        byte[] k = new byte[8];
        int x = w ^ 0x80000000;
        int y = i ^ 0x80000000;
        for (int j = 0; j < 4; j++) {
            k[j] = (byte) (x >>> (24 - 8 * j));
            k[4 + j] = (byte) (y >>> (24 - 8 * j));
        }
        return k;
    }

    @Test
    void encodedKeysHashApart() {
        Set<Integer> hashes = new HashSet<>();
        int keys = 0;
        for (int w = 1; w <= 4; w++) {
            for (int i = 1; i <= 100_000; i++) {
                hashes.add(RecordKey.hash(key(w, i)));
                keys++;
            }
        }
        // 400,000 random 32-bit values would collide about 19 times; the polynomial hash of
        // Arrays.hashCode gives these keys only 36,488 distinct values.
        assertTrue(hashes.size() > keys - 100, hashes.size() + " distinct hashes of " + keys + " keys");
    }

    @Test
    void hashCoversEveryByteAndTheLength() {
        byte[] longer = new byte[13];
        for (int at = 0; at < longer.length; at++) {
            byte[] changed = longer.clone();
            changed[at] = 1;
            assertNotEquals(RecordKey.hash(longer), RecordKey.hash(changed), "byte " + at);
        }
        assertNotEquals(RecordKey.hash(new byte[0]), RecordKey.hash(new byte[1]));
        assertEquals(new RecordKey("t", key(1, 2)).hashCode(), new RecordKey("t", key(1, 2)).hashCode());
    }
}
