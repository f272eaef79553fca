package io.tell.store.redis;

import io.lettuce.core.cluster.SlotHash;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How records, counters and version counters are laid out in Redis keys and values.
 *
 * <ul>
 *   <li>A record lives at {@code tell:r:<domain>:<key bytes>}; its value is the 8-byte
 *       big-endian version followed by the value bytes, so one GET reads both.</li>
 *   <li>A counter lives at {@code tell:c:<domain>:<key bytes>}, apart from records, so a
 *       counter never touches a record with the same domain and key.</li>
 *   <li>Versions come from one counter per cluster slot, {@code tell:v:{<tag>}}, where the tag
 *       is a string chosen so the counter hashes to that slot. A record and the counter of its
 *       slot are therefore always on the same node (and move together when the slot migrates),
 *       so one server-side function can read the record, draw a version and write atomically.
 *       The counter survives deletes, which is what keeps versions from repeating.</li>
 * </ul>
 * Domain names cannot contain {@code ':'} (see {@link io.tell.store.Domains}), so the first
 * {@code ':'} after the domain ends it and key bytes may be anything.
 */
final class RedisKeys {
    static final int VERSION_BYTES = 8;

    private static final byte[] RECORD_PREFIX = ascii("tell:r:");
    private static final byte[] COUNTER_PREFIX = ascii("tell:c:");
    /** Domains are few (a few per table), and every record key is made from one. */
    private static final Map<String, byte[]> DOMAIN_PREFIXES = new ConcurrentHashMap<>();
    private static final int MAX_DOMAIN_PREFIXES = 10_000;

    private RedisKeys() {
    }

    static byte[] recordKey(RecordKey key) {
        return concat(domainPrefix(key.domain()), key.key());
    }

    static byte[] counterKey(RecordKey key) {
        return concat(concat(COUNTER_PREFIX, ascii(key.domain() + ":")), key.key());
    }

    /** The prefix every record key of {@code domain} starts with. Do not modify. */
    static byte[] domainPrefix(String domain) {
        byte[] prefix = DOMAIN_PREFIXES.get(domain);
        if (prefix == null) {
            prefix = concat(RECORD_PREFIX, ascii(domain + ":"));
            if (DOMAIN_PREFIXES.size() < MAX_DOMAIN_PREFIXES) {
                DOMAIN_PREFIXES.put(domain, prefix);
            }
        }
        return prefix;
    }

    /** True for a record's key, false for a counter's (or any other) key. */
    static boolean isRecordKey(byte[] redisKey) {
        return startsWith(redisKey, RECORD_PREFIX);
    }

    /** The domain of a record's or counter's key; null for any other key. */
    static String domainOf(byte[] redisKey) {
        if (!startsWith(redisKey, RECORD_PREFIX) && !startsWith(redisKey, COUNTER_PREFIX)) {
            return null;
        }
        int from = RECORD_PREFIX.length; // both prefixes are as long
        for (int i = from; i < redisKey.length; i++) {
            if (redisKey[i] == ':') {
                return new String(redisKey, from, i - from, StandardCharsets.US_ASCII);
            }
        }
        return null;
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** The SCAN MATCH pattern for the records of {@code domain}. */
    static byte[] scanPattern(String domain) {
        return concat(escapeGlob(domainPrefix(domain)), new byte[] {'*'});
    }

    /** The version counter key for the cluster slot {@code slot}. */
    static byte[] versionKey(int slot) {
        return VersionKeys.KEYS[slot];
    }

    static int slot(byte[] redisKey) {
        return SlotHash.getSlot(redisKey);
    }

    /** Escapes the characters Redis glob patterns treat specially, so they match literally. */
    static byte[] escapeGlob(byte[] literal) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(literal.length + 8);
        for (byte b : literal) {
            if (b == '*' || b == '?' || b == '[' || b == ']' || b == '\\') {
                out.write('\\');
            }
            out.write(b);
        }
        return out.toByteArray();
    }

    /** The 8 bytes a stored record starts with for {@code version}. */
    static byte[] encodeVersion(long version) {
        byte[] out = new byte[VERSION_BYTES];
        for (int i = VERSION_BYTES - 1; i >= 0; i--) {
            out[i] = (byte) version;
            version >>>= 8;
        }
        return out;
    }

    static long decodeVersion(byte[] bytes, int offset) {
        long v = 0;
        for (int i = 0; i < VERSION_BYTES; i++) {
            v = (v << 8) | (bytes[offset + i] & 0xff);
        }
        return v;
    }

    /** Decodes a stored record; {@code null} stays {@code null} (absent). */
    static Versioned decodeRecord(byte[] stored) {
        if (stored == null) {
            return null;
        }
        if (stored.length < VERSION_BYTES) {
            throw TellException.of(ErrorCode.CORRUPT_DATA,
                    "redis record of " + stored.length + " bytes is shorter than its version header");
        }
        long version = decodeVersion(stored, 0);
        if (version <= 0) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "redis record carries version " + version);
        }
        return new Versioned(Arrays.copyOfRange(stored, VERSION_BYTES, stored.length), version);
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** One version counter key per slot, computed once (about 160k CRC16s of short strings). */
    private static final class VersionKeys {
        static final byte[][] KEYS = build();

        private static byte[][] build() {
            byte[][] keys = new byte[SlotHash.SLOT_COUNT][];
            int missing = SlotHash.SLOT_COUNT;
            for (long n = 0; missing > 0; n++) {
                String tag = Long.toString(n, 36);
                int slot = SlotHash.getSlot(ascii(tag));
                if (keys[slot] == null) {
                    keys[slot] = ascii("tell:v:{" + tag + "}");
                    missing--;
                }
            }
            return keys;
        }
    }
}
