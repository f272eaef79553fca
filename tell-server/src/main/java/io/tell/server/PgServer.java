package io.tell.server;

import io.tell.net.Listener;
import io.tell.server.internal.ConnectionContext;
import io.tell.server.internal.PgConnection;
import io.tell.server.internal.PgFrameDecoder;
import io.tell.sql.ProcessingNode;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A processing node served over PostgreSQL's frontend/backend protocol (v3): any PostgreSQL
 * client reaches the node's SQL. Each connection is a session of the one node, so they share
 * its plan cache and catalog. Netty's event loops only cut and encode frames; each connection
 * runs its statements on its own virtual thread, so a slow store never stalls other clients.
 * Closing the server closes every connection (rolling back their transactions) but not the
 * node, which belongs to the caller.
 */
public final class PgServer implements AutoCloseable {
    private final Listener listener;
    private final ConnectionContext context;

    private PgServer(Listener listener, ConnectionContext context) {
        this.listener = listener;
        this.context = context;
    }

    /** Binds {@code config.host():config.port()} (port 0 picks a free one) and serves {@code node}. */
    public static PgServer start(ProcessingNode node, PgServerConfig config) {
        PgUsers users = config.users();
        ConnectionContext context = new ConnectionContext(node, users == null ? null : users::verifier, config.authenticationTimeout(),
                config.tls() == null ? null : config.tls().context(), config.readOnly());
        Listener listener = Listener.bind("pg", config.host(), config.port(), ch ->
                ch.pipeline().addLast(new PgFrameDecoder(config.maxMessageBytes()), new PgConnection(context)));
        return new PgServer(listener, context);
    }

    public InetSocketAddress address() {
        return listener.address();
    }

    /** The bound port (the real one when started with port 0). */
    public int port() {
        return listener.port();
    }

    /** Stops listening and closes every connection; returns once their sessions have rolled back open transactions. */
    @Override
    public void close() {
        listener.close(() -> {
            try {
                context.awaitWorkers(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
}
