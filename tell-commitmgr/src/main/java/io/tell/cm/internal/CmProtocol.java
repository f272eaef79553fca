package io.tell.cm.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.CommitManager.Outcome;
import io.tell.txn.SnapshotDescriptor;
import io.tell.txn.TxStart;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The commit-manager wire protocol: length-prefixed binary frames over TCP, each carrying a
 * request id so that a client pipelines many requests on one connection and matches answers
 * (which may come back in any order) by id. All integers are big-endian.
 *
 * <pre>
 * frame    = length:int32  type:uint8  requestId:int64  body
 *            (length counts the bytes after itself: 9 + body length)
 *
 * requests (client to server)
 *   0x01 START      readOnly:uint8 (0 or 1)  [ownerLength:uint16 owner:UTF-8]
 *                   (owner: the processing node's lease id, absent for none)
 *   0x02 COMMITTED  tid:int64  logVersion:int64 (version of the tid's log entry, 0 for none)
 *   0x03 ABORTED    tid:int64
 *   0x05 DECIDED    tid:int64  entryVersion:int64 (a commit its node decided: its log entry is
 *                   COMMITTED at that version)
 *   0x06 VALIDATING tid:int64 (a SERIALIZABLE writer begins validating its reads)
 *   0x04 AUTH       clientNonce:32 bytes  proof:32 bytes (handshake, requestId 0)
 * responses (server to client, same requestId as the request)
 *   0x81 STARTED    tid:int64  lav:int64
 *                   writersFrom:int64  issuedUpTo:int64  writersTo:int64
 *                   validatingCount:int32  validating:int64 * validatingCount (TxStart.Writers)
 *                   snapshot (SnapshotDescriptor binary form:
 *                   base:int64 wordCount:int32 word:int64 * wordCount), exactly to the frame end
 *   0x82 OK         (empty)
 *   0x83 ERROR      codeLength:uint16 code:UTF-8 (an ErrorCode name)
 *                   messageLength:uint16 message:UTF-8
 *   0x84 CHALLENGE  serverNonce:32 bytes (handshake, requestId 0, sent unasked on connect)
 *   0x85 AUTHENTICATED proof:32 bytes (handshake, requestId 0, answers AUTH)
 * </pre>
 *
 * <p>Handshake, only when the server has a {@link io.tell.cm.ClusterSecret}: on connect the
 * server sends CHALLENGE with a fresh random nonce; the client answers AUTH with its own nonce
 * and HMAC-SHA256(secret, "tell-cm-client\0" || serverNonce || clientNonce); the server checks it
 * and answers AUTHENTICATED with HMAC-SHA256(secret, "tell-cm-server\0" || serverNonce ||
 * clientNonce), which the client checks in turn (see {@link CmHandshake}). Until then the server
 * answers any other frame, or a wrong proof, with ERROR AUTH_FAILED (the frame's request id, or
 * 0) and closes the connection; nothing such a peer sends reaches the commit manager. A client
 * with a secret uses a connection only once the server has proved itself. Without a secret
 * there is no handshake, and an AUTH frame is a protocol error.
 *
 * A request frame may be at most {@value #MAX_REQUEST_FRAME} bytes and a response frame at
 * most {@value #MAX_RESPONSE_FRAME} (a snapshot whose base is held back by a long-running
 * transaction carries one bit per later tid). A frame that breaks these rules, has an unknown
 * type or a body of the wrong size is a protocol error: the receiver closes that connection.
 * One request gets exactly one response; COMMITTED, DECIDED, ABORTED and VALIDATING are idempotent, so a client may
 * resend them (with a new request id) after a lost connection.
 */
public final class CmProtocol {
    /** Bytes of the length prefix. */
    public static final int LENGTH_BYTES = 4;
    /** Bytes of type and request id, the smallest legal frame after the prefix. */
    public static final int HEADER_BYTES = 9;
    public static final int MAX_REQUEST_FRAME = 1024;
    public static final int MAX_RESPONSE_FRAME = 16 << 20;

    public static final byte START = 0x01;
    public static final byte COMMITTED = 0x02;
    public static final byte ABORTED = 0x03;
    public static final byte AUTH = 0x04;
    public static final byte DECIDED = 0x05;
    public static final byte VALIDATING = 0x06;
    public static final byte STARTED = (byte) 0x81;
    public static final byte OK = (byte) 0x82;
    public static final byte ERROR = (byte) 0x83;
    public static final byte CHALLENGE = (byte) 0x84;
    public static final byte AUTHENTICATED = (byte) 0x85;

    private static final int MAX_ERROR_TEXT_CHARS = 4000;
    /** STARTED's body before the validating tids: tid, lav, the writers' three bounds, their count. */
    private static final int STARTED_FIXED_BYTES = 5 * 8 + 4;

    private CmProtocol() {
    }

    /** A request as decoded by the server. */
    public sealed interface Request {
        long requestId();
    }

    /** {@code owner}: the lease id of the processing node starting, or null. */
    public record Start(long requestId, boolean readOnly, String owner) implements Request {
        public Start(long requestId, boolean readOnly) {
            this(requestId, readOnly, null);
        }
    }

    /** COMMITTED or DECIDED (with the log entry's version, 0 for none) or ABORTED ({@code version} 0). */
    public record Report(long requestId, Outcome outcome, long tid, long version) implements Request {
    }

    /** VALIDATING: SERIALIZABLE writer {@code tid} begins validating its reads. */
    public record Validating(long requestId, long tid) implements Request {
    }

    /** AUTH: the client's nonce and its proof of the secret. */
    public record Auth(long requestId, byte[] clientNonce, byte[] proof) implements Request {
    }

    /** A response as decoded by the client. */
    public sealed interface Response {
        long requestId();
    }

    public record Started(long requestId, TxStart start) implements Response {
    }

    public record Ok(long requestId) implements Response {
    }

    /** CHALLENGE: the server's nonce, which the client's proof must cover. */
    public record Challenge(long requestId, byte[] serverNonce) implements Response {
    }

    /** AUTHENTICATED: the server's proof of the secret. */
    public record Authenticated(long requestId, byte[] proof) implements Response {
    }

    /** ERROR: {@code code} is an {@link ErrorCode} name (kept as text: a newer peer may send a name we do not know). */
    public record Failed(long requestId, String code, String message) implements Response {
        /** The exception this error stands for; unknown codes become {@link ErrorCode#INTERNAL}. */
        public TellException toException(String peer) {
            ErrorCode known;
            try {
                known = ErrorCode.valueOf(code);
            } catch (IllegalArgumentException e) {
                return TellException.of(ErrorCode.INTERNAL, peer + " answered with unknown error " + code + ": " + message);
            }
            return TellException.of(known, message + " (from commit manager " + peer + ")");
        }

        public boolean is(ErrorCode c) {
            return c.name().equals(code);
        }
    }

    public static ByteBuf encode(ByteBufAllocator alloc, Request request) {
        return switch (request) {
            case Start s -> {
                if (s.owner() == null) {
                    yield header(alloc, START, s.requestId(), 1).writeByte(s.readOnly() ? 1 : 0);
                }
                byte[] owner = s.owner().getBytes(StandardCharsets.UTF_8);
                yield header(alloc, START, s.requestId(), 3 + owner.length).writeByte(s.readOnly() ? 1 : 0)
                        .writeShort(owner.length).writeBytes(owner);
            }
            case Report r -> switch (r.outcome()) {
                case COMMITTED -> header(alloc, COMMITTED, r.requestId(), 16).writeLong(r.tid()).writeLong(r.version());
                case DECIDED -> header(alloc, DECIDED, r.requestId(), 16).writeLong(r.tid()).writeLong(r.version());
                case ABORTED -> header(alloc, ABORTED, r.requestId(), 8).writeLong(r.tid());
            };
            case Validating v -> header(alloc, VALIDATING, v.requestId(), 8).writeLong(v.tid());
            case Auth a -> header(alloc, AUTH, a.requestId(), CmHandshake.NONCE_BYTES + CmHandshake.PROOF_BYTES)
                    .writeBytes(a.clientNonce()).writeBytes(a.proof());
        };
    }

    public static ByteBuf encode(ByteBufAllocator alloc, Response response) {
        return switch (response) {
            case Started s -> {
                byte[] snapshot = s.start().snapshot().toBytes();
                TxStart.Writers w = s.start().writers();
                ByteBuf out = header(alloc, STARTED, s.requestId(), STARTED_FIXED_BYTES + 8 * w.validating().length + snapshot.length)
                        .writeLong(s.start().tid()).writeLong(s.start().lav())
                        .writeLong(w.from()).writeLong(w.issuedUpTo()).writeLong(w.to()).writeInt(w.validating().length);
                for (long tid : w.validating()) {
                    out.writeLong(tid);
                }
                yield out.writeBytes(snapshot);
            }
            case Ok o -> header(alloc, OK, o.requestId(), 0);
            case Failed f -> {
                byte[] code = utf8(f.code());
                byte[] message = utf8(f.message());
                yield header(alloc, ERROR, f.requestId(), 4 + code.length + message.length)
                        .writeShort(code.length).writeBytes(code).writeShort(message.length).writeBytes(message);
            }
            case Challenge c -> header(alloc, CHALLENGE, c.requestId(), CmHandshake.NONCE_BYTES).writeBytes(c.serverNonce());
            case Authenticated a -> header(alloc, AUTHENTICATED, a.requestId(), CmHandshake.PROOF_BYTES).writeBytes(a.proof());
        };
    }

    private static ByteBuf header(ByteBufAllocator alloc, byte type, long requestId, int bodyBytes) {
        int length = HEADER_BYTES + bodyBytes;
        return alloc.buffer(LENGTH_BYTES + length).writeInt(length).writeByte(type).writeLong(requestId);
    }

    private static byte[] utf8(String s) {
        String text = s == null ? "" : s;
        if (text.length() > MAX_ERROR_TEXT_CHARS) {
            text = text.substring(0, MAX_ERROR_TEXT_CHARS); // 4000 chars are at most 12000 bytes
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The request id of a frame (length prefix stripped), or -1 when it is too short to have one. */
    public static long requestIdOf(ByteBuf frame) {
        return frame.readableBytes() >= HEADER_BYTES ? frame.getLong(frame.readerIndex() + 1) : -1;
    }

    /** Decodes one request frame (length prefix stripped); malformed input is {@link ErrorCode#PROTOCOL_ERROR}. */
    public static Request decodeRequest(ByteBuf frame) {
        checkHeader(frame);
        byte type = frame.readByte();
        long id = frame.readLong();
        return switch (type) {
            case START -> {
                if (frame.readableBytes() != 1 && (frame.readableBytes() < 3
                        || frame.readableBytes() != 3 + frame.getUnsignedShort(frame.readerIndex() + 1))) {
                    throw malformed("START with a body of " + frame.readableBytes() + " bytes");
                }
                byte readOnly = frame.readByte();
                if (readOnly != 0 && readOnly != 1) {
                    throw malformed("START with readOnly byte " + readOnly);
                }
                String owner = null;
                if (frame.readableBytes() > 0) {
                    byte[] b = new byte[frame.readUnsignedShort()];
                    frame.readBytes(b);
                    owner = new String(b, StandardCharsets.UTF_8);
                }
                yield new Start(id, readOnly == 1, owner);
            }
            case COMMITTED -> {
                body(frame, type, 16);
                yield new Report(id, Outcome.COMMITTED, frame.readLong(), frame.readLong());
            }
            case DECIDED -> {
                body(frame, type, 16);
                yield new Report(id, Outcome.DECIDED, frame.readLong(), frame.readLong());
            }
            case ABORTED -> {
                body(frame, type, 8);
                yield new Report(id, Outcome.ABORTED, frame.readLong(), 0);
            }
            case VALIDATING -> {
                body(frame, type, 8);
                yield new Validating(id, frame.readLong());
            }
            case AUTH -> {
                body(frame, type, CmHandshake.NONCE_BYTES + CmHandshake.PROOF_BYTES);
                yield new Auth(id, bytes(frame, CmHandshake.NONCE_BYTES), bytes(frame, CmHandshake.PROOF_BYTES));
            }
            default -> throw malformed(String.format("unknown request type 0x%02x", type & 0xff));
        };
    }

    /** Decodes one response frame (length prefix stripped); malformed input is {@link ErrorCode#PROTOCOL_ERROR}. */
    public static Response decodeResponse(ByteBuf frame) {
        checkHeader(frame);
        byte type = frame.readByte();
        long id = frame.readLong();
        return switch (type) {
            case STARTED -> {
                if (frame.readableBytes() < STARTED_FIXED_BYTES) {
                    throw malformed("STARTED body too short: " + frame.readableBytes());
                }
                long tid = frame.readLong();
                long lav = frame.readLong();
                long from = frame.readLong();
                long issuedUpTo = frame.readLong();
                long to = frame.readLong();
                int count = frame.readInt();
                if (count < 0 || count > frame.readableBytes() / 8) {
                    throw malformed("STARTED with " + count + " validating tids in " + frame.readableBytes() + " bytes");
                }
                long[] validating = new long[count];
                for (int i = 0; i < count; i++) {
                    validating[i] = frame.readLong();
                }
                ByteBuffer rest = frame.nioBuffer();
                SnapshotDescriptor snapshot;
                try {
                    snapshot = SnapshotDescriptor.read(rest);
                } catch (TellException e) {
                    throw malformed("STARTED with a bad snapshot: " + e.getMessage());
                }
                if (rest.hasRemaining()) {
                    throw malformed("STARTED with " + rest.remaining() + " trailing bytes");
                }
                frame.skipBytes(frame.readableBytes());
                yield new Started(id, new TxStart(tid, snapshot, lav, new TxStart.Writers(from, issuedUpTo, to, validating)));
            }
            case OK -> {
                body(frame, type, 0);
                yield new Ok(id);
            }
            case ERROR -> {
                String code = string(frame);
                String message = string(frame);
                if (frame.isReadable()) {
                    throw malformed("ERROR with trailing bytes");
                }
                yield new Failed(id, code, message);
            }
            case CHALLENGE -> {
                body(frame, type, CmHandshake.NONCE_BYTES);
                yield new Challenge(id, bytes(frame, CmHandshake.NONCE_BYTES));
            }
            case AUTHENTICATED -> {
                body(frame, type, CmHandshake.PROOF_BYTES);
                yield new Authenticated(id, bytes(frame, CmHandshake.PROOF_BYTES));
            }
            default -> throw malformed(String.format("unknown response type 0x%02x", type & 0xff));
        };
    }

    private static void checkHeader(ByteBuf frame) {
        if (frame.readableBytes() < HEADER_BYTES) {
            throw malformed("frame of " + frame.readableBytes() + " bytes is shorter than a header");
        }
    }

    private static void body(ByteBuf frame, byte type, int expected) {
        if (frame.readableBytes() != expected) {
            throw malformed(String.format("type 0x%02x needs a %d-byte body, got %d", type & 0xff, expected, frame.readableBytes()));
        }
    }

    private static byte[] bytes(ByteBuf frame, int n) {
        byte[] out = new byte[n];
        frame.readBytes(out);
        return out;
    }

    private static String string(ByteBuf frame) {
        if (frame.readableBytes() < 2) {
            throw malformed("ERROR truncated");
        }
        int length = frame.readUnsignedShort();
        if (frame.readableBytes() < length) {
            throw malformed("ERROR truncated");
        }
        return frame.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    private static TellException malformed(String message) {
        return TellException.of(ErrorCode.PROTOCOL_ERROR, message);
    }
}
