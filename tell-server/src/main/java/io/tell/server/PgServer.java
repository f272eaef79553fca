package io.tell.server;

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
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.server.internal.ConnectionContext;
import io.tell.server.internal.PgConnection;
import io.tell.server.internal.PgFrameDecoder;
import io.tell.sql.ProcessingNode;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A processing node served over PostgreSQL's frontend/backend protocol (v3): any PostgreSQL
 * client reaches the node's SQL. Each connection is a session of the one node, so they share
 * its plan cache and catalog. Netty's event loops only cut and encode frames; each connection
 * runs its statements on its own virtual thread, so a slow store never stalls other clients.
 * Closing the server closes every connection (rolling back their transactions) but not the
 * node, which belongs to the caller.
 */
public final class PgServer implements AutoCloseable {
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel serverChannel;
    private final ChannelGroup connections;
    private final InetSocketAddress address;
    private final ConnectionContext context;

    private PgServer(EventLoopGroup boss, EventLoopGroup workers, Channel serverChannel, ChannelGroup connections,
                     ConnectionContext context) {
        this.context = context;
        this.boss = boss;
        this.workers = workers;
        this.serverChannel = serverChannel;
        this.connections = connections;
        this.address = (InetSocketAddress) serverChannel.localAddress();
    }

    /** Binds {@code config.host():config.port()} (port 0 picks a free one) and serves {@code node}. */
    public static PgServer start(ProcessingNode node, PgServerConfig config) {
        PgUsers users = config.users();
        ConnectionContext context = new ConnectionContext(node, users == null ? null : users::verifier, config.authenticationTimeout(),
                config.tls() == null ? null : config.tls().context(), config.readOnly());
        EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("tell-pg-accept", true));
        EventLoopGroup workers = new NioEventLoopGroup(Math.min(4, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory("tell-pg-io", true));
        ChannelGroup connections = new DefaultChannelGroup("tell-pg-connections", GlobalEventExecutor.INSTANCE);
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
                            ch.pipeline().addLast(new PgFrameDecoder(config.maxMessageBytes()), new PgConnection(context));
                        }
                    })
                    .bind(config.host(), config.port()).syncUninterruptibly().channel();
            return new PgServer(boss, workers, channel, connections, context);
        } catch (Exception e) { // bind failures arrive as checked exceptions, rethrown unchecked by Netty
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "cannot listen on " + config.host() + ":" + config.port() + ": " + e, e);
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    /** The bound port (the real one when started with port 0). */
    public int port() {
        return address.getPort();
    }

    /** Stops listening and closes every connection; returns once their sessions have rolled back open transactions. */
    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        connections.close().awaitUninterruptibly();
        try {
            context.awaitWorkers(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
