package io.tell.bench.tpcc;

import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;

/**
 * A progress bar for the loader: rows loaded of the expected total, rate and ETA. On a terminal
 * it redraws one line with {@code \r} four times a second; otherwise it prints a line every few
 * seconds, so logs stay readable.
 */
public final class LoadProgress implements AutoCloseable {
    private static final int WIDTH = 30;

    private final LongAdder rows = new LongAdder();
    private final long expected;
    private final PrintStream out;
    private final boolean terminal;
    private final long started = System.nanoTime();
    private final Thread printer;
    private volatile boolean done;
    private int lineWidth;

    /** {@code out} null: count silently. */
    public LoadProgress(long expected, PrintStream out, boolean terminal) {
        this.expected = expected;
        this.out = out;
        this.terminal = terminal;
        this.printer = out == null ? null : Thread.ofPlatform().daemon().name("tpcc-load-progress").start(this::printLoop);
    }

    public void add(long n) {
        rows.add(n);
    }

    public long rows() {
        return rows.sum();
    }

    public double seconds() {
        return (System.nanoTime() - started) / 1e9;
    }

    private void printLoop() {
        long period = terminal ? 250 : 5_000;
        while (!done) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            if (!done) {
                print(false);
            }
        }
    }

    private synchronized void print(boolean last) {
        long n = rows();
        double s = seconds();
        double fraction = last ? 1 : Math.min(1, n / (double) expected);
        double rate = n / Math.max(s, 1e-3);
        int filled = (int) Math.round(fraction * WIDTH);
        String eta = last ? String.format("done in %.1f s", s)
                : String.format("ETA %s", duration(Math.max(0, (expected - n) / Math.max(rate, 1))));
        String line = String.format("load [%s%s] %3.0f%% %,d rows  %,.0f rows/s  %s",
                "#".repeat(filled), " ".repeat(WIDTH - filled), 100 * fraction, n, rate, eta);
        if (terminal) {
            // Pad to the longest line so far, so a shorter line leaves nothing of the previous one.
            lineWidth = Math.max(lineWidth, line.length());
            out.print("\r" + line + " ".repeat(lineWidth - line.length()) + (last ? "\n" : ""));
        } else {
            out.println(line);
        }
        out.flush();
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        return s >= 60 ? String.format("%dm%02ds", s / 60, s % 60) : s + "s";
    }

    /** Stops the printer and prints the final line. */
    @Override
    public void close() {
        done = true;
        if (printer != null) {
            printer.interrupt();
            try {
                printer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            print(true);
        }
    }

    /** Whether stderr looks like an interactive terminal (a console, and TERM set to something real). */
    public static boolean stderrIsTerminal() {
        String term = System.getenv("TERM");
        if (System.console() == null || term == null || term.isEmpty() || term.equals("dumb")) {
            return false;
        }
        try { // Console.isTerminal() exists from JDK 22 on, where console() is no longer null when redirected.
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(System.console());
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }
}
