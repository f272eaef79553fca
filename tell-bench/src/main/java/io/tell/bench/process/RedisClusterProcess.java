package io.tell.bench.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of a run's own on 127.0.0.1: {@code primaries} primaries with one replica
 * each, in memory only, created with {@code redis-cli --cluster create}, node timeout 1 s (so a
 * fail-over takes a few seconds). A primary can be killed with SIGKILL and restarted on its
 * port with its directory, where it rejoins as the replica of the node that took over. The
 * same topology as the store tests' {@code RedisClusterProcesses}, for code that runs from
 * {@code tell.jar}. {@link #close} stops every node.
 */
public final class RedisClusterProcess implements AutoCloseable {
    private static final List<String> OPTIONS = List.of("--save", "", "--appendonly", "no", "--protected-mode", "no",
            "--daemonize", "no", "--repl-diskless-sync-delay", "0", "--cluster-enabled", "yes",
            "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "1000",
            "--cluster-require-full-coverage", "no", "--cluster-replica-validity-factor", "0");

    /** One redis-server of the cluster. */
    public static final class Node {
        private final int port;
        private final Path dir;
        private Process process;
        private ExitGuard guard;

        private Node(int port, Path dir) {
            this.port = port;
            this.dir = dir;
        }

        public int port() {
            return port;
        }

        public synchronized long pid() {
            return process == null ? -1 : process.pid();
        }

        public synchronized boolean isRunning() {
            return process != null && process.isAlive();
        }

        /** SIGKILL, as a crash; waits until it is gone. */
        public synchronized void kill() throws InterruptedException {
            if (process != null) {
                guard.release();
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                process = null;
            }
        }

        /** Starts it on its port with its directory (its data is gone; its cluster config is not). */
        public synchronized void launch() throws IOException, InterruptedException {
            String server = ExternalCommand.onPath("redis-server");
            if (server == null) {
                throw new IOException("redis-server is not on the PATH (Debian: apt-get install redis-server)");
            }
            List<String> cmd = new ArrayList<>(List.of(server, "--port", Integer.toString(port), "--bind", Loopback.HOST,
                    "--dir", dir.toString()));
            cmd.addAll(OPTIONS);
            Path log = dir.resolve("redis.log");
            for (int attempt = 0; attempt < 20; attempt++) {
                process = new ProcessBuilder(cmd).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
                guard = new ExitGuard("redis-cluster-node", process::destroyForcibly);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (process.isAlive() && System.nanoTime() < deadline) {
                    try {
                        if ("PONG".equals(Resp.call(port, "PING"))) {
                            return;
                        }
                    } catch (RuntimeException notYet) {
                        // not listening yet
                    }
                    Thread.sleep(20);
                }
                guard.release();
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                process = null;
                if (!Files.readString(log, StandardCharsets.UTF_8).contains("Address already in use")) {
                    break;
                }
                Thread.sleep(250); // the port of a killed node may linger briefly
            }
            throw new IOException("redis-server on port " + port + " did not start; see " + log);
        }

        Object call(String... args) {
            return Resp.call(port, args);
        }

        @Override
        public String toString() {
            return "redis-server 127.0.0.1:" + port + " (pid " + pid() + ")";
        }
    }

    private final List<Node> nodes;

    private RedisClusterProcess(List<Node> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Starts {@code primaries} primaries and as many replicas in {@code dir}; returns once the cluster is healthy. */
    public static RedisClusterProcess start(Path dir, int primaries) throws IOException, InterruptedException {
        List<Node> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 2 * primaries; i++) {
                Node n = new Node(freePortPair(), Files.createDirectories(dir.resolve("redis-" + i)));
                n.launch();
                nodes.add(n);
            }
            List<String> cmd = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
            nodes.forEach(n -> cmd.add(Loopback.HOST + ":" + n.port()));
            cmd.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            ExternalCommand.Result r = ExternalCommand.run(cmd, 60);
            if (!r.ok()) {
                throw new IOException("redis-cli --cluster create failed: " + r.output());
            }
            RedisClusterProcess cluster = new RedisClusterProcess(nodes);
            cluster.awaitHealthy(Duration.ofSeconds(60));
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            for (Node n : nodes) {
                n.kill();
            }
            throw e;
        }
    }

    /** {@code redis://h:p,…} over every node; append {@code ?replicas=1} etc. */
    public String url() {
        return "redis://" + nodes.stream().map(n -> Loopback.HOST + ":" + n.port()).collect(Collectors.joining(","));
    }

    public List<Node> nodes() {
        return nodes;
    }

    /** The running nodes serving slots as primaries now. */
    public List<Node> primaries() {
        List<Node> out = new ArrayList<>();
        for (String[] f : clusterNodes()) {
            Node n = byPort(f);
            if (f[2].contains("master") && !f[2].contains("fail") && f.length > 8 && n != null && n.isRunning()) {
                out.add(n);
            }
        }
        return out;
    }

    /** Waits until the slots are all served by running primaries again (their replicas may still be missing). */
    public void awaitFailover(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (slotsServed() == 16384) {
                    return;
                }
            } catch (RuntimeException notYet) {
                // a node may be briefly unreachable
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("no fail-over within " + timeout);
    }

    /** Waits until every running node says cluster_state:ok, all slots are served and every primary has an online replica. */
    public void awaitHealthy(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String why = "";
        while (System.nanoTime() < deadline) {
            why = unhealthyBecause();
            if (why == null) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("redis cluster not healthy within " + timeout + ": " + why);
    }

    private String unhealthyBecause() {
        try {
            for (Node n : nodes) {
                if (n.isRunning()) {
                    String info = (String) n.call("CLUSTER", "INFO");
                    if (!info.contains("cluster_state:ok") || !info.contains("cluster_slots_ok:16384")) {
                        return n + " is not ok yet";
                    }
                }
            }
            if (slotsServed() != 16384) {
                return "not all slots are served by running primaries";
            }
            for (Node p : primaries()) {
                String replication = (String) p.call("INFO", "replication");
                if (replication.lines().noneMatch(l -> l.startsWith("slave") && l.contains("state=online"))) {
                    return p + " has no online replica";
                }
            }
            return null;
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    private int slotsServed() {
        int served = 0;
        for (String[] f : clusterNodes()) {
            Node n = byPort(f);
            if (f[2].contains("master") && !f[2].contains("fail") && n != null && n.isRunning()) {
                for (int i = 8; i < f.length; i++) {
                    if (!f[i].startsWith("[")) {
                        String[] r = f[i].split("-");
                        served += (r.length > 1 ? Integer.parseInt(r[1]) : Integer.parseInt(r[0])) - Integer.parseInt(r[0]) + 1;
                    }
                }
            }
        }
        return served;
    }

    private List<String[]> clusterNodes() {
        Node any = nodes.stream().filter(Node::isRunning).findFirst()
                .orElseThrow(() -> new IllegalStateException("no redis node is running"));
        List<String[]> out = new ArrayList<>();
        for (String line : ((String) any.call("CLUSTER", "NODES")).split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length >= 8) {
                out.add(f);
            }
        }
        return out;
    }

    private Node byPort(String[] fields) {
        String address = fields[1].split("@")[0];
        int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        return nodes.stream().filter(n -> n.port() == port).findFirst().orElse(null);
    }

    /** A port whose cluster-bus port (+10000) is free too. */
    private static int freePortPair() throws IOException {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = 20000 + (int) (Math.random() * 30000);
            if (free(port) && free(port + 10000)) {
                return port;
            }
        }
        throw new IOException("no free port pair on " + Loopback.HOST);
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(Loopback.HOST))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (Node n : nodes) {
            n.kill();
        }
    }
}
