package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The transaction log: one record per writing transaction in domain {@value #DOMAIN}, keyed by
 * the tid (8 bytes, big-endian), written with insert-if-absent <i>before</i> any data record
 * is touched, so that recovery can find and revert what a crashed processing node wrote.
 *
 * <p>An entry moves from {@link State#WRITING} to exactly one end, each by a write
 * conditional on the version the writer read, so exactly one of them wins:
 * <ul>
 *   <li>{@link State#COMMITTED}: the commit was decided, by its processing node in the batch
 *       that ended its writes, or by the commit manager on the node's report. The entry is
 *       deleted once the commit manager has journaled the tid.</li>
 *   <li>{@link State#FENCED}: recovery of a dead processing node (or of a tid whose commit
 *       manager died) took the tid over: it reverts the keys listed, then reports the tid
 *       aborted. A report of the owner that comes later is refused.</li>
 *   <li>{@link State#WITHDRAWN}: the node itself gave the commit up after a batch carrying
 *       its decision went unanswered, so that no late copy of the batch can decide; it reverts
 *       the keys and reports the abort (recovery treats it as {@code FENCED}).</li>
 * </ul>
 * A tid that has no entry is fenced by inserting a {@code FENCED} entry without keys: its
 * owner's own insert then conflicts and it aborts before writing anything.
 *
 * <p>Value layout: state (1 byte), processing-node id (2-byte length + UTF-8), wall-clock
 * millis (8 bytes), key count (4 bytes), then per key: domain (2-byte length + UTF-8) and key
 * (4-byte length + bytes). All integers big-endian.
 */
public final class TxLog {
    public static final String DOMAIN = "tell.txlog";

    public enum State { WRITING, FENCED, COMMITTED, WITHDRAWN }

    public record Entry(State state, String node, long millis, List<RecordKey> keys) {
        /** This entry in another state, everything else kept. */
        public Entry in(State next) {
            return new Entry(next, node, millis, keys);
        }
    }

    private TxLog() {
    }

    public static byte[] key(long tid) {
        return ByteBuffer.allocate(8).putLong(tid).array();
    }

    public static RecordKey recordKey(long tid) {
        return new RecordKey(DOMAIN, key(tid));
    }

    public static byte[] encode(Entry e) {
        byte[] node = e.node().getBytes(StandardCharsets.UTF_8);
        int size = 1 + 2 + node.length + 8 + 4;
        List<byte[]> domains = new ArrayList<>(e.keys().size());
        for (RecordKey k : e.keys()) {
            byte[] d = k.domain().getBytes(StandardCharsets.UTF_8);
            domains.add(d);
            size += 2 + d.length + 4 + k.key().length;
        }
        ByteBuffer buf = ByteBuffer.allocate(size);
        buf.put((byte) e.state().ordinal()).putShort((short) node.length).put(node).putLong(e.millis()).putInt(e.keys().size());
        for (int i = 0; i < e.keys().size(); i++) {
            byte[] d = domains.get(i);
            byte[] k = e.keys().get(i).key();
            buf.putShort((short) d.length).put(d).putInt(k.length).put(k);
        }
        return buf.array();
    }

    public static Entry decode(byte[] bytes) {
        try {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            int ordinal = buf.get();
            if (ordinal < 0 || ordinal >= State.values().length) {
                throw new IllegalArgumentException("state " + ordinal);
            }
            State state = State.values()[ordinal];
            String node = string(buf, buf.getShort() & 0xffff);
            long millis = buf.getLong();
            int n = buf.getInt();
            List<RecordKey> keys = new ArrayList<>(Math.min(n, 1024));
            for (int i = 0; i < n; i++) {
                String domain = string(buf, buf.getShort() & 0xffff);
                byte[] key = new byte[buf.getInt()];
                buf.get(key);
                keys.add(new RecordKey(domain, key));
            }
            return new Entry(state, node, millis, keys);
        } catch (RuntimeException e) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "bad transaction log entry", e);
        }
    }

    private static String string(ByteBuffer buf, int len) {
        byte[] b = new byte[len];
        buf.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
