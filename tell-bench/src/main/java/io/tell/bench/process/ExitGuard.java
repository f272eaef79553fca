package io.tell.bench.process;

/**
 * Stops a server this JVM started if the JVM exits without closing it (Ctrl-C during a
 * benchmark), so no redis-server, commit manager or PostgreSQL cluster is left behind.
 */
public final class ExitGuard {
    private final Thread hook;

    public ExitGuard(String name, Runnable stop) {
        hook = new Thread(stop, name + "-exit-guard");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The server was closed normally: nothing left to do at exit. */
    public void release() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs (or ran) anyway
        }
    }
}
