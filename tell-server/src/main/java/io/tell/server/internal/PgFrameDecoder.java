package io.tell.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.List;

/**
 * Cuts the byte stream into frames and decodes each into a {@link FrontendMessage}. Before
 * the startup message, frames have no type byte ({@code length:int32 code:int32 …}); after it,
 * {@code type:byte length:int32 body}. A declared length below 4, above the limit, or a body
 * that does not parse is a {@code PROTOCOL_ERROR}: the connection handler answers 08P01 and
 * closes, and this decoder drops whatever else arrives, so nothing after a bad frame is acted on.
 */
public final class PgFrameDecoder extends ByteToMessageDecoder {
    /** PostgreSQL's own limit for a startup packet. */
    static final int MAX_STARTUP_LENGTH = 10_000;

    private final int maxMessageLength;
    private boolean started;
    private boolean stopped;

    public PgFrameDecoder(int maxMessageLength) {
        this.maxMessageLength = maxMessageLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (stopped) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            FrontendMessage message = started ? typed(in) : untyped(in);
            if (message != null) {
                out.add(message);
            }
        } catch (TellException e) {
            stopped = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    private FrontendMessage untyped(ByteBuf in) {
        if (in.readableBytes() < 4) {
            return null;
        }
        int length = in.getInt(in.readerIndex());
        if (length < 8 || length > MAX_STARTUP_LENGTH) {
            throw violation("startup packet length " + length + " is outside 8.." + MAX_STARTUP_LENGTH);
        }
        if (in.readableBytes() < length) {
            return null;
        }
        in.skipBytes(4);
        ByteBuf body = in.readSlice(length - 4);
        FrontendMessage message = FrontendMessages.startup(body);
        if (message instanceof FrontendMessage.Startup) {
            started = true;
        } else if (message instanceof FrontendMessage.CancelRequest) {
            stopped = true; // a cancel connection carries nothing else
        }
        return message;
    }

    private FrontendMessage typed(ByteBuf in) {
        if (in.readableBytes() < 5) {
            return null;
        }
        byte type = in.getByte(in.readerIndex());
        int length = in.getInt(in.readerIndex() + 1);
        if (length < 4 || length > maxMessageLength) {
            throw violation("message '" + (char) type + "' declares length " + length + ", outside 4.." + maxMessageLength);
        }
        if (in.readableBytes() < length + 1) {
            return null;
        }
        in.skipBytes(5);
        return FrontendMessages.typed(type, in.readSlice(length - 4));
    }

    static TellException violation(String message) {
        return TellException.of(ErrorCode.PROTOCOL_ERROR, message);
    }
}
