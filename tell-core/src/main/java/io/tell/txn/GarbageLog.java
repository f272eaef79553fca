package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The garbage a transaction leaves for the sweeper, written at commit next to its log entry
 * (same batch, no extra round trip; worked out by {@code IndexWriter}) in domain {@value #DOMAIN}, keyed by the tid like the log.
 * Tids are dense, so the sweeper finds every transaction's garbage by reading keys in tid order
 * up to lav, in batches, with no scan: on Redis a scan walks the whole keyspace.
 *
 * <p>What is listed becomes garbage only if the transaction commits and only once lav passes
 * its tid; the sweeper checks every item against the store before it deletes anything, so a
 * listing of an aborted or reverted transaction is harmless. Items:
 * <ul>
 *   <li>a row the transaction deleted ({@code tree == null}): its record goes once its newest
 *       version is a delete at or below lav;</li>
 *   <li>an index entry {@code (indexKey, rid)} that is stale once the row is gone: every key of
 *       a deleted row (of every version its record still held), and the old key of an update
 *       that changed it. Entries go only when the row is gone: rids are never reused, so no
 *       writer can give the row that key again. A unique index's claim of the key goes with it
 *       when the claim still names the row.</li>
 * </ul>
 *
 * <p>Value layout: item count (4 bytes), then per item: table (2-byte length + UTF-8), row key
 * (4-byte length + bytes), tree (2-byte length + UTF-8; empty for a row), unique (1 byte),
 * index key (4-byte length + bytes). All integers big-endian.
 */
public final class GarbageLog {
    public static final String DOMAIN = "tell.garbage";

    /** One item; {@code tree} is null for the row record itself. */
    public record Item(String table, byte[] rowKey, String tree, boolean unique, byte[] indexKey) {
        public static Item row(String table, byte[] rowKey) {
            return new Item(table, rowKey, null, false, new byte[0]);
        }

        public boolean isRow() {
            return tree == null;
        }

        public RecordKey rowRecord() {
            return new RecordKey(table, rowKey);
        }
    }

    private GarbageLog() {
    }

    public static RecordKey recordKey(long tid) {
        return new RecordKey(DOMAIN, TxLog.key(tid));
    }

    public static byte[] encode(List<Item> items) {
        List<byte[][]> parts = new ArrayList<>(items.size());
        int size = 4;
        for (Item i : items) {
            byte[] table = i.table().getBytes(StandardCharsets.UTF_8);
            byte[] tree = i.isRow() ? new byte[0] : i.tree().getBytes(StandardCharsets.UTF_8);
            parts.add(new byte[][] {table, tree});
            size += 2 + table.length + 4 + i.rowKey().length + 2 + tree.length + 1 + 4 + i.indexKey().length;
        }
        ByteBuffer buf = ByteBuffer.allocate(size).putInt(items.size());
        for (int n = 0; n < items.size(); n++) {
            Item i = items.get(n);
            byte[][] p = parts.get(n);
            buf.putShort((short) p[0].length).put(p[0]).putInt(i.rowKey().length).put(i.rowKey());
            buf.putShort((short) p[1].length).put(p[1]).put((byte) (i.unique() ? 1 : 0));
            buf.putInt(i.indexKey().length).put(i.indexKey());
        }
        return buf.array();
    }

    public static List<Item> decode(byte[] bytes) {
        try {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            int count = buf.getInt();
            if (count < 0 || count > bytes.length) {
                throw new IllegalArgumentException("item count " + count);
            }
            List<Item> out = new ArrayList<>(count);
            for (int n = 0; n < count; n++) {
                String table = string(buf);
                byte[] rowKey = bytes(buf);
                String tree = string(buf);
                boolean unique = buf.get() != 0;
                byte[] indexKey = bytes(buf);
                out.add(new Item(table, rowKey, tree.isEmpty() ? null : tree, unique, indexKey));
            }
            return out;
        } catch (RuntimeException e) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "bad garbage record", e);
        }
    }

    private static String string(ByteBuffer buf) {
        byte[] b = new byte[buf.getShort() & 0xFFFF];
        buf.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer buf) {
        byte[] b = new byte[buf.getInt()];
        buf.get(b);
        return b;
    }
}
