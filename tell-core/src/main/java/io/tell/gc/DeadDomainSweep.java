package io.tell.gc;

import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Empties the domains of dropped tables and indexes ({@link SweepScope#deadDomains}).
 *
 * <p>A domain is not emptied the moment it is seen dead: a processing node with the old
 * catalog may still be running a transaction on it. The first pass that sees it dead records a
 * <i>notice</i> for it = (the pass's tid, wall-clock millis); a later pass empties it once lav
 * has reached that tid (every transaction that was running when the notice was written has
 * ended) and the grace period has passed (a table being created has its definition written a
 * moment before the catalog names it). The notice then becomes <i>done</i> (tid 0) so that the
 * domain is not scanned again. A notice of a domain that is no longer dead is dropped, so that a
 * stale one can never shorten the wait.
 *
 * <p>Due domains are emptied together with one {@link io.tell.store.RecordStore#purgeAsync purge}
 * of the store (on Redis one walk of the keyspace, however many domains and records), not by
 * scanning each domain page by page.
 *
 * <p>All notices live in one record, {@code tell.sys/gc.dead}, read with one get and changed
 * with a write conditional on its version, so a pass with nothing dropped costs one read here.
 */
final class DeadDomainSweep {
    static final RecordKey KEY = new RecordKey("tell.sys", "gc.dead".getBytes(StandardCharsets.UTF_8));

    /** When a domain was first seen dead: the pass's tid (0 once emptied) and wall-clock millis. */
    private record Notice(long tid, long millis) {
    }

    private final SweepPass pass;

    DeadDomainSweep(SweepPass pass) {
        this.pass = pass;
    }

    void run(Set<String> dead) {
        pass.checkLease();
        Versioned stored = pass.store().get(KEY.domain(), KEY.key());
        Map<String, Notice> notices = stored == null ? new TreeMap<>() : decode(stored.value());
        Map<String, Notice> next = new TreeMap<>(notices);
        next.keySet().retainAll(dead);
        Set<String> due = new TreeSet<>();
        for (String domain : dead) {
            Notice notice = notices.get(domain);
            if (notice == null) {
                next.put(domain, new Notice(pass.tid(), pass.startMillis()));
            } else if (notice.tid() != 0 && pass.lav() >= notice.tid()
                    && pass.startMillis() - notice.millis() >= pass.options().grace().toMillis()) {
                due.add(domain);
            }
        }
        if (!due.isEmpty() && empty(due)) {
            due.forEach(domain -> next.put(domain, new Notice(0, notices.get(domain).millis())));
        }
        if (!next.equals(notices)) {
            Expect expect = stored == null ? Expect.ABSENT : Expect.version(stored.version());
            pass.writeAll(List.of(new WriteOp(KEY, encode(next), expect))); // lost to a racing holder: next pass
        }
    }

    /**
     * Purges {@code domains} (one walk of the store for all of them) and purges again when the
     * first purge found records, since a write racing with a walk may survive it; true when the
     * last purge found nothing (else they are tried again next pass).
     */
    private boolean empty(Set<String> domains) {
        for (int attempt = 0; attempt < 2; attempt++) {
            long deleted = pass.purge(domains);
            if (deleted == 0) {
                return true;
            }
        }
        return false;
    }

    private static byte[] encode(Map<String, Notice> notices) {
        List<byte[]> names = new ArrayList<>();
        int size = 4;
        for (String d : notices.keySet()) {
            byte[] b = d.getBytes(StandardCharsets.UTF_8);
            names.add(b);
            size += 2 + b.length + 16;
        }
        ByteBuffer buf = ByteBuffer.allocate(size).putInt(notices.size());
        int i = 0;
        for (Notice n : notices.values()) {
            byte[] b = names.get(i++);
            buf.putShort((short) b.length).put(b).putLong(n.tid()).putLong(n.millis());
        }
        return buf.array();
    }

    private static Map<String, Notice> decode(byte[] value) {
        ByteBuffer buf = ByteBuffer.wrap(value);
        Map<String, Notice> out = new TreeMap<>();
        for (int n = buf.getInt(); n > 0; n--) {
            byte[] b = new byte[buf.getShort() & 0xFFFF];
            buf.get(b);
            out.put(new String(b, StandardCharsets.UTF_8), new Notice(buf.getLong(), buf.getLong()));
        }
        return out;
    }
}
