package io.tell.server.internal;

import io.netty.handler.ssl.SslContext;
import io.tell.sql.ProcessingNode;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * What every connection of one server shares: the node (and so its plan cache), how clients
 * authenticate ({@code verifiers} null: trust), how long they may take to, TLS (null: none), the cancel registry,
 * and the connections' threads, so that stopping the server can wait for their rollbacks.
 */
public record ConnectionContext(ProcessingNode node, Function<String, ScramVerifier> verifiers, Duration authenticationTimeout,
                                SslContext tls, boolean readOnly, CancelRegistry cancels, Set<ExecutorService> workers) {
    public ConnectionContext(ProcessingNode node, Function<String, ScramVerifier> verifiers, Duration authenticationTimeout,
                             SslContext tls, boolean readOnly) {
        this(node, verifiers, authenticationTimeout, tls, readOnly, new CancelRegistry(), ConcurrentHashMap.newKeySet());
    }

    boolean trust() {
        return verifiers == null;
    }

    /** Waits (up to {@code timeout} in all) until the threads of closed connections have released their sessions. */
    public void awaitWorkers(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (ExecutorService worker : workers) {
            worker.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }
}
