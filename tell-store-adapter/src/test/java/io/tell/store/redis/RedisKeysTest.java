package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.cluster.SlotHash;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedisKeysTest {
    private static final long SEED = Long.getLong("tell.seed", 20261122L);

    @Test
    void everySlotHasAVersionKeyThatHashesToIt() {
        Set<String> distinct = new HashSet<>();
        for (int slot = 0; slot < SlotHash.SLOT_COUNT; slot++) {
            byte[] key = RedisKeys.versionKey(slot);
            assertEquals(slot, SlotHash.getSlot(key), "slot " + slot);
            assertTrue(new String(key, StandardCharsets.US_ASCII).startsWith("tell:v:{"));
            distinct.add(new String(key, StandardCharsets.US_ASCII));
        }
        assertEquals(SlotHash.SLOT_COUNT, distinct.size());
    }

    @Test
    void aRecordAndItsVersionCounterShareASlotWhateverTheKeyBytes() {
        Random random = new Random(SEED);
        for (int i = 0; i < 10_000; i++) {
            byte[] key = new byte[random.nextInt(12)];
            random.nextBytes(key);
            if (i % 3 == 0 && key.length > 3) {
                key[0] = '{'; // user bytes may carry hash tags of their own
                key[key.length - 1] = '}';
            }
            byte[] recordKey = RedisKeys.recordKey(new RecordKey("d", key));
            int slot = RedisKeys.slot(recordKey);
            assertEquals(slot, SlotHash.getSlot(RedisKeys.versionKey(slot)), "seed " + SEED + " case " + i);
        }
    }

    @Test
    void recordsAndCountersLiveApart() {
        RecordKey k = new RecordKey("orders", bytes("k"));
        assertEquals("tell:r:orders:k", ascii(RedisKeys.recordKey(k)));
        assertEquals("tell:c:orders:k", ascii(RedisKeys.counterKey(k)));
        assertFalse(Arrays.equals(RedisKeys.recordKey(k), RedisKeys.counterKey(k)));
        assertArrayEquals(RedisKeys.domainPrefix("orders"),
                Arrays.copyOf(RedisKeys.recordKey(k), RedisKeys.domainPrefix("orders").length));
    }

    @Test
    void aDomainsPrefixNeverPrefixesAnotherDomainsKeys() {
        // "a" must not match records of "a.b" or "ab": the separator ends the domain.
        byte[] a = RedisKeys.domainPrefix("a");
        for (String other : new String[] {"ab", "a.b", "a-b", "a_b"}) {
            byte[] otherKey = RedisKeys.recordKey(new RecordKey(other, bytes("x")));
            assertFalse(Arrays.equals(a, Arrays.copyOf(otherKey, a.length)), other);
        }
    }

    @Test
    void globCharactersAreEscapedInScanPatterns() {
        assertEquals("a\\*b\\?c\\[d\\]e\\\\f", ascii(RedisKeys.escapeGlob(bytes("a*b?c[d]e\\f"))));
        assertEquals("tell:r:t.x$y-z_1:*", ascii(RedisKeys.scanPattern("t.x$y-z_1")));
    }

    @Test
    void versionsEncodeAsEightBigEndianBytes() {
        for (long v : new long[] {1, 255, 256, 1L << 40, (1L << 53) - 1, Long.MAX_VALUE}) {
            byte[] enc = RedisKeys.encodeVersion(v);
            assertEquals(8, enc.length);
            assertEquals(v, RedisKeys.decodeVersion(enc, 0));
        }
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 1, 2}, RedisKeys.encodeVersion(258));
    }

    @Test
    void storedRecordsDecodeToValueAndVersion() {
        assertNull(RedisKeys.decodeRecord(null));
        byte[] stored = RedisKeys.concat(RedisKeys.encodeVersion(42), bytes("value"));
        Versioned v = RedisKeys.decodeRecord(stored);
        assertEquals(42, v.version());
        assertArrayEquals(bytes("value"), v.value());
        assertEquals(0, RedisKeys.decodeRecord(RedisKeys.encodeVersion(7)).value().length);
        TellException e = assertThrows(TellException.class, () -> RedisKeys.decodeRecord(bytes("short")));
        assertEquals(ErrorCode.CORRUPT_DATA, e.code());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String ascii(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
