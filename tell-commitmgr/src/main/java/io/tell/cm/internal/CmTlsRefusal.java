package io.tell.cm.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.tell.error.ErrorCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On a TLS server, right behind the {@code SslHandler}: a peer that sends plain frames gets one
 * plain {@code ERROR AUTH_FAILED} (written past the {@code SslHandler}, before it closes the
 * connection) that says TLS is required, rather than a bare close. The handler stays in the
 * pipeline but does nothing else.
 */
public final class CmTlsRefusal extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(CmTlsRefusal.class);

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslHandshakeCompletionEvent done && done.cause() instanceof NotSslRecordException) {
            LOG.warn("refusing connection from {}: it does not speak TLS", ctx.channel().remoteAddress());
            ctx.pipeline().firstContext().writeAndFlush(CmProtocol.encode(ctx.alloc(), new CmProtocol.Failed(0,
                    ErrorCode.AUTH_FAILED.name(), "this commit manager requires TLS: give the client the CA that signed its"
                            + " certificate (cmTlsCa=PATH in a Tell URL, CommitManagerClient.Options.withTlsCa)")));
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause.getCause() instanceof NotSslRecordException) {
            return; // answered above; the SslHandler closes the connection
        }
        ctx.fireExceptionCaught(cause);
    }
}
