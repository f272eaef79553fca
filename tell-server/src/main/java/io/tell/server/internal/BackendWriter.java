package io.tell.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes backend messages for one connection into a buffer that goes out at
 * {@link #flush()} (ReadyForQuery, Flush, a suspended portal) or when it grows past
 * {@link #CHUNK}: few writes per statement, and the session's thread waits while the socket
 * is backed up, so a large result never piles up in memory. Used by the session's thread only.
 */
final class BackendWriter {
    private static final int CHUNK = 64 * 1024;

    private final Channel channel;
    private ByteBuf buffer;

    BackendWriter(Channel channel) {
        this.channel = channel;
    }

    private ByteBuf begin(char type) {
        if (buffer == null) {
            buffer = channel.alloc().buffer(256);
        }
        buffer.writeByte(type);
        buffer.writeInt(0); // length, patched by end()
        return buffer;
    }

    private void end(int start) {
        buffer.setInt(start + 1, buffer.writerIndex() - start - 1);
        if (buffer.readableBytes() >= CHUNK) {
            send(false);
        }
    }

    private int start() {
        return buffer == null ? 0 : buffer.writerIndex();
    }

    /** A message with no body. */
    void empty(char type) {
        int at = start();
        begin(type);
        end(at);
    }

    void authentication(int code, byte[] data) {
        int at = start();
        begin('R').writeInt(code).writeBytes(data);
        end(at);
    }

    void parameterStatus(String name, String value) {
        int at = start();
        ByteBuf b = begin('S');
        cstring(b, name);
        cstring(b, value);
        end(at);
    }

    void backendKeyData(int processId, int secretKey) {
        int at = start();
        begin('K').writeInt(processId).writeInt(secretKey);
        end(at);
    }

    void negotiateProtocolVersion(int minor, List<String> unknownOptions) {
        int at = start();
        ByteBuf b = begin('v').writeInt(minor).writeInt(unknownOptions.size());
        unknownOptions.forEach(o -> cstring(b, o));
        end(at);
    }

    void readyForQuery(char status) {
        int at = start();
        begin('Z').writeByte(status);
        end(at);
        flush();
    }

    void commandComplete(String tag) {
        int at = start();
        cstring(begin('C'), tag);
        end(at);
    }

    void parameterDescription(int[] oids) {
        int at = start();
        ByteBuf b = begin('t').writeShort(oids.length);
        for (int oid : oids) {
            b.writeInt(oid);
        }
        end(at);
    }

    void rowDescription(List<PgColumn> columns) {
        int at = start();
        ByteBuf b = begin('T').writeShort(columns.size());
        for (PgColumn c : columns) {
            cstring(b, c.name());
            b.writeInt(c.tableOid()).writeShort(c.attnum()); // 0 and 0 for what is not a plain column of a table
            b.writeInt(c.type().oid()).writeShort(c.type().size()).writeInt(c.typeModifier()).writeShort(c.binary() ? 1 : 0);
        }
        end(at);
    }

    void dataRow(List<PgColumn> columns, Object[] row) {
        int at = start();
        ByteBuf b = begin('D').writeShort(row.length);
        for (int i = 0; i < row.length; i++) {
            if (row[i] == null) {
                b.writeInt(-1);
                continue;
            }
            int lengthAt = b.writerIndex();
            b.writeInt(0);
            PgColumn c = columns.get(i);
            if (c.binary()) {
                BinaryValues.write(c.type(), row[i], b);
            } else {
                b.writeCharSequence(TextValues.format(row[i]), StandardCharsets.UTF_8);
            }
            b.setInt(lengthAt, b.writerIndex() - lengthAt - 4);
        }
        end(at);
    }

    /** CopyOutResponse: overall text format, {@code columns} columns. */
    void copyOutResponse(int columns) {
        copyResponse('H', columns);
    }

    /** CopyData: one record of a COPY TO, with its line end. */
    void copyData(String record) {
        int at = start();
        begin('d').writeCharSequence(record, StandardCharsets.UTF_8);
        end(at);
    }

    /** CopyInResponse: overall text format, {@code columns} columns; sent at once, the client waits for it. */
    void copyInResponse(int columns) {
        copyResponse('G', columns);
        flush();
    }

    private void copyResponse(char type, int columns) {
        int at = start();
        ByteBuf b = begin(type).writeByte(0).writeShort(columns);
        for (int i = 0; i < columns; i++) {
            b.writeShort(0);
        }
        end(at);
    }

    private static final String DETAIL = io.tell.sql.ConstraintErrors.DETAIL;

    /** ErrorResponse with severity (ERROR or FATAL), SQLState and message. */
    void error(String severity, String sqlState, String message) {
        if (buffer == null) {
            buffer = channel.alloc().buffer(256);
        }
        encodeError(buffer, severity, sqlState, message);
    }

    /**
     * Appends a whole ErrorResponse to {@code b}; for the event loop too, which has no writer.
     * A message's {@code "\n  Detail: "} part (Tell's constraint errors) goes in the Detail field.
     */
    static void encodeError(ByteBuf b, String severity, String sqlState, String message) {
        int start = b.writerIndex();
        b.writeByte('E').writeInt(0);
        field(b, 'S', severity);
        field(b, 'V', severity);
        field(b, 'C', sqlState);
        String text = message == null ? "" : message;
        int detail = text.indexOf(DETAIL);
        field(b, 'M', detail < 0 ? text : text.substring(0, detail));
        if (detail >= 0) {
            field(b, 'D', text.substring(detail + DETAIL.length()));
        }
        b.writeByte(0);
        b.setInt(start + 1, b.writerIndex() - start - 1);
    }

    private static void field(ByteBuf b, char code, String value) {
        b.writeByte(code);
        cstring(b, value);
    }

    /** Sends what is buffered. */
    void flush() {
        send(true);
    }

    private void send(boolean flush) {
        if (channel.eventLoop().inEventLoop()) {
            // Netty's own rule (DefaultPromise.checkDeadLock): waiting for the socket here would stall every connection of the loop.
            throw new IllegalStateException("a connection's statements must not run on an event loop");
        }
        if (buffer == null) {
            if (flush) {
                channel.flush();
            }
            return;
        }
        ByteBuf out = buffer;
        buffer = null;
        ChannelFuture written = channel.writeAndFlush(out);
        if (!channel.isWritable()) {
            written.awaitUninterruptibly(); // back-pressure: not on an event loop, so waiting is allowed
        }
    }

    /** Drops what is buffered, when the connection is gone. */
    void discard() {
        if (buffer != null) {
            buffer.release();
            buffer = null;
        }
    }

    static void cstring(ByteBuf b, String s) {
        b.writeCharSequence(s, StandardCharsets.UTF_8);
        b.writeByte(0);
    }
}
