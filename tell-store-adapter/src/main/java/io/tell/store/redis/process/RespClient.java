package io.tell.store.redis.process;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal Redis client for the process helpers and their users' admin calls: one command per
 * connection, replies as {@code String}, {@code Long}, {@code List<Object>} or {@code null}. It
 * keeps the helpers (and the tests that use them) free of the client library under test. Strings map to bytes as ISO-8859-1, one char per
 * byte, so binary keys survive a round trip (GETKEYSINSLOT, then MIGRATE).
 */
public final class RespClient {
    private RespClient() {
    }

    /** An error reply ({@code -ERR ...}). */
    public static final class RespError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RespError(String message) {
            super(message);
        }
    }

    /** Sends one command and returns its reply; throws {@link UncheckedIOException} when the server is unreachable. */
    public static Object call(String host, int port, int timeoutMs, String... args) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), timeoutMs);
            socket.setSoTimeout(timeoutMs);
            OutputStream out = socket.getOutputStream();
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            for (String arg : args) {
                byte[] bytes = arg.getBytes(StandardCharsets.ISO_8859_1);
                request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                request.writeBytes(bytes);
                request.writeBytes("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            }
            out.write(request.toByteArray());
            out.flush();
            return read(new BufferedInputStream(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException("redis at " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    private static Object read(InputStream in) throws IOException {
        int type = in.read();
        String line = line(in);
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new RespError(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                byte[] data = in.readNBytes(n + 2);
                return new String(data, 0, n, StandardCharsets.ISO_8859_1);
            }
            case '*': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    items.add(read(in));
                }
                return items;
            }
            case -1:
                throw new EOFException("connection closed by redis");
            default:
                throw new IOException("unexpected RESP type '" + (char) type + "'");
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int prev = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed by redis");
            }
            if (prev == '\r' && b == '\n') {
                byte[] bytes = out.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
            }
            out.write(b);
            prev = b;
        }
    }
}
