package io.tell.cm;

import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.txn.Directory;
import io.tell.txn.NodeLease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a cluster over one store looks like from its records (what {@code tell cluster status}
 * prints): the commit managers with their tid ranges, completion base and lav; the processing
 * nodes with their leases; the sweeper's holder and progress. Liveness is judged as the members judge it: a
 * heartbeat that changed between two reads {@code sample} apart.
 */
public record ClusterStatus(long tidCounter, List<Member> members, List<Node> nodes, String sweeper) {
    public record Member(long id, boolean alive, boolean closed, long base, long lav, List<long[]> ranges) {
    }

    public record Node(String id, boolean alive, boolean recovering, int leaseMillis, long lowestBase) {
    }

    public static ClusterStatus read(RecordStore store, Duration sample) throws InterruptedException {
        Map<Long, MemberRecord> first = members(store);
        Map<String, NodeLease.Record> firstLeases = leases(store);
        Thread.sleep(sample.toMillis());
        Map<Long, MemberRecord> second = members(store);
        Map<String, NodeLease.Record> secondLeases = leases(store);
        List<Member> members = new ArrayList<>();
        second.forEach((id, r) -> {
            MemberRecord before = first.get(id);
            boolean alive = before == null || before.heartbeat() != r.heartbeat();
            members.add(new Member(id, alive, r.closed(), r.base(), r.lav(), r.ranges()));
        });
        List<Node> nodes = new ArrayList<>();
        secondLeases.forEach((id, r) -> {
            NodeLease.Record before = firstLeases.get(id);
            boolean alive = !r.recovering() && (before == null || before.heartbeat() != r.heartbeat());
            nodes.add(new Node(id, alive, r.recovering(), r.leaseMillis(), r.lowestBase()));
        });
        long counter = store.increment(LocalCommitManager.SYSTEM_DOMAIN, LocalCommitManager.TID_COUNTER, 0);
        return new ClusterStatus(counter, members, nodes, io.tell.gc.Sweeper.progress(store));
    }

    /**
     * A bound on the tids the other commit managers than the one that handed out {@code tid}
     * may have handed out before it: the end of the highest range their records name (a member
     * uses a range only once its record names it, and drops it once all of it completed), the
     * member whose range holds {@code tid} left out, as it hands tids out in order. 0 when no
     * other member publishes (one commit manager, or an embedded one). Two store calls.
     */
    public static long highestReservedElsewhere(RecordStore store, long tid) {
        long highest = 0;
        for (MemberRecord r : members(store).values()) {
            if (r.ranges().stream().noneMatch(range -> tid >= range[0] && tid <= range[1])) {
                for (long[] range : r.ranges()) {
                    highest = Math.max(highest, range[1]);
                }
            }
        }
        return highest;
    }

    /** The highest base any member published: every tid at or below it completed. */
    public long base() {
        return members.stream().mapToLong(Member::base).max().orElse(0);
    }

    /** The cluster's lav: no one reads below it (members' and live nodes' lowest bases). */
    public long lav() {
        long lav = members.stream().mapToLong(Member::lav).min().orElse(base());
        for (Node n : nodes) {
            if (n.alive()) {
                lav = Math.min(lav, n.lowestBase());
            }
        }
        return lav;
    }

    public String format() {
        StringBuilder out = new StringBuilder();
        out.append(String.format("tids issued up to %d, base %d, lav %d%n", tidCounter, base(), lav()));
        out.append(String.format("commit managers (%d):%n", members.size()));
        for (Member m : members) {
            StringBuilder ranges = new StringBuilder();
            for (long[] r : m.ranges()) {
                ranges.append(ranges.isEmpty() ? "" : ", ").append(r[0]).append("..").append(r[1]);
            }
            out.append(String.format("  cm %-6d %-7s base %-10d lav %-10d open ranges [%s]%n", m.id(),
                    m.closed() ? "closed" : m.alive() ? "alive" : "silent", m.base(), m.lav(), ranges));
        }
        out.append(String.format("processing nodes (%d):%n", nodes.size()));
        for (Node n : nodes) {
            out.append(String.format("  %-40s %-10s lease %5d ms  oldest snapshot base %s%n", n.id(),
                    n.recovering() ? "recovering" : n.alive() ? "alive" : "silent", n.leaseMillis(),
                    n.lowestBase() == Long.MAX_VALUE ? "-" : Long.toString(n.lowestBase())));
        }
        out.append("sweeper: ").append(sweeper == null ? "never started" : sweeper).append('\n');
        return out.toString();
    }

    private static Map<Long, MemberRecord> members(RecordStore store) {
        List<Long> ids = new ArrayList<>();
        List<RecordKey> keys = new ArrayList<>();
        for (String name : new Directory(store, LocalCommitManager.SYSTEM_DOMAIN, "cm").read()) {
            ids.add(Long.parseLong(name));
            keys.add(MemberRecord.key(Long.parseLong(name)));
        }
        Map<Long, MemberRecord> out = new HashMap<>();
        List<Versioned> records = keys.isEmpty() ? List.of() : store.getAll(keys);
        for (int i = 0; i < ids.size(); i++) {
            if (records.get(i) != null) {
                out.put(ids.get(i), MemberRecord.decode(records.get(i).value()));
            }
        }
        return out;
    }

    private static Map<String, NodeLease.Record> leases(RecordStore store) {
        Map<String, NodeLease.Record> out = new HashMap<>();
        for (NodeLease.Leased l : NodeLease.all(store)) {
            if (l.record() != null) {
                out.put(l.id(), l.record());
            }
        }
        return out;
    }
}
