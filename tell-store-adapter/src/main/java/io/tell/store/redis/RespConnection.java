package io.tell.store.redis;

import io.tell.store.redis.RedisStoreConfig.Address;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One blocking connection to a Redis server speaking RESP2: commands are written by the calling
 * thread and their replies read by it, with no event loop in between. Replies come back as
 * {@code byte[]} (bulk and simple strings), {@code Long}, {@code List<Object>}, null (a nil), or
 * {@link Error} (an error reply, after which the connection is still in step). An
 * {@link IOException} leaves it out of step: close it. Not thread-safe. Public for the
 * process helpers' admin calls ({@link io.tell.store.redis.process.RespClient}); not an API.
 */
public final class RespConnection implements AutoCloseable {
    /** An error reply, such as {@code ERR unknown command} or {@code LOADING ...}. */
    public record Error(String message) {
    }

    private static final byte[] CRLF = {'\r', '\n'};

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
        this.in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** Connects; {@code timeoutMillis} bounds the connect and every read. */
    public static RespConnection open(String host, int port, int timeoutMillis) throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.setSoTimeout(timeoutMillis);
            return new RespConnection(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Connects, and logs in when {@code login} is set; a refused login is thrown as {@link Refused}. */
    static RespConnection open(Address address, RedisStoreConfig.Login login, int timeoutMillis) throws IOException {
        RespConnection c = open(address.host(), address.port(), timeoutMillis);
        try {
            if (login != null) {
                String password = login.password();
                if (login.user() == null) {
                    c.send(ascii("AUTH"), password.getBytes(StandardCharsets.UTF_8));
                } else {
                    c.send(ascii("AUTH"), login.user().getBytes(StandardCharsets.UTF_8), password.getBytes(StandardCharsets.UTF_8));
                }
                c.flush();
                if (c.read() instanceof Error e) {
                    throw new Refused(e.message());
                }
            }
            return c;
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** The server refused the login. */
    static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        Refused(String reply) {
            super(reply);
        }
    }

    /** Buffers one command; {@link #flush} sends what is buffered. */
    public void send(byte[]... args) throws IOException {
        header('*', args.length);
        for (byte[] arg : args) {
            header('$', arg.length);
            out.write(arg);
            out.write(CRLF);
        }
    }

    public void flush() throws IOException {
        out.flush();
    }

    /** The next reply. */
    public Object read() throws IOException {
        int type = in.read();
        switch (type) {
            case '+':
                return line().getBytes(StandardCharsets.ISO_8859_1);
            case '-':
                return new Error(line());
            case ':':
                return Long.parseLong(line());
            case '$': {
                int length = Integer.parseInt(line());
                if (length < 0) {
                    return null;
                }
                byte[] value = in.readNBytes(length);
                if (value.length < length || in.read() != '\r' || in.read() != '\n') {
                    throw new EOFException("redis reply truncated");
                }
                return value;
            }
            case '*': {
                int count = Integer.parseInt(line());
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    items.add(read());
                }
                return items;
            }
            case -1:
                throw new EOFException("redis closed the connection");
            default:
                throw new IOException("redis protocol error: unexpected reply type " + type);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    private final byte[] digits = new byte[10];

    /** {@code type}, {@code n} in decimal and CRLF, without making a string of {@code n}. */
    private void header(char type, int n) throws IOException {
        out.write(type);
        int at = digits.length;
        do {
            digits[--at] = (byte) ('0' + n % 10);
            n /= 10;
        } while (n > 0);
        out.write(digits, at, digits.length - at);
        out.write(CRLF);
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int b = in.read(); b != '\r'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("redis closed the connection");
            }
            sb.append((char) b);
        }
        if (in.read() != '\n') {
            throw new IOException("redis protocol error: CR without LF");
        }
        return sb.toString();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
