package io.tell.bench.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Tell commit manager in a child JVM ({@code io.tell.cli.Tell commitmgr --port P --store URL})
 * on a free 127.0.0.1 port, its output appended to a log file. {@link #close} stops it (SIGTERM,
 * then SIGKILL after 10 s). Used by {@code tell bench compare} and by the tests that run Tell
 * over Redis across processes.
 */
public final class CommitManagerProcess implements AutoCloseable {
    private static final long START_SECONDS = 30;

    private final Process process;
    private final int port;
    private final Path log;
    private final ExitGuard guard;

    private CommitManagerProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.guard = new ExitGuard("commit-manager", process::destroyForcibly);
    }

    /** Starts one over {@code storeUrl} (e.g. {@code redis://127.0.0.1:6379}) and waits until it listens. */
    public static CommitManagerProcess start(String storeUrl, Path log) throws IOException, InterruptedException {
        return start(storeUrl, log, 0, List.of());
    }

    /**
     * Starts one on {@code port} (0: a free one) with further {@code tell commitmgr} options
     * (e.g. {@code --in-doubt-grace-ms 1000}) and waits until it listens.
     */
    public static CommitManagerProcess start(String storeUrl, Path log, int port, List<String> options)
            throws IOException, InterruptedException {
        if (port == 0) {
            port = Loopback.freePort();
        }
        List<String> args = new java.util.ArrayList<>(List.of("commitmgr", "--port", Integer.toString(port), "--store", storeUrl));
        args.addAll(options);
        Process p = JavaProcess.builder("io.tell.cli.Tell", args)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        CommitManagerProcess cm = new CommitManagerProcess(p, port, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("commit manager exited at start:\n" + cm.output());
            }
            if (Loopback.listening(port)) {
                return cm;
            }
            Thread.sleep(100);
        }
        cm.close();
        throw new IllegalStateException("commit manager did not listen on " + port + " within " + START_SECONDS + " s:\n"
                + cm.output());
    }

    public int port() {
        return port;
    }

    /** {@code 127.0.0.1:port}, as a Tell URL's {@code cm=} option takes it. */
    public String address() {
        return Loopback.HOST + ":" + port;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, as a crash would; waits until it is gone. */
    public void kill() throws InterruptedException {
        guard.release();
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** What it printed so far. */
    public String output() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
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
}
