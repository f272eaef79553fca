package io.tell.bench.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What {@code tell cluster up} started, in {@code DIR/cluster.properties}: one line per process
 * (its role, name, pid and ports), the store URL and the pool URLs. It is rewritten after every
 * process started, so that {@code tell cluster down} (or a failed {@code up}) finds everything,
 * even what an interrupted {@code up} left.
 */
public final class ClusterState {
    /** A process of the cluster; {@code metricsPort} 0 when it has none. */
    public record Started(String role, String name, long pid, int port, int metricsPort) {
        String encode() {
            return role + " " + name + " " + pid + " " + port + " " + metricsPort;
        }

        static Started decode(String line) {
            String[] f = line.trim().split(" ");
            return new Started(f[0], f[1], Long.parseLong(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]));
        }

        /** Whether the process still runs and still is the program we started (pids are reused). */
        boolean alive() {
            Optional<ProcessHandle> h = ProcessHandle.of(pid);
            if (h.isEmpty() || !h.get().isAlive()) {
                return false;
            }
            String command = h.get().info().command().orElse("");
            // Right after the spawn the pid may still be setsid, a moment before it execs the program.
            return command.isEmpty() || command.contains(role.equals("redis") ? "redis" : "java") || command.endsWith("/setsid");
        }
    }

    private static final long STOP_SECONDS = 10;
    private final Path file;
    private final List<Started> processes = new ArrayList<>();
    private final Map<String, String> values = new TreeMap<>();

    private ClusterState(Path dir) {
        this.file = dir.resolve("cluster.properties");
    }

    public static ClusterState create(Path dir) {
        return new ClusterState(dir);
    }

    /** The state saved in {@code dir}, if any. */
    public static Optional<ClusterState> load(Path dir) throws IOException {
        ClusterState s = new ClusterState(dir);
        if (!Files.exists(s.file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(s.file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        for (String key : new java.util.TreeSet<>(p.stringPropertyNames())) {
            if (key.startsWith("process.")) {
                continue;
            }
            s.values.put(key, p.getProperty(key));
        }
        for (int i = 0; p.containsKey("process." + i); i++) {
            s.processes.add(Started.decode(p.getProperty("process." + i)));
        }
        return Optional.of(s);
    }

    public Path file() {
        return file;
    }

    public List<Started> processes() {
        return List.copyOf(processes);
    }

    public synchronized void add(Started p) throws IOException {
        processes.add(p);
        save();
    }

    public synchronized void put(String key, String value) throws IOException {
        values.put(key, value);
        save();
    }

    public String get(String key) {
        return values.get(key);
    }

    /** The processes still running. */
    public List<Started> alive() {
        return processes.stream().filter(Started::alive).toList();
    }

    private void save() throws IOException {
        Properties p = new Properties();
        values.forEach(p::setProperty);
        for (int i = 0; i < processes.size(); i++) {
            p.setProperty("process." + i, processes.get(i).encode());
        }
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p.store(w, "tell cluster up: what runs (role name pid port metricsPort); tell cluster down stops it");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Stops every process, newest first (processing nodes, then commit managers, then Redis):
     * SIGTERM, then SIGKILL to whatever still runs after {@value #STOP_SECONDS} s; then deletes
     * the state file. Returns the pids it had to kill.
     */
    public List<Long> stop(PrintStream out) throws IOException, InterruptedException {
        List<Started> running = new ArrayList<>(alive());
        java.util.Collections.reverse(running);
        // Processing nodes first, so they leave their pools while the store still runs.
        for (String role : List.of("pn", "cm", "redis")) {
            List<ProcessHandle> handles = new ArrayList<>();
            for (Started s : running) {
                if (s.role().equals(role)) {
                    out.println("stopping " + s.name() + " (pid " + s.pid() + ")");
                    ProcessHandle.of(s.pid()).ifPresent(h -> {
                        h.destroy();
                        handles.add(h);
                    });
                }
            }
            awaitExit(handles, STOP_SECONDS);
        }
        List<Long> killed = new ArrayList<>();
        for (Started s : running) {
            Optional<ProcessHandle> h = ProcessHandle.of(s.pid());
            if (h.isPresent() && h.get().isAlive()) {
                out.println(s.name() + " (pid " + s.pid() + ") did not stop within " + STOP_SECONDS + " s: kill -9");
                h.get().destroyForcibly();
                killed.add(s.pid());
                awaitExit(List.of(h.get()), STOP_SECONDS);
            }
        }
        Files.deleteIfExists(file);
        return killed;
    }

    private static void awaitExit(List<ProcessHandle> handles, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (ProcessHandle h : handles) {
            while (h.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
    }
}
