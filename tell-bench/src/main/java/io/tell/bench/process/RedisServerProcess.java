package io.tell.bench.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code redis-server} of a benchmark's own on a free 127.0.0.1 port, in memory only
 * ({@code --save "" --appendonly no}), with its directory and log in a given directory.
 * {@link #close} stops it (SIGTERM, then SIGKILL after 10 s).
 */
public final class RedisServerProcess implements AutoCloseable {
    /** The options besides port, bind address and directory, as the benchmark reports them. */
    public static final List<String> OPTIONS = List.of("--save", "", "--appendonly", "no", "--protected-mode", "no",
            "--daemonize", "no");
    private static final long START_SECONDS = 20;

    private final Process process;
    private final int port;
    private final String version;
    private final ExitGuard guard;

    private RedisServerProcess(Process process, int port, String version) {
        this.process = process;
        this.port = port;
        this.version = version;
        this.guard = new ExitGuard("redis-server", process::destroyForcibly);
    }

    /** Starts one in {@code dir} (created if missing) and waits until it answers PING. */
    public static RedisServerProcess start(Path dir) throws IOException, InterruptedException {
        String server = ExternalCommand.onPath("redis-server");
        if (server == null) {
            throw new IOException("redis-server is not on the PATH (Debian: apt-get install redis-server)");
        }
        String version = ExternalCommand.run(List.of(server, "--version"), 10).output();
        Files.createDirectories(dir);
        Path log = dir.resolve("redis.log");
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = Loopback.freePort();
            List<String> cmd = new java.util.ArrayList<>(List.of(server, "--port", Integer.toString(port), "--bind",
                    Loopback.HOST, "--dir", dir.toString()));
            cmd.addAll(OPTIONS);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
            while (p.isAlive() && System.nanoTime() < deadline) {
                if (pong(port)) {
                    return new RedisServerProcess(p, port, version.replaceFirst(" sha=.*", ""));
                }
                Thread.sleep(20);
            }
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            String output = Files.readString(log, StandardCharsets.UTF_8);
            if (!output.contains("Address already in use")) {
                throw new IOException("redis-server on port " + port + " did not start:\n" + output);
            }
        }
        throw new IOException("redis-server found no free port");
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:port}. */
    public String url() {
        return "redis://" + Loopback.HOST + ":" + port;
    }

    /** What {@code redis-server --version} says, e.g. {@code Redis server v=7.0.15}. */
    public String version() {
        return version;
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        guard.release();
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static boolean pong(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(Loopback.HOST, port), 200);
            s.setSoTimeout(1_000);
            OutputStream out = s.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String reply = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            return "+PONG".equals(reply);
        } catch (IOException e) {
            return false;
        }
    }
}
