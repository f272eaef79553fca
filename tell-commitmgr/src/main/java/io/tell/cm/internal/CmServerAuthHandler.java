package io.tell.cm.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.tell.cm.ClusterSecret;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server side of the {@link CmProtocol} handshake, in front of {@link CmServerHandler}: sends
 * CHALLENGE on connect and lets frames through only after a valid AUTH, when it takes itself
 * out of the pipeline. Any other frame first, a wrong proof, or no AUTH within
 * {@value #TIMEOUT_MILLIS} ms is answered with ERROR AUTH_FAILED, logged once with the peer's
 * address, and the connection closed; the frame and everything after it are dropped, so a
 * refused peer changes no state.
 */
public final class CmServerAuthHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(CmServerAuthHandler.class);
    /** How long a peer may stay connected without authenticating. */
    static final long TIMEOUT_MILLIS = 10_000;

    private final ClusterSecret secret;
    private final byte[] serverNonce = CmHandshake.nonce();
    private ScheduledFuture<?> timeout;
    private boolean refused;

    public CmServerAuthHandler(ClusterSecret secret) {
        this.secret = secret;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(CmProtocol.encode(ctx.alloc(), new CmProtocol.Challenge(0, serverNonce)));
        timeout = ctx.executor().schedule(() -> refuse(ctx, 0, "did not authenticate within " + TIMEOUT_MILLIS + " ms"),
                TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            if (!refused) {
                check(ctx, frame);
            }
        } finally {
            frame.release();
        }
    }

    private void check(ChannelHandlerContext ctx, ByteBuf frame) {
        long id = Math.max(0, CmProtocol.requestIdOf(frame));
        CmProtocol.Request request;
        try {
            request = CmProtocol.decodeRequest(frame);
        } catch (TellException e) {
            refuse(ctx, id, "sent a malformed frame before authenticating (" + e.getMessage() + ")");
            return;
        }
        if (!(request instanceof CmProtocol.Auth auth)) {
            refuse(ctx, id, "sent a request before authenticating (it has no cluster secret, or an old client)");
            return;
        }
        if (!CmHandshake.matches(CmHandshake.clientProof(secret, serverNonce, auth.clientNonce()), auth.proof())) {
            refuse(ctx, id, "proved a different cluster secret");
            return;
        }
        timeout.cancel(false);
        ctx.writeAndFlush(CmProtocol.encode(ctx.alloc(),
                new CmProtocol.Authenticated(0, CmHandshake.serverProof(secret, serverNonce, auth.clientNonce()))));
        LOG.debug("authenticated connection from {}", ctx.channel().remoteAddress());
        ctx.pipeline().remove(this); // later frames, even of this same read, go straight to the server handler
    }

    private void refuse(ChannelHandlerContext ctx, long requestId, String why) {
        if (refused) {
            return;
        }
        refused = true;
        LOG.warn("refusing connection from {}: {}", ctx.channel().remoteAddress(), why);
        String message = "this commit manager serves only members of its cluster: " + why
                + "; give the client the cluster secret (TELL_CLUSTER_SECRET, or a secret file)";
        ctx.writeAndFlush(CmProtocol.encode(ctx.alloc(), new CmProtocol.Failed(requestId, ErrorCode.AUTH_FAILED.name(), message)))
                .addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timeout != null) {
            timeout.cancel(false);
        }
        ctx.fireChannelInactive();
    }
}
