package io.tell.server;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Raw protocol frames for tests that speak to a server below any driver. */
final class PgWire implements AutoCloseable {
    /** One backend message: type and body. */
    record Message(char type, byte[] body) {
        ByteBuffer buffer() {
            return ByteBuffer.wrap(body);
        }

        /** An ErrorResponse's SQLState (field C). */
        String sqlState() {
            String text = new String(body, StandardCharsets.UTF_8);
            for (String field : text.split("\0")) {
                if (field.startsWith("C")) {
                    return field.substring(1);
                }
            }
            return null;
        }
    }

    private final Socket socket;
    private final DataInputStream in;

    /** Connects and starts up as {@code user} on a trust server, reading up to the first ReadyForQuery. */
    PgWire(int port, String user) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        in = new DataInputStream(socket.getInputStream());
        send(startup(user));
        while (read().type() != 'Z') {
            // AuthenticationOk, ParameterStatus, BackendKeyData
        }
    }

    void send(byte[]... frames) throws IOException {
        for (byte[] f : frames) {
            socket.getOutputStream().write(f);
        }
        socket.getOutputStream().flush();
    }

    Message read() throws IOException {
        char type = (char) in.readUnsignedByte();
        byte[] body = new byte[in.readInt() - 4];
        in.readFully(body);
        return new Message(type, body);
    }

    /** The types of the messages up to and including the next ReadyForQuery, e.g. "1t TZ". */
    String readUntilReady() throws IOException {
        StringBuilder types = new StringBuilder();
        for (Message m = read(); ; m = read()) {
            types.append(m.type());
            if (m.type() == 'Z') {
                return types.append((char) m.body()[0]).toString();
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    static byte[] startup(String user) {
        return frameless(concat(new byte[] {0, 3, 0, 0}, cstring("user"), cstring(user), cstring("database"), cstring("tell"),
                new byte[1]));
    }

    static byte[] frameless(byte[] body) {
        return concat(int32(body.length + 4), body);
    }

    static byte[] frame(char type, byte[]... body) {
        byte[] b = concat(body);
        return concat(new byte[] {(byte) type}, int32(b.length + 4), b);
    }

    static byte[] query(String sql) {
        return frame('Q', cstring(sql));
    }

    static byte[] int32(int v) {
        return ByteBuffer.allocate(4).putInt(v).array();
    }

    static byte[] int16(int v) {
        return ByteBuffer.allocate(2).putShort((short) v).array();
    }

    static byte[] cstring(String s) {
        return concat(s.getBytes(StandardCharsets.UTF_8), new byte[1]);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }
}
