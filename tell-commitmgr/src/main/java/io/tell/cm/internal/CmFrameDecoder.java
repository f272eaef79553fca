package io.tell.cm.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream into {@link CmProtocol} frames and strips the length prefix. A
 * length above {@code maxFrame} fails at once (before the bytes arrive), so a peer cannot
 * make us buffer a huge frame; a connection that ends inside a frame is logged.
 */
public final class CmFrameDecoder extends LengthFieldBasedFrameDecoder {
    private static final Logger LOG = LoggerFactory.getLogger(CmFrameDecoder.class);

    public CmFrameDecoder(int maxFrame) {
        super(CmProtocol.LENGTH_BYTES + maxFrame, 0, CmProtocol.LENGTH_BYTES, 0, CmProtocol.LENGTH_BYTES, true);
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        super.decodeLast(ctx, in, out);
        if (in.isReadable()) {
            LOG.error("connection {} closed inside a frame ({} bytes left undecoded)", ctx.channel().remoteAddress(), in.readableBytes());
        }
    }
}
