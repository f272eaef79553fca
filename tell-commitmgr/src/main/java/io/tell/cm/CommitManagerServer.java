package io.tell.cm;

import io.netty.handler.flush.FlushConsolidationHandler;
import io.tell.cm.internal.CmFrameDecoder;
import io.tell.cm.internal.CmProtocol;
import io.tell.cm.internal.CmServerAuthHandler;
import io.tell.cm.internal.CmServerHandler;
import io.tell.cm.internal.CmTlsRefusal;
import io.tell.net.Listener;
import io.tell.txn.CommitManager;
import io.tell.txn.CountingCommitManager;
import java.net.InetSocketAddress;

/**
 * Serves a {@link CommitManager} (normally a {@link LocalCommitManager}) over TCP with the
 * {@link CmProtocol} frames. The wrapped manager's async methods are called on the event
 * loop, so they must not block (those of {@link LocalCommitManager} do not). Closing the
 * server closes its connections but not the wrapped manager, which belongs to the caller.
 *
 * <p>Started with a {@link ClusterSecret}, it serves only clients that prove they hold it (the
 * handshake of {@link CmProtocol}); without one it serves anyone who reaches the port, which
 * is for local development only. Started with {@link CmTls}, it speaks only TLS (and refuses a
 * plain client with one plain {@code ERROR AUTH_FAILED}).
 */
public final class CommitManagerServer implements AutoCloseable {
    private final Listener listener;
    private final CountingCommitManager served;

    private CommitManagerServer(Listener listener, CountingCommitManager served) {
        this.listener = listener;
        this.served = served;
    }

    /** The requests this server has served, by kind (for metrics). */
    public CountingCommitManager.Counts served() {
        return served.counts();
    }

    /** Binds {@code host:port} ({@code port} 0 picks a free one, see {@link #port()}) and serves anyone: local development only. */
    public static CommitManagerServer start(CommitManager commitManager, String host, int port) {
        return start(commitManager, host, port, null);
    }

    /** As {@link #start(CommitManager, String, int)}, serving only peers that prove {@code secret} (null: anyone). */
    public static CommitManagerServer start(CommitManager commitManager, String host, int port, ClusterSecret secret) {
        return start(commitManager, host, port, secret, null);
    }

    /**
     * As {@link #start(CommitManager, String, int, ClusterSecret)}, speaking only TLS with
     * {@code tls} ({@link CmTls#server}; null: plain TCP). The secret handshake runs inside TLS.
     */
    public static CommitManagerServer start(CommitManager commitManager, String host, int port, ClusterSecret secret, CmTls tls) {
        if (tls != null && !tls.isServer()) {
            throw new IllegalArgumentException("a commit manager server needs CmTls.server(cert, key)");
        }
        CountingCommitManager served = new CountingCommitManager(commitManager);
        Listener listener = Listener.bind("cm", host, port, ch -> {
            if (tls != null) {
                ch.pipeline().addLast(tls.serverHandler(ch), new CmTlsRefusal());
            }
            ch.pipeline().addLast(
                    new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true),
                    CmFrameDecoder.forServer());
            if (secret != null) {
                ch.pipeline().addLast(new CmServerAuthHandler(secret));
            }
            ch.pipeline().addLast(new CmServerHandler(served));
        });
        return new CommitManagerServer(listener, served);
    }

    public InetSocketAddress address() {
        return listener.address();
    }

    /** The bound port (the real one when started with port 0). */
    public int port() {
        return listener.port();
    }

    /** Stops listening and closes every connection; the wrapped commit manager stays open. */
    @Override
    public void close() {
        listener.close();
    }
}
