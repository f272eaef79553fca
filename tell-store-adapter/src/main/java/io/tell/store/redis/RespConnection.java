package io.tell.store.redis;

import io.tell.store.redis.RedisStoreConfig.Address;
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
 * {@link IOException} leaves it out of step: close it. Not thread-safe, so its buffers are plain
 * arrays (the JDK's buffered streams take a lock on every call, several per argument). Public for the
 * process helpers' admin calls ({@link io.tell.store.redis.process.RespClient}); not an API.
 */
public final class RespConnection implements AutoCloseable {
    /** An error reply, such as {@code ERR unknown command} or {@code LOADING ...}. */
    public record Error(String message) {
    }

    private static final int BUFFER_BYTES = 1 << 16;

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    /** Commands buffered since the last flush: {@code outBuf[0, outAt)}. */
    private final byte[] outBuf = new byte[BUFFER_BYTES];
    private int outAt;
    /** Reply bytes received and not yet read: {@code inBuf[inAt, inEnd)}. */
    private final byte[] inBuf = new byte[BUFFER_BYTES];
    private int inAt;
    private int inEnd;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
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
            write(arg, 0, arg.length);
            crlf();
        }
    }

    public void flush() throws IOException {
        if (outAt > 0) {
            flushBuffer();
        }
        out.flush();
    }

    private void write(byte[] b, int from, int length) throws IOException {
        if (length > outBuf.length - outAt) {
            flushBuffer();
            if (length > outBuf.length) {
                out.write(b, from, length);
                return;
            }
        }
        System.arraycopy(b, from, outBuf, outAt, length);
        outAt += length;
    }

    private void crlf() throws IOException {
        if (outBuf.length - outAt < 2) {
            flushBuffer();
        }
        outBuf[outAt++] = '\r';
        outBuf[outAt++] = '\n';
    }

    private void flushBuffer() throws IOException {
        out.write(outBuf, 0, outAt);
        outAt = 0;
    }

    /** The next byte of the reply stream, or -1 at its end. */
    private int readByte() throws IOException {
        if (inAt == inEnd && !fill()) {
            return -1;
        }
        return inBuf[inAt++] & 0xFF;
    }

    private boolean fill() throws IOException {
        int n = in.read(inBuf, 0, inBuf.length);
        if (n <= 0) {
            return false;
        }
        inAt = 0;
        inEnd = n;
        return true;
    }

    /** Exactly {@code length} bytes of the reply stream. */
    private byte[] readBytes(int length) throws IOException {
        byte[] value = new byte[length];
        int have = Math.min(length, inEnd - inAt);
        System.arraycopy(inBuf, inAt, value, 0, have);
        inAt += have;
        while (have < length) {
            int n = in.read(value, have, length - have);
            if (n <= 0) {
                throw new EOFException("redis reply truncated");
            }
            have += n;
        }
        return value;
    }

    /** The next reply. */
    public Object read() throws IOException {
        int type = readByte();
        switch (type) {
            case '+':
                return line().getBytes(StandardCharsets.ISO_8859_1);
            case '-':
                return new Error(line());
            case ':':
                return number();
            case '$': {
                int length = size();
                if (length < 0) {
                    return null;
                }
                byte[] value = readBytes(length);
                if (readByte() != '\r' || readByte() != '\n') {
                    throw new EOFException("redis reply truncated");
                }
                return value;
            }
            case '*': {
                int count = size();
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

    private final byte[] digits = new byte[11];

    /** {@code type}, {@code n} in decimal and CRLF, without making a string of {@code n}. */
    private void header(char type, int n) throws IOException {
        int at = digits.length;
        do {
            digits[--at] = (byte) ('0' + n % 10);
            n /= 10;
        } while (n > 0);
        digits[--at] = (byte) type;
        write(digits, at, digits.length - at);
        crlf();
    }

    /** A decimal number ended by CRLF, read without making a string of it (every reply's header has one). */
    private long number() throws IOException {
        int b = readByte();
        boolean negative = b == '-';
        if (negative) {
            b = readByte();
        }
        long n = 0; // accumulated below zero, which holds Long.MIN_VALUE too
        int digitCount = 0;
        try {
            for (; b >= '0' && b <= '9'; b = readByte(), digitCount++) {
                n = Math.subtractExact(Math.multiplyExact(n, 10), b - '0');
            }
            n = negative ? n : Math.negateExact(n);
        } catch (ArithmeticException e) {
            throw new IOException("redis protocol error: a number out of range");
        }
        if (b < 0) {
            throw new EOFException("redis closed the connection");
        }
        if (b != '\r' || digitCount == 0 || readByte() != '\n') {
            throw new IOException("redis protocol error: a malformed number");
        }
        return n;
    }

    /** A bulk string's length or an array's count (-1: nil). */
    private int size() throws IOException {
        long n = number();
        if (n < -1 || n > Integer.MAX_VALUE) {
            throw new IOException("redis protocol error: a length of " + n);
        }
        return (int) n;
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int b = readByte(); b != '\r'; b = readByte()) {
            if (b < 0) {
                throw new EOFException("redis closed the connection");
            }
            sb.append((char) b);
        }
        if (readByte() != '\n') {
            throw new IOException("redis protocol error: CR without LF");
        }
        return sb.toString();
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
