package io.tell.cm.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.CommitManager;
import io.tell.txn.TxStart;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@link CmProtocol} requests of one connection from a {@link CommitManager}. Runs on
 * the connection's event loop and never blocks it: the commit manager's async methods return
 * at once, and the answer is written whenever the future completes (a durable commit manager
 * completes reports from its journal thread; writing from there is safe, Netty hands the
 * write to the event loop). A protocol error closes this connection only. A STARTED answer
 * that cannot be delivered (the connection closed first, or the write failed) ends the
 * transaction it started, which no client knows of.
 */
public final class CmServerHandler extends SimpleChannelInboundHandler<ByteBuf> {
    private static final Logger LOG = LoggerFactory.getLogger(CmServerHandler.class);
    private final CommitManager commitManager;

    public CmServerHandler(CommitManager commitManager) {
        this.commitManager = commitManager;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
        CmProtocol.Request request;
        try {
            request = CmProtocol.decodeRequest(frame);
        } catch (TellException e) {
            closeWithProtocolError(ctx, CmProtocol.requestIdOf(frame.readerIndex(0)), e.getMessage());
            return;
        }
        Channel channel = ctx.channel();
        switch (request) {
            case CmProtocol.Start s -> call(() -> commitManager.startAsync(s.readOnly(), s.owner()))
                    .whenComplete((started, failure) -> reply(channel, s.requestId(), started, failure));
            case CmProtocol.Report r -> call(() -> r.outcome().sendTo(commitManager, r.tid(), r.version()))
                    .whenComplete((ignored, failure) -> reply(channel, r.requestId(), null, failure));
            case CmProtocol.Validating v -> call(() -> commitManager.validatingAsync(v.tid()))
                    .whenComplete((ignored, failure) -> reply(channel, v.requestId(), null, failure));
            case CmProtocol.Auth a -> closeWithProtocolError(ctx, a.requestId(),
                    "AUTH on a connection that needs none (this commit manager has no cluster secret) or is already authenticated");
        }
    }

    private static void closeWithProtocolError(ChannelHandlerContext ctx, long requestId, String message) {
        LOG.error("closing connection from {}: {}", ctx.channel().remoteAddress(), message);
        if (requestId >= 0) {
            // Tell a peer of another protocol version why, then hang up.
            ctx.writeAndFlush(CmProtocol.encode(ctx.alloc(), new CmProtocol.Failed(requestId, ErrorCode.PROTOCOL_ERROR.name(), message)))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.close();
        }
    }

    private static <T> CompletableFuture<T> call(java.util.function.Supplier<CompletableFuture<T>> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private void reply(Channel channel, long requestId, TxStart started, Throwable failure) {
        CmProtocol.Response response;
        if (failure != null) {
            TellException e = TellException.unwrap(failure);
            if (e.code() == ErrorCode.INTERNAL) {
                LOG.error("commit manager failed on request {} from {}", requestId, channel.remoteAddress(), failure);
            }
            response = new CmProtocol.Failed(requestId, e.code().name(), e.getMessage());
        } else if (started != null) {
            response = new CmProtocol.Started(requestId, started);
        } else {
            response = new CmProtocol.Ok(requestId);
        }
        if (!channel.isActive()) {
            LOG.debug("connection {} closed before answer {} could be sent", channel.remoteAddress(), requestId);
            release(started);
            return;
        }
        if (started == null) {
            channel.writeAndFlush(CmProtocol.encode(channel.alloc(), response), channel.voidPromise());
            return;
        }
        channel.writeAndFlush(CmProtocol.encode(channel.alloc(), response)).addListener(written -> {
            if (!written.isSuccess()) {
                LOG.debug("answer {} to {} could not be sent: {}", requestId, channel.remoteAddress(), written.cause().toString());
                release(started);
            }
        });
    }

    /**
     * Ends a transaction whose client never learnt its id: nobody will report it, and left
     * running it would pin lav forever. A read-write tid has written nothing yet, so it is
     * aborted; a reader is ended the way readers always are.
     */
    private void release(TxStart started) {
        if (started == null) {
            return;
        }
        long id = started.tid();
        call(() -> CommitManager.Outcome.unused(id).sendTo(commitManager, id, 0))
                .whenComplete((ignored, failure) -> {
                    if (failure != null) {
                        LOG.warn("could not release undelivered transaction {}: {}", id, failure.toString());
                    }
                });
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.error("closing connection from {}: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
