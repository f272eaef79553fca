package io.tell.bench.cluster;

import io.tell.bench.process.ExitGuard;
import io.tell.bench.process.JavaProcess;
import io.tell.server.pool.PoolMember;
import io.tell.server.pool.Pools;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.process.RedisBinaries;
import io.tell.store.redis.process.RedisProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code tell cluster up}: a whole Tell cluster as local processes on 127.0.0.1 — a Redis
 * Cluster of 3 primaries and 3 replicas, 2 commit managers, an OLTP pool of 2 PN servers and
 * an OLAP pool of 1, each Tell process with a metrics endpoint. The processes outlive this
 * command (each in its own session, output in a log file under DIR); {@link ClusterState}
 * records them for {@code tell cluster down}. PN servers use trust authentication, which they
 * accept on loopback only: a local development cluster, not a deployment.
 */
public final class LocalCluster {
    /** The pools it starts and how many servers each. */
    public static final Map<String, Integer> POOLS = pools();
    private static final String HOST = RedisProcess.HOST;
    private static final int REDIS_NODES = 6;
    private static final int COMMIT_MANAGERS = 2;
    /** How long {@code up} waits for the whole cluster; the system property is for tests of a failed start. */
    private static final String START_TIMEOUT_PROPERTY = "tell.cluster.startTimeoutSeconds";

    private final Path dir;
    private final PrintStream out;
    private final ClusterState state;
    private final Duration startTimeout = Duration.ofSeconds(Long.getLong(START_TIMEOUT_PROPERTY, 90));
    private final long deadline = System.nanoTime() + startTimeout.toNanos();

    private LocalCluster(Path dir, PrintStream out) {
        this.dir = dir;
        this.out = out;
        this.state = ClusterState.create(dir);
    }

    private static Map<String, Integer> pools() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("oltp", 2);
        m.put("olap", 1);
        return m;
    }

    /**
     * Starts the cluster in {@code dir} and returns its state once every part is healthy; on any
     * failure stops what it started and throws.
     */
    public static ClusterState up(Path dir, PrintStream out) throws IOException, InterruptedException {
        java.util.Optional<ClusterState> previous = ClusterState.load(dir);
        if (previous.isPresent()) {
            if (!previous.get().alive().isEmpty()) {
                throw new IllegalStateException("a cluster started from " + dir + " still runs (" + previous.get().alive().size()
                        + " processes): tell cluster down --dir " + dir + " first");
            }
            Files.delete(previous.get().file());
        }
        Files.createDirectories(dir);
        LocalCluster c = new LocalCluster(dir, out);
        ExitGuard guard = new ExitGuard("tell-cluster-up", c::stopQuietly);
        try {
            c.start();
            guard.release();
            return c.state;
        } catch (IOException | InterruptedException | RuntimeException e) {
            guard.release();
            out.println("starting failed: " + e.getMessage() + "; stopping what was started");
            c.stopQuietly();
            throw e;
        }
    }

    private void stopQuietly() {
        try {
            state.stop(out);
        } catch (IOException | InterruptedException e) {
            out.println("stopping failed: " + e);
        }
    }

    private void start() throws IOException, InterruptedException {
        String storeUrl = startRedisCluster();
        state.put("store", storeUrl);
        List<String> cms = new ArrayList<>();
        List<ClusterState.Started> started = new ArrayList<>();
        for (int i = 1; i <= COMMIT_MANAGERS; i++) {
            int port = freePort();
            int metrics = freePort();
            started.add(startJava("cm", "cm-" + i, port, metrics, List.of("-Xmx512m"), List.of("commitmgr", "--port",
                    Integer.toString(port), "--store", storeUrl, "--metrics-port", Integer.toString(metrics))));
            cms.add(HOST + ":" + port);
        }
        for (ClusterState.Started cm : started) {
            awaitListening(cm);
            out.println("  " + cm.name() + " listening on " + HOST + ":" + cm.port());
        }
        state.put("cm", String.join(",", cms));
        List<ClusterState.Started> pns = new ArrayList<>();
        for (Map.Entry<String, Integer> pool : POOLS.entrySet()) {
            for (int i = 1; i <= pool.getValue(); i++) {
                int port = freePort();
                int metrics = freePort();
                List<String> args = new ArrayList<>(List.of("pn", "--port", Integer.toString(port), "--store", storeUrl,
                        "--cm", String.join(",", cms), "--pool", pool.getKey(), "--metrics-port", Integer.toString(metrics)));
                if (pool.getKey().equals("olap")) {
                    args.add("--read-only"); // analytical snapshots: they never conflict with the OLTP pool's writers
                }
                pns.add(startJava("pn", "pn-" + pool.getKey() + "-" + i, port, metrics, List.of("-Xmx1g"), args));
            }
        }
        for (ClusterState.Started pn : pns) {
            awaitListening(pn);
            awaitJdbc(pn);
            out.println("  " + pn.name() + " accepts PostgreSQL connections on " + HOST + ":" + pn.port());
        }
        try (RecordStore store = RecordStores.open(storeUrl)) {
            for (String pool : POOLS.keySet()) {
                String url = awaitPool(store, pool, pns.stream().filter(p -> p.name().startsWith("pn-" + pool + "-")).toList());
                state.put("url." + pool, url);
            }
        }
    }

    // ---- Redis

    private String startRedisCluster() throws IOException, InterruptedException {
        out.println("starting a Redis Cluster (3 primaries, 3 replicas)...");
        String server = RedisBinaries.server();
        List<ClusterState.Started> nodes = new ArrayList<>();
        for (int i = 0; i < REDIS_NODES; i++) {
            int port = RedisProcess.freePortPair();
            Path nodeDir = Files.createDirectories(dir.resolve("redis-" + i));
            Files.deleteIfExists(nodeDir.resolve("nodes.conf"));
            List<String> cmd = List.of(server, "--port", Integer.toString(port), "--bind", HOST, "--dir", nodeDir.toString(),
                    "--save", "", "--appendonly", "no", "--protected-mode", "no", "--daemonize", "no",
                    "--repl-diskless-sync-delay", "0", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "2000", "--cluster-require-full-coverage", "no");
            ClusterState.Started s = new ClusterState.Started("redis", "redis-" + i, spawn(cmd, nodeDir.resolve("redis.log")).pid(),
                    port, 0);
            state.add(s);
            nodes.add(s);
        }
        for (ClusterState.Started n : nodes) {
            awaitListening(n);
        }
        List<String> create = new ArrayList<>(List.of(RedisBinaries.cli(), "--cluster", "create"));
        nodes.forEach(n -> create.add(HOST + ":" + n.port()));
        create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        String created = run(create);
        if (created == null) {
            throw new IllegalStateException("redis-cli --cluster create failed; see " + dir.resolve("redis-0/redis.log"));
        }
        String why = "";
        while ((why = redisUnhealthyBecause(nodes)) != null) {
            checkDeadline("Redis Cluster healthy (" + why + ")");
            Thread.sleep(200);
        }
        String url = "redis://" + nodes.stream().map(n -> HOST + ":" + n.port()).collect(Collectors.joining(","));
        out.println("  Redis Cluster ok: " + url);
        return url;
    }

    /** Null when every node says cluster_state:ok with all slots, and every replica's link to its primary is up. */
    private static String redisUnhealthyBecause(List<ClusterState.Started> nodes) throws IOException, InterruptedException {
        int replicas = 0;
        for (ClusterState.Started n : nodes) {
            String info = run(List.of(RedisBinaries.cli(), "-h", HOST, "-p", Integer.toString(n.port()), "cluster", "info"));
            if (info == null || !info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:16384")) {
                return n.name() + " not in cluster_state:ok";
            }
            String replication = run(List.of(RedisBinaries.cli(), "-h", HOST, "-p", Integer.toString(n.port()), "info", "replication"));
            if (replication != null && replication.contains("role:slave")) {
                if (!replication.contains("master_link_status:up")) {
                    return n.name() + "'s link to its primary is not up";
                }
                replicas++;
            }
        }
        return replicas == REDIS_NODES / 2 ? null : replicas + " of " + REDIS_NODES / 2 + " replicas in sync";
    }

    /** Runs a short command; its output, or null when it failed. */
    private static String run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] bytes = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return null;
        }
        return p.exitValue() == 0 ? new String(bytes, StandardCharsets.UTF_8) : null;
    }

    // ---- Tell processes

    private ClusterState.Started startJava(String role, String name, int port, int metricsPort, List<String> jvmOptions,
                                           List<String> args) throws IOException {
        out.println("starting " + name + " (tell " + args.get(0) + " on port " + port + ", metrics " + metricsPort + ")...");
        List<String> cmd = JavaProcess.builder("io.tell.cli.Tell", jvmOptions, args).command();
        ClusterState.Started s = new ClusterState.Started(role, name, spawn(cmd, dir.resolve(name + ".log")).pid(), port, metricsPort);
        state.add(s);
        return s;
    }

    /** Starts {@code cmd} in a session of its own (so it outlives this command and the terminal), output to {@code log}. */
    private static Process spawn(List<String> cmd, Path log) throws IOException {
        List<String> full = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            full.add("/usr/bin/setsid"); // not a group leader, so it execs in place: the pid stays the program's
        }
        full.addAll(cmd);
        Files.deleteIfExists(log);
        return new ProcessBuilder(full).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    }

    private void awaitListening(ClusterState.Started s) throws InterruptedException {
        while (!listening(s.port())) {
            if (!s.alive()) {
                throw new IllegalStateException(s.name() + " exited at start; see " + log(s) + ", which ends:\n" + tail(log(s)));
            }
            checkDeadline(s.name() + " listening on " + s.port() + " (see " + log(s) + ")");
            Thread.sleep(100);
        }
    }

    /** The last lines of {@code log}, so a failed start says why where it is reported (CI keeps no files). */
    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private Path log(ClusterState.Started s) {
        return s.role().equals("redis") ? dir.resolve(s.name()).resolve("redis.log") : dir.resolve(s.name() + ".log");
    }

    private void awaitJdbc(ClusterState.Started pn) throws InterruptedException {
        String url = "jdbc:postgresql://" + HOST + ":" + pn.port() + "/tell";
        SQLException last = null;
        while (true) {
            try (Connection c = DriverManager.getConnection(url, "tell", "")) {
                c.createStatement().execute("SELECT 1");
                return;
            } catch (SQLException e) {
                last = e;
            }
            checkDeadline(pn.name() + " accepting a JDBC connection (" + last.getMessage() + ")");
            Thread.sleep(200);
        }
    }

    /** Waits until every server of {@code pool} is live in it and returns the pool's URL. */
    private String awaitPool(RecordStore store, String pool, List<ClusterState.Started> servers) throws InterruptedException {
        while (true) {
            Pools pools = Pools.read(store, Pools.DEFAULT_STALE_AFTER);
            List<Integer> live = pools.live(pool).stream().map(PoolMember::port).toList();
            if (servers.stream().allMatch(s -> live.contains(s.port()))) {
                String url = pools.jdbcUrl(pool, "tell").orElseThrow();
                out.println("  pool " + pool + ": " + live.size() + " live servers");
                return url;
            }
            checkDeadline("pool " + pool + " with " + servers.size() + " live servers (live: " + live + ")");
            Thread.sleep(200);
        }
    }

    private void checkDeadline(String waitingFor) {
        if (System.nanoTime() - deadline > 0) {
            throw new IllegalStateException("gave up after " + startTimeout.toSeconds() + " s waiting for " + waitingFor);
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on " + HOST, e);
        }
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(HOST, port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** What runs where, the pool URLs and how to stop it. */
    public static String describe(ClusterState state, Path dir) {
        StringBuilder b = new StringBuilder();
        b.append("Tell cluster up (local processes on ").append(HOST).append("; PN servers use trust authentication: any user, no")
                .append(" password, loopback only — for development):\n");
        for (ClusterState.Started s : state.processes()) {
            b.append(String.format("  %-14s pid %-8d %s:%d%s%n", s.name(), s.pid(), HOST, s.port(),
                    s.metricsPort() == 0 ? "" : "   metrics http://" + HOST + ":" + s.metricsPort() + "/metrics"));
        }
        b.append("store: ").append(state.get("store")).append('\n');
        b.append("commit managers: ").append(state.get("cm")).append('\n');
        for (String pool : POOLS.keySet()) {
            b.append("pool ").append(pool).append(": ").append(state.get("url." + pool)).append('\n');
        }
        b.append("logs and state: ").append(dir.toAbsolutePath()).append('\n');
        b.append("status: ./tell cluster status --store '").append(state.get("store")).append("'\n");
        b.append("stop:   ./tell cluster down --dir ").append(dir).append('\n');
        return b.toString();
    }
}
