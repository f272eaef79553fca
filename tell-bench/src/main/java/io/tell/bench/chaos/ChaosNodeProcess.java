package io.tell.bench.chaos;

import io.tell.bench.process.ExitGuard;
import io.tell.bench.process.JavaProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The parent's handle on one {@link ChaosNode} JVM: its requests on stdin, its events into the ledger. */
final class ChaosNodeProcess {
    /** Small heap, one GC thread and C1 only: several of these share two cores. */
    private static final List<String> JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    final String name;
    private final Process process;
    private final PrintStream stdin;
    private final ExitGuard guard;
    final CompletableFuture<Void> ready = new CompletableFuture<>();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    /** {step, tid} of the commit it paused at. */
    final CompletableFuture<String[]> paused = new CompletableFuture<>();
    volatile long killedAtNanos;

    private ChaosNodeProcess(String name, Process process, ChaosLedger ledger) {
        this.name = name;
        this.process = process;
        this.stdin = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.guard = new ExitGuard("chaos-node-" + name, process::destroyForcibly);
        Thread reader = new Thread(() -> read(ledger), "chaos-read-" + name);
        reader.setDaemon(true);
        reader.start();
    }

    static ChaosNodeProcess start(String name, List<String> args, Path log, ChaosLedger ledger) throws IOException {
        Process p = JavaProcess.builder(ChaosNode.class.getName(), JVM, args)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ChaosNodeProcess(name, p, ledger);
    }

    private void read(ChaosLedger ledger) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] other = ledger.take(name, line);
                if (other == null) {
                    continue;
                }
                switch (other[0]) {
                    case "READY" -> ready.complete(null);
                    case "PAUSED" -> paused.complete(new String[] {other[1], other[2]});
                    case "DONE" -> done.complete(null);
                    default -> {
                        // not ours (a library printing to stdout): ignored
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone
        }
        IllegalStateException gone = new IllegalStateException("node " + name + " exited");
        ready.completeExceptionally(gone);
        paused.completeExceptionally(gone);
        done.completeExceptionally(gone);
    }

    boolean isAlive() {
        return process.isAlive() && killedAtNanos == 0;
    }

    long pid() {
        return process.pid();
    }

    /** Asks it to stop the next commit that reaches {@code step} (a {@link io.tell.txn.CommitObserver.Step} name). */
    void pauseAt(String step) {
        stdin.println("PAUSE " + step);
    }

    /** Asks it to finish its transfers and leave. */
    void stop() {
        stdin.println("STOP");
    }

    /** SIGKILL; waits until it is gone. */
    void kill() throws InterruptedException {
        killedAtNanos = System.nanoTime();
        guard.release();
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** Stops it cleanly within {@code seconds}, else kills it. */
    void stopOrKill(long seconds) throws InterruptedException {
        if (process.isAlive()) {
            stop();
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        guard.release();
    }
}
