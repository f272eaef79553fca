package io.tell.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandler;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event-loop side of one client connection. It answers what needs no session (SSLRequest,
 * CancelRequest, a malformed frame) itself and hands every other message, in order, to the
 * connection's own virtual thread, where {@link PgProtocol} may block on the store.
 */
public final class PgConnection extends SimpleChannelInboundHandler<FrontendMessage> {
    private static final Logger LOG = LoggerFactory.getLogger(PgConnection.class);

    /** Reading stops while this many bytes of messages wait for the connection's thread, and resumes below half of it. */
    static final long MAX_PENDING_BYTES = 16 << 20;

    private final ConnectionContext context;
    private final AtomicLong pendingBytes = new AtomicLong();
    private ExecutorService worker;
    private PgProtocol protocol;
    private ScheduledFuture<?> loginTimeout;

    public PgConnection(ConnectionContext context) {
        this.context = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        worker = Executors.newSingleThreadExecutor(Thread.ofVirtual().name("tell-pg-" + ctx.channel().remoteAddress()).factory());
        context.workers().add(worker);
        protocol = new PgProtocol(context, ctx.channel());
        // A client that connects and never completes its login must not hold a connection for ever.
        loginTimeout = ctx.executor().schedule(() -> {
            if (!protocol.authenticated() && ctx.channel().isActive()) {
                LOG.info("closing connection from {}: no login within {}", ctx.channel().remoteAddress(), context.authenticationTimeout());
                ByteBuf error = ctx.alloc().buffer();
                BackendWriter.encodeError(error, "FATAL", "08P01", "authentication timeout");
                ctx.writeAndFlush(error).addListener(ChannelFutureListener.CLOSE);
            }
        }, context.authenticationTimeout().toMillis(), TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FrontendMessage message) {
        switch (message) {
            case FrontendMessage.EncryptionRequest r -> encryption(ctx, r.ssl());
            case FrontendMessage.CancelRequest c -> {
                context.cancels().cancel(c.processId(), c.secretKey());
                ctx.close();
            }
            default -> handOver(ctx, message);
        }
    }

    /**
     * Queues {@code message} for the connection's thread. A client that sends faster than its
     * statements run is not buffered without bound: reading pauses (TCP then pushes back on the
     * client, as with PostgreSQL's own blocking reads) until the thread has caught up.
     */
    private void handOver(ChannelHandlerContext ctx, FrontendMessage message) {
        long size = message.approximateSize();
        if (pendingBytes.addAndGet(size) > MAX_PENDING_BYTES) {
            ctx.channel().config().setAutoRead(false);
        }
        worker.execute(() -> {
            try {
                protocol.handle(message);
            } finally {
                if (pendingBytes.addAndGet(-size) <= MAX_PENDING_BYTES / 2 && !ctx.channel().config().isAutoRead()) {
                    ctx.channel().config().setAutoRead(true);
                }
            }
        });
    }

    /**
     * Answers SSLRequest with 'S' and starts TLS when the server has it; 'N' otherwise (and to
     * GSSENCRequest). The 'S' is flushed before the SslHandler goes first in the pipeline, so it
     * leaves in plain text, and the client's handshake, which it sends only after reading it, is
     * the first thing the handler sees.
     */
    private void encryption(ChannelHandlerContext ctx, boolean ssl) {
        if (ssl && context.tls() != null && ctx.pipeline().get(SslHandler.class) == null) {
            ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('S'));
            ctx.pipeline().addFirst(context.tls().newHandler(ctx.alloc()));
        } else if (ctx.pipeline().get(SslHandler.class) != null) {
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, "an encryption request inside TLS");
        } else {
            ctx.writeAndFlush(ctx.alloc().buffer(1).writeByte('N'));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable e = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (e instanceof TellException t && t.code() == ErrorCode.PROTOCOL_ERROR) {
            LOG.warn("closing connection from {}: protocol violation: {}", ctx.channel().remoteAddress(), t.getMessage());
            ByteBuf error = ctx.alloc().buffer();
            BackendWriter.encodeError(error, "FATAL", "08P01", t.getMessage());
            ctx.writeAndFlush(error).addListener(ChannelFutureListener.CLOSE);
        } else if (e instanceof IOException) {
            LOG.debug("connection from {} failed: {}", ctx.channel().remoteAddress(), e.toString());
            ctx.close();
        } else {
            LOG.error("closing connection from {} after an internal error", ctx.channel().remoteAddress(), e);
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (loginTimeout != null) {
            loginTimeout.cancel(false);
        }
        if (worker != null) {
            protocol.cancelRunning(); // a statement still running for a client that is gone
            ExecutorService w = worker;
            w.execute(() -> {
                protocol.close(); // rolls back an open transaction
                context.workers().remove(w);
            });
            w.shutdown();
        }
        ctx.fireChannelInactive();
    }
}
