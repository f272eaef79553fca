package io.tell.gc;

import io.tell.index.BTreeConfig;
import io.tell.index.internal.NodeStore;
import io.tell.index.internal.UnreachableRecords;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Deletes tree records no walk from the root reaches: what a tree client left when it died
 * after writing a node record and before swinging it in, or with superseded records still
 * queued for its next write. Such leftovers come only from crashes, so an audit runs rarely
 * ({@link SweepOptions#treeAuditInterval()}) and in two steps, kept in one record,
 * {@code tell.sys/gc.trees}:
 * <ol>
 *   <li><b>Schedule:</b> read every live tree's id counter (one round trip each) and store the
 *       values with the time.</li>
 *   <li><b>Audit</b>, once {@link NodeStore#ID_RANGE_LIFE_MILLIS} plus twice the grace period
 *       has passed: by then no client hands out an id at or below those values any more and
 *       every write that used one has landed, so such a record that is unreachable stays so
 *       ({@link UnreachableRecords}). Each tree is walked and its mapping and node domains
 *       scanned; the unreachable records at or below its value are deleted, conditional on the
 *       version scanned.</li>
 * </ol>
 * The scans make an audit cost O(size of the trees), and on Redis O(keyspace) per page of
 * {@value #BATCH} records.
 */
final class TreeAudit {
    static final RecordKey KEY = new RecordKey("tell.sys", "gc.trees".getBytes(StandardCharsets.UTF_8));
    static final int BATCH = 10_000;

    /** Where audits stand: when the pending one was scheduled (0: none), when the last ended, and the trees' id ceilings. */
    private record State(long scheduledMillis, long lastEndMillis, Map<String, Long> ceilings) {
    }

    private final SweepPass pass;
    private final List<SweepScope.Table> tables;

    TreeAudit(SweepPass pass, List<SweepScope.Table> tables) {
        this.pass = pass;
        this.tables = tables;
    }

    void run() {
        pass.checkLease();
        Versioned stored = pass.store().get(KEY.domain(), KEY.key());
        State state = stored == null ? new State(0, 0, Map.of()) : decode(stored.value());
        long now = pass.startMillis();
        State next;
        if (state.scheduledMillis() == 0) {
            if (now - state.lastEndMillis() < pass.options().treeAuditInterval().toMillis()) {
                return;
            }
            Map<String, Long> ceilings = new TreeMap<>();
            for (String tree : liveTrees()) {
                ceilings.put(tree, UnreachableRecords.idCeiling(pass.store(), tree));
            }
            next = new State(now, state.lastEndMillis(), ceilings);
        } else {
            if (now - state.scheduledMillis() < NodeStore.ID_RANGE_LIFE_MILLIS + 2 * pass.options().grace().toMillis()) {
                return;
            }
            Set<String> live = liveTrees();
            for (Map.Entry<String, Long> tree : state.ceilings().entrySet()) {
                if (live.contains(tree.getKey())) { // a dropped tree's storage is purged whole
                    audit(tree.getKey(), tree.getValue());
                }
            }
            next = new State(0, System.currentTimeMillis(), Map.of());
        }
        Expect expect = stored == null ? Expect.ABSENT : Expect.version(stored.version());
        pass.writeAll(List.of(new WriteOp(KEY, encode(next), expect))); // lost to a racing holder: next pass
    }

    /** Where audits stand in {@code store}, for {@code cluster status}; null when none was ever scheduled. */
    static String progress(RecordStore store) {
        Versioned stored = store.get(KEY.domain(), KEY.key());
        if (stored == null) {
            return null;
        }
        State s = decode(stored.value());
        String last = s.lastEndMillis() == 0 ? "no tree audit ended yet"
                : "last tree audit ended " + Instant.ofEpochMilli(s.lastEndMillis());
        return s.scheduledMillis() == 0 ? last
                : last + ", an audit of " + s.ceilings().size() + " trees scheduled " + Instant.ofEpochMilli(s.scheduledMillis());
    }

    private void audit(String tree, long ceiling) {
        List<WriteOp> deletes = UnreachableRecords.find(pass.store(), tree, ceiling, BATCH);
        for (int from = 0; from < deletes.size(); from += pass.options().pageSize()) {
            List<WriteOp> chunk = deletes.subList(from, Math.min(deletes.size(), from + pass.options().pageSize()));
            pass.counters().treeRecords.add(pass.writeAll(chunk));
            pass.pacer().pace(chunk.size());
        }
    }

    private Set<String> liveTrees() {
        Set<String> out = new TreeSet<>();
        for (SweepScope.Table t : tables) {
            for (BTreeConfig c : t.indexes()) {
                out.add(c.name());
            }
        }
        return out;
    }

    private static byte[] encode(State s) {
        List<byte[]> names = new ArrayList<>();
        int size = 8 + 8 + 4;
        for (String tree : s.ceilings().keySet()) {
            byte[] b = tree.getBytes(StandardCharsets.UTF_8);
            names.add(b);
            size += 2 + b.length + 8;
        }
        ByteBuffer buf = ByteBuffer.allocate(size).putLong(s.scheduledMillis()).putLong(s.lastEndMillis())
                .putInt(s.ceilings().size());
        int i = 0;
        for (long ceiling : s.ceilings().values()) {
            byte[] b = names.get(i++);
            buf.putShort((short) b.length).put(b).putLong(ceiling);
        }
        return buf.array();
    }

    private static State decode(byte[] value) {
        ByteBuffer buf = ByteBuffer.wrap(value);
        long scheduled = buf.getLong();
        long lastEnd = buf.getLong();
        Map<String, Long> ceilings = new TreeMap<>();
        for (int n = buf.getInt(); n > 0; n--) {
            byte[] b = new byte[buf.getShort() & 0xFFFF];
            buf.get(b);
            ceilings.put(new String(b, StandardCharsets.UTF_8), buf.getLong());
        }
        return new State(scheduled, lastEnd, ceilings);
    }
}
