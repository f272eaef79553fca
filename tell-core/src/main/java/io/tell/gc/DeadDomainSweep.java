package io.tell.gc;

import io.tell.store.Expect;
import io.tell.store.KeyRange;
import io.tell.store.StoredRecord;
import io.tell.store.WriteOp;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Empties the domains of dropped tables and indexes ({@link SweepScope#deadDomains}).
 *
 * <p>A domain is not emptied the moment it is seen dead: a processing node with the old
 * catalog may still be running a transaction on it. The first pass that sees it dead writes a
 * <i>notice</i> {@code tell.sys/gc.dead/<domain>} = (the pass's tid, wall-clock millis); a later
 * pass empties it once lav has reached that tid (every transaction that was running when the
 * notice was written has ended) and the grace period has passed (a table being created has its
 * definition written a moment before the catalog names it). The notice then becomes
 * <i>done</i> (tid 0) so that the domain is not scanned again. A notice of a domain that is no
 * longer dead is dropped, so that a stale one can never shorten the wait.
 */
final class DeadDomainSweep {
    static final String DOMAIN = "tell.sys";
    private static final byte[] PREFIX = "gc.dead/".getBytes(StandardCharsets.UTF_8);

    private final SweepPass pass;

    DeadDomainSweep(SweepPass pass) {
        this.pass = pass;
    }

    void run(Set<String> dead) {
        Map<String, StoredRecord> notices = notices();
        List<WriteOp> changes = new ArrayList<>();
        for (Map.Entry<String, StoredRecord> n : notices.entrySet()) {
            if (!dead.contains(n.getKey())) {
                changes.add(WriteOp.delete(DOMAIN, n.getValue().key(), Expect.version(n.getValue().version())));
            }
        }
        for (String domain : dead) {
            StoredRecord notice = notices.get(domain);
            if (notice == null) {
                changes.add(WriteOp.insert(DOMAIN, key(domain), notice(pass.tid(), pass.startMillis())));
                continue;
            }
            ByteBuffer value = ByteBuffer.wrap(notice.value());
            long since = value.getLong();
            long sinceMillis = value.getLong();
            if (since == 0 || pass.lav() < since || pass.startMillis() - sinceMillis < pass.options().grace().toMillis()) {
                continue;
            }
            if (empty(domain)) {
                changes.add(WriteOp.put(DOMAIN, notice.key(), notice(0, sinceMillis), Expect.version(notice.version())));
            }
        }
        pass.writeAll(changes);
    }

    /** Deletes every record of {@code domain}; false when someone kept writing there (tried again next pass). */
    private boolean empty(String domain) {
        while (true) {
            List<StoredRecord> page = pass.page(domain, KeyRange.ALL);
            if (page.isEmpty()) {
                return true;
            }
            List<WriteOp> deletes = new ArrayList<>();
            for (StoredRecord r : page) {
                deletes.add(WriteOp.delete(domain, r.key(), Expect.version(r.version())));
            }
            int deleted = pass.writeAll(deletes);
            pass.counters().deadRecords.add(deleted);
            if (deleted == 0) {
                return false;
            }
        }
    }

    private Map<String, StoredRecord> notices() {
        Map<String, StoredRecord> out = new HashMap<>();
        byte[] from = PREFIX;
        byte[] to = Arrays.copyOf(PREFIX, PREFIX.length);
        to[to.length - 1]++;
        while (true) {
            List<StoredRecord> page = pass.page(DOMAIN, new KeyRange(from, to));
            for (StoredRecord r : page) {
                out.put(new String(r.key(), PREFIX.length, r.key().length - PREFIX.length, StandardCharsets.UTF_8), r);
            }
            if (page.size() < pass.options().pageSize()) {
                return out;
            }
            from = SweepPass.after(page.get(page.size() - 1).key());
        }
    }

    private static byte[] key(String domain) {
        byte[] d = domain.getBytes(StandardCharsets.UTF_8);
        byte[] k = Arrays.copyOf(PREFIX, PREFIX.length + d.length);
        System.arraycopy(d, 0, k, PREFIX.length, d.length);
        return k;
    }

    private static byte[] notice(long tid, long millis) {
        return ByteBuffer.allocate(16).putLong(tid).putLong(millis).array();
    }
}
