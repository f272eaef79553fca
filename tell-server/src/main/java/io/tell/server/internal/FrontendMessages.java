package io.tell.server.internal;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses frame bodies; every read is bounds-checked, so a short or overlong body is a protocol error. */
final class FrontendMessages {
    private static final int SSL_CODE = 80877103;
    private static final int GSSENC_CODE = 80877104;
    private static final int CANCEL_CODE = 80877102;

    private FrontendMessages() {
    }

    static FrontendMessage startup(ByteBuf body) {
        int code = int32(body);
        FrontendMessage message;
        if (code == SSL_CODE || code == GSSENC_CODE) {
            message = new FrontendMessage.EncryptionRequest(code == SSL_CODE);
        } else if (code == CANCEL_CODE) {
            message = new FrontendMessage.CancelRequest(int32(body), int32(body));
        } else if (code >>> 16 == 3) {
            Map<String, String> parameters = new LinkedHashMap<>();
            for (String key = cstring(body); !key.isEmpty(); key = cstring(body)) {
                parameters.put(key, cstring(body));
            }
            message = new FrontendMessage.Startup(code & 0xFFFF, parameters);
        } else {
            throw PgFrameDecoder.violation("unsupported frontend protocol " + (code >>> 16) + "." + (code & 0xFFFF)
                    + ": this server speaks 3.0");
        }
        end(body);
        return message;
    }

    static FrontendMessage typed(byte type, ByteBuf body) {
        FrontendMessage message = switch (type) {
            case 'p' -> new FrontendMessage.AuthResponse(bytes(body, body.readableBytes()));
            case 'Q' -> new FrontendMessage.Query(cstring(body));
            case 'P' -> parse(body);
            case 'B' -> bind(body);
            case 'D' -> new FrontendMessage.Describe(kind(body), cstring(body));
            case 'E' -> new FrontendMessage.Execute(cstring(body), int32(body));
            case 'C' -> new FrontendMessage.Close(kind(body), cstring(body));
            case 'S' -> new FrontendMessage.Sync();
            case 'H' -> new FrontendMessage.Flush();
            case 'X' -> new FrontendMessage.Terminate();
            case 'd' -> new FrontendMessage.CopyData(bytes(body, body.readableBytes()));
            case 'c' -> new FrontendMessage.CopyDone();
            case 'f' -> new FrontendMessage.CopyFail(cstring(body));
            default -> throw PgFrameDecoder.violation("unknown message type " + (type & 0xFF));
        };
        end(body);
        return message;
    }

    private static FrontendMessage parse(ByteBuf body) {
        String name = cstring(body);
        String sql = cstring(body);
        int[] types = new int[count(body, 4)];
        for (int i = 0; i < types.length; i++) {
            types[i] = int32(body);
        }
        return new FrontendMessage.Parse(name, sql, types);
    }

    private static FrontendMessage bind(ByteBuf body) {
        String portal = cstring(body);
        String statement = cstring(body);
        short[] parameterFormats = formats(body);
        int n = count(body, 4);
        List<byte[]> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int length = int32(body);
            if (length < -1) {
                throw PgFrameDecoder.violation("Bind parameter " + (i + 1) + " has length " + length);
            }
            values.add(length == -1 ? null : bytes(body, length));
        }
        return new FrontendMessage.Bind(portal, statement, parameterFormats, values, formats(body));
    }

    private static short[] formats(ByteBuf body) {
        short[] formats = new short[count(body, 2)];
        for (int i = 0; i < formats.length; i++) {
            need(body, 2);
            formats[i] = body.readShort();
            if (formats[i] != 0 && formats[i] != 1) {
                throw PgFrameDecoder.violation("format code " + formats[i] + " is neither 0 (text) nor 1 (binary)");
            }
        }
        return formats;
    }

    /** An int16 count of items of at least {@code itemSize} bytes each, checked against what is left. */
    private static int count(ByteBuf body, int itemSize) {
        need(body, 2);
        int n = body.readUnsignedShort();
        need(body, n * itemSize);
        return n;
    }

    private static byte kind(ByteBuf body) {
        need(body, 1);
        byte kind = body.readByte();
        if (kind != 'S' && kind != 'P') {
            throw PgFrameDecoder.violation("Describe/Close kind must be 'S' or 'P', got " + (kind & 0xFF));
        }
        return kind;
    }

    private static int int32(ByteBuf body) {
        need(body, 4);
        return body.readInt();
    }

    private static byte[] bytes(ByteBuf body, int length) {
        need(body, length);
        byte[] b = new byte[length];
        body.readBytes(b);
        return b;
    }

    private static String cstring(ByteBuf body) {
        int end = body.indexOf(body.readerIndex(), body.writerIndex(), (byte) 0);
        if (end < 0) {
            throw PgFrameDecoder.violation("a string is not terminated inside its message");
        }
        String s = body.toString(body.readerIndex(), end - body.readerIndex(), StandardCharsets.UTF_8);
        body.readerIndex(end + 1);
        return s;
    }

    private static void need(ByteBuf body, int bytes) {
        if (bytes < 0 || body.readableBytes() < bytes) {
            throw PgFrameDecoder.violation("message is shorter than its contents say");
        }
    }

    private static void end(ByteBuf body) {
        if (body.isReadable()) {
            throw PgFrameDecoder.violation("message has " + body.readableBytes() + " bytes after its contents");
        }
    }
}
