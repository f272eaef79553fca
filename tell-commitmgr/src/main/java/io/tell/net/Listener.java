package io.tell.net;

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
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A TCP server socket on Netty, as Tell's servers (commit manager, PN server) use it: one
 * accepting thread, up to four I/O threads (daemons named {@code tell-NAME-…}), TCP_NODELAY,
 * every connection tracked so that {@link #close} closes them all.
 */
public final class Listener implements AutoCloseable {
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel serverChannel;
    private final ChannelGroup connections;
    private final InetSocketAddress address;

    private Listener(EventLoopGroup boss, EventLoopGroup workers, Channel serverChannel, ChannelGroup connections) {
        this.boss = boss;
        this.workers = workers;
        this.serverChannel = serverChannel;
        this.connections = connections;
        this.address = (InetSocketAddress) serverChannel.localAddress();
    }

    /**
     * Binds {@code host:port} (port 0 picks a free one); {@code pipeline} sets up each accepted
     * connection's handlers. BAD_CONFIGURATION when the address cannot be bound.
     */
    public static Listener bind(String name, String host, int port, Consumer<SocketChannel> pipeline) {
        EventLoopGroup boss = new NioEventLoopGroup(1, new DefaultThreadFactory("tell-" + name + "-accept", true));
        EventLoopGroup workers = new NioEventLoopGroup(Math.min(4, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory("tell-" + name + "-io", true));
        ChannelGroup connections = new DefaultChannelGroup("tell-" + name + "-connections", GlobalEventExecutor.INSTANCE);
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
                            pipeline.accept(ch);
                        }
                    })
                    .bind(host, port).syncUninterruptibly().channel();
            return new Listener(boss, workers, channel, connections);
        } catch (Exception e) { // bind failures arrive as checked exceptions, rethrown unchecked by Netty
            boss.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            workers.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "cannot listen on " + host + ":" + port + ": " + e, e);
        }
    }

    public InetSocketAddress address() {
        return address;
    }

    /** The bound port (the real one when bound with port 0). */
    public int port() {
        return address.getPort();
    }

    /** Stops accepting and closes every connection; returns once the I/O threads have stopped. */
    @Override
    public void close() {
        close(() -> { });
    }

    /** {@link #close()}, running {@code connectionsClosed} after the connections are closed and before the threads stop. */
    public void close(Runnable connectionsClosed) {
        serverChannel.close().syncUninterruptibly();
        connections.close().awaitUninterruptibly();
        connectionsClosed.run();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
