package io.tell.store.redis.process;

import io.tell.store.redis.RespConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
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
        try (RespConnection connection = RespConnection.open(host, port, timeoutMs)) {
            byte[][] command = new byte[args.length][];
            for (int i = 0; i < args.length; i++) {
                command[i] = args[i].getBytes(StandardCharsets.ISO_8859_1);
            }
            connection.send(command);
            connection.flush();
            return asStrings(connection.read());
        } catch (IOException e) {
            throw new UncheckedIOException("redis at " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** A reply with bulk strings as ISO-8859-1 strings; an error reply thrown. */
    private static Object asStrings(Object reply) {
        if (reply instanceof RespConnection.Error e) {
            throw new RespError(e.message());
        }
        if (reply instanceof byte[] b) {
            return new String(b, StandardCharsets.ISO_8859_1);
        }
        if (reply instanceof List<?> items) {
            List<Object> out = new ArrayList<>(items.size());
            for (Object item : items) {
                out.add(asStrings(item));
            }
            return out;
        }
        return reply;
    }
}
