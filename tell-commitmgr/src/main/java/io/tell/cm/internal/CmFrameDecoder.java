package io.tell.cm.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.tell.error.ErrorCode;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream into {@link CmProtocol} frames and strips the length prefix. A
 * length above {@code maxFrame} fails at once (before the bytes arrive), so a peer cannot
 * make us buffer a huge frame; a connection that ends inside a frame is logged.
 *
 * <p>On a server without TLS, a connection whose first bytes are a TLS record (a TLS client)
 * gets one plain {@code ERROR AUTH_FAILED} and is closed: the client's TLS layer then fails at
 * once on a record that is not TLS, instead of on a bare close it could take for an outage.
 */
public final class CmFrameDecoder extends LengthFieldBasedFrameDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(CmFrameDecoder.class);

    private final boolean server;
    private boolean first = true;
    private boolean refused;

    private CmFrameDecoder(int maxFrame, boolean server) {
        super(CmProtocol.LENGTH_BYTES + maxFrame, 0, CmProtocol.LENGTH_BYTES, 0, CmProtocol.LENGTH_BYTES, true);
        this.server = server;
    }

    /** Request frames, on a server. */
    public static CmFrameDecoder forServer() {
        return new CmFrameDecoder(CmProtocol.MAX_REQUEST_FRAME, true);
    }

    /** Response frames, on a client. */
    public static CmFrameDecoder forClient() {
        return new CmFrameDecoder(CmProtocol.MAX_RESPONSE_FRAME, false);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        if (first && server) {
            if (in.readableBytes() < 2) {
                return null;
            }
            first = false;
            if (isTlsRecord(in)) {
                refused = true;
                LOG.warn("refusing connection from {}: it speaks TLS and this commit manager does not (no --tls-cert)",
                        ctx.channel().remoteAddress());
                in.skipBytes(in.readableBytes());
                ctx.writeAndFlush(CmProtocol.encode(ctx.alloc(), new CmProtocol.Failed(0, ErrorCode.AUTH_FAILED.name(),
                        "this commit manager does not use TLS"))).addListener(ChannelFutureListener.CLOSE);
                return null;
            }
        }
        return super.decode(ctx, in);
    }

    /**
     * Whether {@code in} starts like a TLS record: a content type of 20..23 and major version 3.
     * A frame cannot: its first byte is the top of a length below 16 MiB, so 0.
     */
    private static boolean isTlsRecord(ByteBuf in) {
        int type = in.getUnsignedByte(in.readerIndex());
        return type >= 20 && type <= 23 && in.getUnsignedByte(in.readerIndex() + 1) == 3;
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (in.isReadable()) {
            LOG.error("connection {} closed inside a frame ({} bytes left undecoded)", ctx.channel().remoteAddress(), in.readableBytes());
        }
    }
}
