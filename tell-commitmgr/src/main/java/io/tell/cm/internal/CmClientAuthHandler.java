package io.tell.cm.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tell.cm.ClusterSecret;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.concurrent.CompletableFuture;

/**
 * The client side of the {@link CmProtocol} handshake, in front of {@link CmClientConnection}:
 * answers the server's CHALLENGE with AUTH and checks the server's proof in AUTHENTICATED, then
 * takes itself out of the pipeline and completes {@link #authenticated()}. The client sends no
 * request before that. A refusal (ERROR), a wrong proof or anything unexpected fails the future
 * and closes the connection.
 */
public final class CmClientAuthHandler extends ChannelInboundHandlerAdapter {
    private final ClusterSecret secret;
    private final String peer;
    private final byte[] clientNonce = CmHandshake.nonce();
    private final CompletableFuture<Void> authenticated = new CompletableFuture<>();
    private byte[] serverNonce;

    public CmClientAuthHandler(ClusterSecret secret, String peer) {
        this.secret = secret;
        this.peer = peer;
    }

    /** Completes once the server proved the secret; fails with AUTH_FAILED (or CM_UNAVAILABLE when the connection dropped). */
    public CompletableFuture<Void> authenticated() {
        return authenticated;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            answer(ctx, CmProtocol.decodeResponse(frame));
        } catch (TellException e) {
            fail(ctx, e);
        } finally {
            frame.release();
        }
    }

    private void answer(ChannelHandlerContext ctx, CmProtocol.Response response) {
        if (response instanceof CmProtocol.Challenge c && serverNonce == null) {
            serverNonce = c.serverNonce();
            byte[] proof = CmHandshake.clientProof(secret, serverNonce, clientNonce);
            ctx.writeAndFlush(CmProtocol.encode(ctx.alloc(), new CmProtocol.Auth(0, clientNonce, proof)));
        } else if (response instanceof CmProtocol.Authenticated a && serverNonce != null) {
            if (!CmHandshake.matches(CmHandshake.serverProof(secret, serverNonce, clientNonce), a.proof())) {
                throw TellException.of(ErrorCode.AUTH_FAILED, "commit manager " + peer
                        + " could not prove it holds the cluster secret (a different cluster, or not a member)");
            }
            ctx.pipeline().remove(this);
            authenticated.complete(null);
        } else if (response instanceof CmProtocol.Failed f) {
            throw f.toException(peer);
        } else {
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, "commit manager " + peer + " answered "
                    + response.getClass().getSimpleName() + " during the handshake");
        }
    }

    private void fail(ChannelHandlerContext ctx, TellException e) {
        authenticated.completeExceptionally(e);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        authenticated.completeExceptionally(TellException.of(ErrorCode.CM_UNAVAILABLE,
                "connection to commit manager " + peer + " closed during the handshake"));
        ctx.fireChannelInactive();
    }
}
