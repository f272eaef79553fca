package io.tell.metrics;

import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;

/**
 * What the server processes ({@code tell commitmgr}, {@code tell pn}) share: their command-line
 * checks ({@link UsageException}, {@link #number}, {@link #isLoopback}) and the rest of their life
 * once they listen: the metrics endpoint when asked for, then waiting until the JVM is told to
 * stop (SIGTERM, Ctrl-C), when a shutdown hook closes the endpoint and then what the process runs.
 */
public final class ServerProcess {
    /** No metrics endpoint. */
    public static final int NO_METRICS = -1;

    private ServerProcess() {
    }

    /** A bad command line; its message says what is wrong. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }

    /** The number {@code value} given for {@code flag}, which must lie in {@code min..max}. */
    public static long number(String flag, String value, long min, long max) throws UsageException {
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " wants a number, got '" + value + "'");
        }
        if (n < min || n > max) {
            throw new UsageException(flag + " must be in " + min + ".." + max + ", got " + n);
        }
        return n;
    }

    /** Whether {@code host} is a loopback address; one that does not resolve counts as reachable from elsewhere. */
    public static boolean isLoopback(String host) {
        try {
            return java.net.InetAddress.getByName(host).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /**
     * Serves metrics on {@code host:metricsPort} (unless {@link #NO_METRICS}) and blocks until the
     * process is stopped. Returns the exit code: 0, or 1 when the metrics port cannot be opened
     * (then {@code running} is closed at once).
     */
    public static int serveUntilStopped(String name, String host, int metricsPort, AutoCloseable running,
                                        PrintStream out, PrintStream err) {
        return serveUntilStopped(name, host, metricsPort, running, port -> null, out, err);
    }

    /**
     * As above, and once the metrics endpoint is up, {@code announce} is called with its port
     * ({@link #NO_METRICS} without one) and returns what to close first on the way out (e.g. a
     * pool membership, so no client is sent here any more), or null. When it throws, the process
     * stops with exit code 1.
     */
    public static int serveUntilStopped(String name, String host, int metricsPort, AutoCloseable running,
                                        java.util.function.IntFunction<AutoCloseable> announce, PrintStream out, PrintStream err) {
        MetricsEndpoint metrics;
        try {
            metrics = metricsPort == NO_METRICS ? null : MetricsEndpoint.start(host, metricsPort);
        } catch (UncheckedIOException e) {
            err.println("tell " + name + ": " + e.getMessage());
            closeQuietly(running);
            return 1;
        }
        if (metrics != null) {
            out.println("metrics on http://" + host + ":" + metrics.port() + "/metrics");
        }
        AutoCloseable announced;
        try {
            announced = announce.apply(metrics == null ? NO_METRICS : metrics.port());
        } catch (RuntimeException e) {
            err.println("tell " + name + ": " + e.getMessage());
            if (metrics != null) {
                metrics.close();
            }
            closeQuietly(running);
            return 1;
        }
        out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (announced != null) {
                closeQuietly(announced);
            }
            if (metrics != null) {
                metrics.close();
            }
            closeQuietly(running);
            stopped.countDown();
        }, "tell-" + name + "-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static void closeQuietly(AutoCloseable running) {
        try {
            running.close();
        } catch (Exception e) {
            System.err.println("closing: " + e);
        }
    }
}
