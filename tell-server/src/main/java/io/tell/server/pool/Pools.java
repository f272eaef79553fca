package io.tell.server.pool;

import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The pools of PN servers as a reader sees them (what {@code tell cluster status} and
 * {@code tell cluster url} print). A member is live when its heartbeat count changes while the
 * reader watches, by the reader's own clock, as commit managers judge processing-node leases;
 * one whose record does not change for {@code staleAfter} is stale (its server died or cannot
 * reach the store). Reading returns as soon as every member has shown a heartbeat, so with all
 * servers up it takes about one heartbeat period.
 */
public record Pools(List<Entry> entries) {
    /** With a 1 s heartbeat: three missed beats make a member stale. */
    public static final Duration DEFAULT_STALE_AFTER = Duration.ofSeconds(3);
    private static final long POLL_MILLIS = 100;

    /** A member record and whether its server is live. */
    public record Entry(String id, PoolMember member, boolean live) {
    }

    /** Reads the members of every pool, watching for up to {@code staleAfter} to tell live ones from stale ones. */
    public static Pools read(RecordStore store, Duration staleAfter) throws InterruptedException {
        Map<String, PoolMember> first = members(store);
        Map<String, Boolean> live = new TreeMap<>();
        first.keySet().forEach(id -> live.put(id, false));
        Map<String, PoolMember> last = first;
        long deadline = System.nanoTime() + staleAfter.toNanos();
        while (live.containsValue(false) && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
            last = members(store);
            for (Map.Entry<String, PoolMember> e : last.entrySet()) {
                PoolMember before = first.get(e.getKey());
                if (before == null || before.heartbeat() != e.getValue().heartbeat()) {
                    live.put(e.getKey(), true); // joined or beat while we watched
                }
            }
        }
        List<Entry> out = new ArrayList<>();
        for (Map.Entry<String, PoolMember> e : last.entrySet()) {
            out.add(new Entry(e.getKey(), e.getValue(), live.getOrDefault(e.getKey(), true)));
        }
        out.sort(java.util.Comparator.comparing((Entry x) -> x.member().pool()).thenComparing(x -> x.member().address()));
        return new Pools(List.copyOf(out));
    }

    /** The entries of {@code pool}, live or not. */
    public List<Entry> of(String pool) {
        return entries.stream().filter(e -> e.member().pool().equals(pool)).toList();
    }

    /** The live members of {@code pool}. */
    public List<PoolMember> live(String pool) {
        return of(pool).stream().filter(Entry::live).map(Entry::member).toList();
    }

    /**
     * The PostgreSQL JDBC driver's multi-host URL over the live members of {@code pool}, with
     * load balancing across them; empty when none is live.
     */
    public java.util.Optional<String> jdbcUrl(String pool, String database) {
        List<PoolMember> members = live(pool);
        if (members.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("jdbc:postgresql://" + members.stream().map(PoolMember::address).collect(Collectors.joining(","))
                + "/" + database + "?loadBalanceHosts=true&targetServerType=any");
    }

    /** One block per pool: each server, live or stale, with its load. */
    public String format(long nowMillis) {
        Map<String, List<Entry>> byPool = new LinkedHashMap<>();
        entries.forEach(e -> byPool.computeIfAbsent(e.member().pool(), p -> new ArrayList<>()).add(e));
        StringBuilder out = new StringBuilder();
        long liveCount = entries.stream().filter(Entry::live).count();
        out.append(String.format("pools (%d, %d servers live of %d):%n", byPool.size(), liveCount, entries.size()));
        byPool.forEach((pool, members) -> {
            out.append(String.format("  pool %s:%n", pool));
            for (Entry e : members) {
                PoolMember m = e.member();
                out.append(String.format("    %-22s %-5s pid %-8d up %-8s sessions %-4d statements/s %-8.1f heartbeat %s ago%s%n",
                        m.address(), e.live() ? "live" : "stale", m.pid(), seconds(nowMillis - m.startMillis()), m.sessions(),
                        m.statementsPerSecond(), seconds(nowMillis - m.heartbeatMillis()),
                        m.metricsPort() == PoolMember.NO_METRICS ? "" : "  metrics :" + m.metricsPort()));
            }
        });
        return out.toString();
    }

    private static String seconds(long millis) {
        return String.format("%.1fs", Math.max(0, millis) / 1000.0);
    }

    private static Map<String, PoolMember> members(RecordStore store) {
        List<String> ids = new ArrayList<>(PoolMembership.directory(store).read());
        Map<String, PoolMember> out = new TreeMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        List<RecordKey> keys = ids.stream().map(PoolMember::key).toList();
        List<Versioned> records = store.getAll(keys);
        for (int i = 0; i < ids.size(); i++) {
            if (records.get(i) != null) {
                out.put(ids.get(i), PoolMember.decode(records.get(i).value()));
            }
        }
        return out;
    }
}
