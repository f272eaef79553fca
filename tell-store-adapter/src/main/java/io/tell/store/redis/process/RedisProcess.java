package io.tell.store.redis.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A redis-server of a test's or tool's own: started on a free 127.0.0.1 port (whose cluster-bus
 * port, port + 10000, is free too) in a temporary directory or a given one, without snapshots
 * ({@code --save ""}) and by default without an append-only file; its output goes to
 * {@code redis.log} in that directory. It can be killed (SIGKILL), paused (SIGSTOP) and resumed
 * (SIGCONT), stopped (SIGTERM, then SIGKILL after 10 s) and restarted on the same port with the
 * same directory. Every process still running when the JVM exits is killed by a shutdown hook.
 *
 * <p>Needs {@code redis-server} 7 or newer on the PATH (Debian package {@code redis-server}),
 * or its path in the system property {@code tell.redis.server}.
 */
public final class RedisProcess implements AutoCloseable {
    public static final String HOST = "127.0.0.1";
    private static final Set<RedisProcess> LIVE = ConcurrentHashMap.newKeySet();
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(RedisProcess::killQuietly), "redis-process-reaper"));
    }

    private final Path dir;
    private final List<String> options;
    private final boolean ownsDir;
    private int port;
    private Process process;

    private RedisProcess(Path dir, boolean ownsDir, List<String> options) {
        this.dir = dir;
        this.ownsDir = ownsDir;
        this.options = List.copyOf(options);
    }

    /** Starts a plain server: no persistence. */
    public static RedisProcess start() {
        return builder().start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Options for a server. */
    public static final class Builder {
        private boolean appendOnly;
        private boolean cluster;
        private int clusterNodeTimeoutMs = 1000;
        private Path dir;
        private final List<String> extra = new ArrayList<>();

        /** Keep an append-only file (fsync on every write) in the server's directory, so data survives a kill and restart. */
        public Builder appendOnly(boolean on) {
            this.appendOnly = on;
            return this;
        }

        /** Run as a Redis Cluster node. */
        public Builder cluster(boolean on) {
            this.cluster = on;
            return this;
        }

        public Builder clusterNodeTimeoutMs(int ms) {
            this.clusterNodeTimeoutMs = ms;
            return this;
        }

        /**
         * Further {@code --name value…} arguments for redis-server; give a multi-word option's words
         * separately ({@code option("user", "app", "on", ">pw", "~*", "+@all")}), as redis-server
         * quotes each argument.
         */
        public Builder option(String name, String... values) {
            extra.add("--" + name);
            extra.addAll(List.of(values));
            return this;
        }

        /**
         * Run in {@code dir} (created if missing) instead of a temporary directory; it, and the
         * log in it, stay after {@link RedisProcess#close}.
         */
        public Builder dir(Path dir) {
            this.dir = dir;
            return this;
        }

        public RedisProcess start() {
            List<String> opts = new ArrayList<>(List.of("--save", "", "--appendonly", appendOnly ? "yes" : "no",
                    "--appendfsync", "always", "--protected-mode", "no", "--daemonize", "no",
                    // A replica's full sync starts at once instead of waiting 5 s for more replicas.
                    "--repl-diskless-sync-delay", "0"));
            if (cluster) {
                opts.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                        "--cluster-node-timeout", Integer.toString(clusterNodeTimeoutMs),
                        "--cluster-require-full-coverage", "no", "--cluster-replica-validity-factor", "0"));
            }
            opts.addAll(extra);
            Path where;
            try {
                where = dir == null ? Files.createTempDirectory("tell-redis-") : Files.createDirectories(dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            RedisProcess p = new RedisProcess(where, dir == null, opts);
            p.startOnFreePort();
            return p;
        }
    }

    public int port() {
        return port;
    }

    public String host() {
        return HOST;
    }

    public Path dir() {
        return dir;
    }

    /** {@code redis://127.0.0.1:<port>}, to which store options may be appended. */
    public String url() {
        return "redis://" + HOST + ":" + port;
    }

    public synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException("redis on port " + port + " is not running");
        }
        return process.pid();
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Sends one command and returns the reply (see {@link RespClient}). */
    public Object call(String... args) {
        return RespClient.call(HOST, port, 2000, args);
    }

    /** Kills the server with SIGKILL, as a crash would, and waits until it is gone. */
    public synchronized void kill() {
        if (process != null) {
            process.destroyForcibly();
            waitFor(process);
            LIVE.remove(this);
            process = null;
        }
    }

    /** Freezes the server (SIGSTOP): its connections stay open but nothing answers. */
    public void pause() {
        signal("STOP");
    }

    /** Thaws a paused server (SIGCONT). */
    public void resume() {
        signal("CONT");
    }

    /** Shuts the server down gracefully (SIGTERM) and waits. */
    public synchronized void stop() {
        if (process != null) {
            signal("CONT");
            process.destroy();
            if (!waitFor(process)) {
                process.destroyForcibly();
                waitFor(process);
            }
            LIVE.remove(this);
            process = null;
        }
    }

    /** Starts the server again on the same port with the same directory (and so its data and cluster config). */
    public synchronized void restart() {
        if (isRunning()) {
            throw new IllegalStateException("redis on port " + port + " is still running");
        }
        RuntimeException last = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            try {
                launch();
                return;
            } catch (PortTaken e) {
                last = e;
                sleep(250);
            }
        }
        throw last;
    }

    /** Stops the server and deletes its directory, unless the directory was given ({@link Builder#dir}). */
    @Override
    public void close() {
        stop();
        if (ownsDir) {
            deleteTree(dir);
        }
    }

    @Override
    public String toString() {
        return "redis-server " + HOST + ":" + port + (process != null ? " pid " + process.pid() : " (down)");
    }

    private void startOnFreePort() {
        for (int attempt = 0; attempt < 50; attempt++) {
            port = freePortPair();
            try {
                launch();
                return;
            } catch (PortTaken e) {
                // Someone else took it between our check and redis' bind: pick another.
            }
        }
        throw new IllegalStateException("no free port pair found for redis-server");
    }

    private synchronized void launch() {
        List<String> cmd = new ArrayList<>();
        cmd.add(RedisBinaries.server());
        cmd.addAll(List.of("--port", Integer.toString(port), "--bind", HOST, "--dir", dir.toString()));
        cmd.addAll(options);
        File log = dir.resolve("redis.log").toFile();
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log));
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + cmd, e);
        }
        LIVE.add(this);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                LIVE.remove(this);
                process = null;
                String tail = logTail();
                if (tail.contains("Address already in use")) {
                    throw new PortTaken(tail);
                }
                throw new IllegalStateException("redis-server on port " + port + " exited at start:\n" + tail);
            }
            try {
                if ("PONG".equals(call("PING"))) {
                    return;
                }
            } catch (RespClient.RespError e) {
                if (e.getMessage().startsWith("NOAUTH")) {
                    return; // up, and asking for the password it was started with (requirepass)
                }
            } catch (RuntimeException notYet) {
                // Not listening yet, or LOADING its append-only file.
            }
            sleep(20);
        }
        kill();
        throw new IllegalStateException("redis-server on port " + port + " did not answer PING within " + START_TIMEOUT);
    }

    private void signal(String name) {
        long pid;
        synchronized (this) {
            if (process == null) {
                return;
            }
            pid = process.pid();
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + name + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(dir.resolve("redis.log"), StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void killQuietly(RedisProcess p) {
        Process proc = p.process;
        if (proc != null) {
            proc.destroyForcibly();
        }
    }

    private static boolean waitFor(Process p) {
        try {
            return p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A port in 20000-29999 free on 127.0.0.1, with port + 10000 (the cluster bus) free as well. */
    public static int freePortPair() {
        for (int attempt = 0; attempt < 1000; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(20000, 30000);
            if (isFree(candidate) && isFree(candidate + 10000)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free port pair in 20000-29999");
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
            return s.isBound();
        } catch (IOException e) {
            return false;
        }
    }

    /** {@link Thread#sleep}, an interrupt turned into {@link IllegalStateException} (the flag set again). */
    public static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Best effort: a leftover temp directory is harmless.
        }
    }

    private static final class PortTaken extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PortTaken(String log) {
            super("port taken:\n" + log);
        }
    }
}
