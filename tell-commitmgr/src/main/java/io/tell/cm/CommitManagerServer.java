package io.tell.cm;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tell.cm.internal.CmFrameDecoder;
import io.tell.cm.internal.CmProtocol;
import io.tell.cm.internal.CmServerAuthHandler;
import io.tell.cm.internal.CmServerHandler;
import io.tell.cm.internal.CmTlsRefusal;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.CommitManager;
import io.tell.txn.CountingCommitManager;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

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
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel serverChannel;
    private final ChannelGroup connections;
    private final InetSocketAddress address;
    private final CountingCommitManager served;

    private CommitManagerServer(EventLoopGroup boss, EventLoopGroup workers, Channel serverChannel, ChannelGroup connections,
                                CountingCommitManager served) {
        this.served = served;
        this.boss = boss;
        this.workers = workers;
        this.serverChannel = serverChannel;
        this.connections = connections;
        this.address = (InetSocketAddress) serverChannel.localAddress();
    }

    /** Binds {@code host:port} ({@code port} 0 picks a free one, see {@link #port()}) and serves anyone: local development only. */
    /** The requests this server has served, by kind (for metrics). */
    public CountingCommitManager.Counts served() {
        return served.counts();
    }

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
        if (commitManager instanceof LocalCommitManager local) {
            local.servedOverTheWire(); // remote writers do not report validating(tid)
        }
        CountingCommitManager served = new CountingCommitManager(commitManager);
        EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("tell-cm-accept", true));
        EventLoopGroup workers = new NioEventLoopGroup(Math.min(4, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory("tell-cm-server", true));
        ChannelGroup connections = new DefaultChannelGroup("tell-cm-connections", GlobalEventExecutor.INSTANCE);
        try {
            Channel channel = new ServerBootstrap()
                    .group(boss, workers)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            connections.add(ch);
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
                        }
                    })
                    .bind(host, port).syncUninterruptibly().channel();
            return new CommitManagerServer(boss, workers, channel, connections, served);
        } catch (Exception e) { // bind failures arrive as checked exceptions, rethrown unchecked by Netty
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "cannot listen on " + host + ":" + port + ": " + e, e);
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    /** The bound port (the real one when started with port 0). */
    public int port() {
        return address.getPort();
    }

    /** Stops listening and closes every connection; the wrapped commit manager stays open. */
    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        connections.close().awaitUninterruptibly();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
