package io.tell.store.redis.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of a test's or tool's own: by default 3 primaries with one replica each, six
 * {@link RedisProcess}es on 127.0.0.1, created with {@code redis-cli --cluster create} and
 * returned once every node reports {@code cluster_state:ok}, all slots are served and every
 * replica is in sync. The node timeout is short (1 s) so fail-overs take a few seconds. A
 * killed primary {@link RedisProcess#restart restarted} on its port rejoins as the replica of
 * the node that took over.
 */
public final class RedisClusterProcesses implements AutoCloseable {
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private final List<RedisProcess> nodes;
    private final int replicasPerPrimary;

    private RedisClusterProcesses(List<RedisProcess> nodes, int replicasPerPrimary) {
        this.nodes = List.copyOf(nodes);
        this.replicasPerPrimary = replicasPerPrimary;
    }

    /** Three primaries, one replica each, in temporary directories. */
    public static RedisClusterProcesses start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The cluster's shape and where its nodes live. */
    public static final class Builder {
        private int primaries = 3;
        private int replicasPerPrimary = 1;
        private int nodeTimeoutMs = 1000;
        private Path dir;

        public Builder primaries(int n) {
            this.primaries = n;
            return this;
        }

        public Builder replicasPerPrimary(int n) {
            this.replicasPerPrimary = n;
            return this;
        }

        public Builder nodeTimeoutMs(int ms) {
            this.nodeTimeoutMs = ms;
            return this;
        }

        /** Node {@code i} runs (and logs) in {@code dir/redis-i}, kept after close; by default each has a temporary directory. */
        public Builder dir(Path dir) {
            this.dir = dir;
            return this;
        }

        public RedisClusterProcesses start() {
            return RedisClusterProcesses.start(this);
        }
    }

    private static RedisClusterProcesses start(Builder b) {
        int primaries = b.primaries;
        int replicasPerPrimary = b.replicasPerPrimary;
        List<RedisProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < primaries * (1 + replicasPerPrimary); i++) {
                RedisProcess.Builder node = RedisProcess.builder().cluster(true).clusterNodeTimeoutMs(b.nodeTimeoutMs);
                if (b.dir != null) {
                    node.dir(b.dir.resolve("redis-" + i));
                }
                nodes.add(node.start());
            }
            List<String> cmd = new ArrayList<>(List.of(RedisBinaries.cli(), "--cluster", "create"));
            for (RedisProcess n : nodes) {
                cmd.add(n.host() + ":" + n.port());
            }
            cmd.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerPrimary), "--cluster-yes"));
            run(cmd);
            RedisClusterProcesses cluster = new RedisClusterProcesses(nodes, replicasPerPrimary);
            cluster.awaitHealthy(READY_TIMEOUT);
            return cluster;
        } catch (RuntimeException | Error e) {
            nodes.forEach(RedisProcess::close);
            throw e;
        }
    }

    /** All nodes, running or not, in creation order. */
    public List<RedisProcess> nodes() {
        return nodes;
    }

    /** {@code redis://h:p,h:p,...} over every node; append {@code ?replicas=1} etc. as needed. */
    public String url() {
        return "redis://" + nodes.stream().map(n -> n.host() + ":" + n.port()).collect(Collectors.joining(","));
    }

    /** The running nodes that serve slots as primaries, as the live nodes see it now. */
    public List<RedisProcess> primaries() {
        Map<Integer, RedisProcess> byPort = byPort();
        List<RedisProcess> out = new ArrayList<>();
        for (NodeLine line : clusterNodes(anyLiveNode())) {
            if (line.primary && line.hasSlots && !line.failed && byPort.containsKey(line.port)
                    && byPort.get(line.port).isRunning()) {
                out.add(byPort.get(line.port));
            }
        }
        return out;
    }

    public List<Long> primaryPids() {
        return primaries().stream().map(RedisProcess::pid).toList();
    }

    /** The primary serving {@code slot} now. */
    public RedisProcess primaryFor(int slot) {
        Map<Integer, RedisProcess> byPort = byPort();
        for (NodeLine line : clusterNodes(anyLiveNode())) {
            if (line.primary && !line.failed && line.serves(slot)) {
                return byPort.get(line.port);
            }
        }
        throw new IllegalStateException("no live primary serves slot " + slot);
    }

    /** The running replicas of {@code primary}, as the live nodes see it now. */
    public List<RedisProcess> replicasOf(RedisProcess primary) {
        Map<Integer, RedisProcess> byPort = byPort();
        List<NodeLine> lines = clusterNodes(anyLiveNode());
        String primaryId = lines.stream().filter(l -> l.port == primary.port()).map(NodeLine::id).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(primary + " is not in the cluster"));
        List<RedisProcess> out = new ArrayList<>();
        for (NodeLine line : lines) {
            RedisProcess p = byPort.get(line.port);
            if (primaryId.equals(line.primaryId) && p != null && p.isRunning()) {
                out.add(p);
            }
        }
        return out;
    }

    /** The slots {@code primary} serves now. */
    public BitSet slotsOf(RedisProcess primary) {
        BitSet slots = new BitSet(16384);
        for (NodeLine line : clusterNodes(anyLiveNode())) {
            if (line.port == primary.port()) {
                line.ranges.forEach(r -> slots.set(r[0], r[1] + 1));
            }
        }
        return slots;
    }

    /**
     * Moves {@code slot} and its keys to the primary {@code target} while the cluster serves
     * traffic, as {@code redis-cli --cluster reshard} does: {@link #openSlotMigration},
     * {@link #moveSlotKeys}, {@link #closeSlotMigration}.
     */
    public void migrateSlot(int slot, RedisProcess target) {
        if (primaryFor(slot) == target) {
            return;
        }
        RedisProcess source = openSlotMigration(slot, target);
        moveSlotKeys(slot, source, target);
        closeSlotMigration(slot, source, target);
    }

    /** Marks {@code slot} importing on {@code target} and migrating on its current primary, which it returns. */
    public RedisProcess openSlotMigration(int slot, RedisProcess target) {
        RedisProcess source = primaryFor(slot);
        target.call("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", nodeId(source));
        source.call("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", nodeId(target));
        return source;
    }

    /** MIGRATEs every key of {@code slot} from {@code source} to {@code target}, 100 at a time. */
    @SuppressWarnings("unchecked")
    public void moveSlotKeys(int slot, RedisProcess source, RedisProcess target) {
        while (true) {
            List<Object> keys = (List<Object>) source.call("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot), "100");
            if (keys.isEmpty()) {
                return;
            }
            List<String> migrate = new ArrayList<>(List.of("MIGRATE", target.host(), Integer.toString(target.port()), "",
                    "0", "5000", "KEYS"));
            keys.forEach(k -> migrate.add((String) k));
            source.call(migrate.toArray(String[]::new));
        }
    }

    /** Assigns {@code slot} to {@code target} on every primary, ending the migration. */
    public void closeSlotMigration(int slot, RedisProcess source, RedisProcess target) {
        String s = Integer.toString(slot);
        String targetId = nodeId(target);
        target.call("CLUSTER", "SETSLOT", s, "NODE", targetId);
        source.call("CLUSTER", "SETSLOT", s, "NODE", targetId);
        for (RedisProcess other : primaries()) {
            if (other != source && other != target) {
                other.call("CLUSTER", "SETSLOT", s, "NODE", targetId);
            }
        }
    }

    private static String nodeId(RedisProcess node) {
        return (String) node.call("CLUSTER", "MYID");
    }

    /** Kills the primary with process id {@code pid} (SIGKILL) and returns it. */
    public RedisProcess killPrimary(long pid) {
        for (RedisProcess p : primaries()) {
            if (p.pid() == pid) {
                p.kill();
                return p;
            }
        }
        throw new IllegalArgumentException("no running primary has pid " + pid);
    }

    /**
     * Waits until the cluster is whole again: every running node says {@code cluster_state:ok}
     * with all 16384 slots served by running primaries, and every such primary has its replicas
     * online.
     */
    public void awaitHealthy(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String why = "";
        while (System.nanoTime() < deadline) {
            why = unhealthyBecause();
            if (why == null) {
                return;
            }
            RedisProcess.sleep(100);
        }
        throw new IllegalStateException("cluster not healthy within " + timeout + ": " + why);
    }

    /** Waits until the slots of killed primaries are served by promoted replicas (replicas may still be missing). */
    public void awaitFailover(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (slotsServedByRunningPrimaries() == 16384) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // A node may be briefly unreachable.
            }
            RedisProcess.sleep(100);
        }
        throw new IllegalStateException("no fail-over within " + timeout);
    }

    @Override
    public void close() {
        nodes.forEach(RedisProcess::close);
    }

    private String unhealthyBecause() {
        try {
            for (RedisProcess n : nodes) {
                if (!n.isRunning()) {
                    continue;
                }
                String info = (String) n.call("CLUSTER", "INFO");
                if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:16384")) {
                    return n + " says " + info.lines().limit(3).toList();
                }
            }
            if (slotsServedByRunningPrimaries() != 16384) {
                return "not all slots are served by running primaries";
            }
            for (RedisProcess p : primaries()) {
                String replication = (String) p.call("INFO", "replication");
                long online = replication.lines().filter(l -> l.startsWith("slave") && l.contains("state=online")).count();
                if (online < replicasPerPrimary) {
                    return p + " has " + online + " online replicas";
                }
            }
            return null;
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    private int slotsServedByRunningPrimaries() {
        int served = 0;
        Map<Integer, RedisProcess> byPort = byPort();
        for (NodeLine line : clusterNodes(anyLiveNode())) {
            RedisProcess p = byPort.get(line.port);
            if (line.primary && !line.failed && p != null && p.isRunning()) {
                served += line.slotCount;
            }
        }
        return served;
    }

    private RedisProcess anyLiveNode() {
        return nodes.stream().filter(RedisProcess::isRunning).findFirst()
                .orElseThrow(() -> new IllegalStateException("no cluster node is running"));
    }

    private Map<Integer, RedisProcess> byPort() {
        Map<Integer, RedisProcess> map = new HashMap<>();
        nodes.forEach(n -> map.put(n.port(), n));
        return map;
    }

    /** One line of CLUSTER NODES. */
    private record NodeLine(String id, int port, String primaryId, boolean primary, boolean failed, boolean hasSlots,
            int slotCount, List<int[]> ranges) {
        boolean serves(int slot) {
            return ranges.stream().anyMatch(r -> slot >= r[0] && slot <= r[1]);
        }
    }

    private static List<NodeLine> clusterNodes(RedisProcess node) {
        List<NodeLine> out = new ArrayList<>();
        for (String line : ((String) node.call("CLUSTER", "NODES")).split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length < 8) {
                continue;
            }
            String address = f[1].split("@")[0];
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            String flags = f[2];
            List<int[]> ranges = new ArrayList<>();
            int count = 0;
            for (int i = 8; i < f.length; i++) {
                if (f[i].startsWith("[")) {
                    continue; // a slot being migrated or imported
                }
                String[] r = f[i].split("-");
                int from = Integer.parseInt(r[0]);
                int to = r.length > 1 ? Integer.parseInt(r[1]) : from;
                ranges.add(new int[] {from, to});
                count += to - from + 1;
            }
            out.add(new NodeLine(f[0], port, f[3], flags.contains("master"), flags.contains("fail"), !ranges.isEmpty(),
                    count, ranges));
        }
        return out;
    }

    private static void run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed:\n" + new String(out, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
