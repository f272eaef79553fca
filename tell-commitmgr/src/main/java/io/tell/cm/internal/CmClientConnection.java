package io.tell.cm.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection to a commit-manager server: sends requests and matches responses to
 * them by request id. Futures of calls are completed on the event loop; they belong to the
 * client, which hands results to user code on another thread.
 */
public final class CmClientConnection extends SimpleChannelInboundHandler<ByteBuf> {
    private static final Logger LOG = LoggerFactory.getLogger(CmClientConnection.class);

    /** What the client learns from a connection. */
    public interface Listener {
        /** The connection closed; its pending calls have been failed. */
        void closed(CmClientConnection connection);

        /** An answer to a call that is no longer waiting (it timed out). */
        void unclaimed(CmClientConnection connection, CmProtocol.Response response);
    }

    /** A request in flight and the future its response completes. */
    public static final class Call {
        final CmProtocol.Request request;
        final CompletableFuture<CmProtocol.Response> future = new CompletableFuture<>();
        volatile CmClientConnection sentOn;

        public Call(CmProtocol.Request request) {
            this.request = request;
        }

        public CompletableFuture<CmProtocol.Response> future() {
            return future;
        }

        /** The connection the request was written to, or null while none was. */
        public CmClientConnection sentOn() {
            return sentOn;
        }
    }

    private final Listener listener;
    private final int addressIndex;
    private final String peer;
    private final Map<Long, Call> pending = new ConcurrentHashMap<>();
    private volatile Channel channel;
    /** Why the server refuses every call on this connection (it demanded a secret this client lacks), or null. */
    private volatile TellException refusal;

    public CmClientConnection(Listener listener, int addressIndex, String peer) {
        this.listener = listener;
        this.addressIndex = addressIndex;
        this.peer = peer;
    }

    public int addressIndex() {
        return addressIndex;
    }

    public String peer() {
        return peer;
    }

    public boolean isActive() {
        Channel c = channel;
        return c != null && c.isActive();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    /** Writes {@code call}; a write failure or a later close fails its future. Any thread. */
    public void send(Call call) {
        long id = call.request.requestId();
        call.sentOn = this;
        pending.put(id, call);
        channel.writeAndFlush(CmProtocol.encode(channel.alloc(), call.request)).addListener(f -> {
            if (!f.isSuccess() && pending.remove(id, call)) {
                call.future.completeExceptionally(refusal != null ? refusal : TellException.of(ErrorCode.CM_UNAVAILABLE,
                        "cannot send to commit manager " + peer + ": " + f.cause(), f.cause()));
            }
        });
        // Refused or closed between the put and the write: failAll may have missed the call.
        // (The refusal is set before failAll runs, so one of the two sees the call.)
        if ((refusal != null || !channel.isActive()) && pending.remove(id, call)) {
            call.future.completeExceptionally(refusal != null ? refusal : lost());
        }
    }

    /** Stops waiting for {@code call}'s answer (it timed out). */
    public void forget(Call call) {
        pending.remove(call.request.requestId(), call);
    }

    /** Closes the connection after {@code delayMillis}, still matching late answers meanwhile. */
    public void closeLater(long delayMillis) {
        Channel c = channel;
        c.eventLoop().schedule(() -> c.close(), delayMillis, TimeUnit.MILLISECONDS);
    }

    public void close() {
        channel.close();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
        CmProtocol.Response response;
        try {
            response = CmProtocol.decodeResponse(frame);
        } catch (TellException e) {
            LOG.error("closing connection to commit manager {}: {}", peer, e.getMessage());
            ctx.close();
            return;
        }
        if (response instanceof CmProtocol.Challenge || response instanceof CmProtocol.Authenticated) {
            // Only a client without a secret meets a handshake here (with one, CmClientAuthHandler
            // has finished it before any call is sent): the server will refuse every call.
            refusal = TellException.of(ErrorCode.AUTH_FAILED, "commit manager " + peer + " requires the cluster secret and "
                    + "this client has none (set " + io.tell.cm.ClusterSecret.ENV + ", or give a secret file)");
            failAll(refusal);
            ctx.close();
            return;
        }
        if (response instanceof CmProtocol.Failed f && f.requestId() == 0) {
            // About the connection, not a call (requests never use id 0): e.g. a TLS server
            // refusing plain frames. Every call on it fails the same way.
            failAll(f.toException(peer));
            ctx.close();
            return;
        }
        Call call = pending.remove(response.requestId());
        if (call == null) {
            listener.unclaimed(this, response);
        } else {
            call.future.complete(response);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        failAll(refusal != null ? refusal : lost());
        listener.closed(this);
    }

    /** Fails every pending call; one by one, so a call put meanwhile is either failed here or sees the cause in send. */
    private void failAll(TellException e) {
        for (Long id : pending.keySet()) {
            Call call = pending.remove(id);
            if (call != null) {
                call.future.completeExceptionally(e);
            }
        }
    }

    private TellException lost() {
        return TellException.of(ErrorCode.CM_UNAVAILABLE, "connection to commit manager " + peer + " lost");
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("closing connection to commit manager {}: {}", peer, cause.toString());
        ctx.close();
    }
}
