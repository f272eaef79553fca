package io.tell.store.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ByteArrayOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Expect;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * The server-side function library ({@code tell_v1.lua}) that makes conditional writes
 * atomic: check the expected version, draw a new version, write or delete, in one step.
 */
final class RedisFunctions {
    static final String LIBRARY = load();
    static final String WRITE = "tell_v1_write";

    private static final byte[] ANY = {'A'};
    private static final byte[] ABSENT = {'N'};
    private static final byte[] VERSION = {'V'};
    private static final byte[] NONE = {};

    private RedisFunctions() {
    }

    /** Loads (or replaces) the library on one node. */
    static CompletableFuture<String> loadOn(StatefulRedisConnection<byte[], byte[]> connection) {
        return connection.async().functionLoad(LIBRARY, true).toCompletableFuture();
    }

    /** A fresh FCALL command for {@code op}; {@code recordKey} and {@code versionKey} share a slot. */
    static AsyncCommand<byte[], byte[], byte[]> writeCommand(WriteOp op, byte[] recordKey, byte[] versionKey) {
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE)
                .add(WRITE).add(2).addKey(recordKey).addKey(versionKey);
        switch (op.expect()) {
            case Expect.Any any -> args.add(ANY).add(NONE);
            case Expect.Absent absent -> args.add(ABSENT).add(NONE);
            case Expect.Version v -> args.add(VERSION).add(RedisKeys.encodeVersion(v.version()));
        }
        if (!op.isDelete()) {
            args.addValue(op.value());
        }
        return new AsyncCommand<>(new Command<>(CommandType.FCALL, new ByteArrayOutput<>(ByteArrayCodec.INSTANCE), args));
    }

    /** Decodes the function's reply: {@code W} + version, or {@code C} + current version (empty when absent). */
    static WriteResult decodeReply(byte[] reply) {
        if (reply != null && reply.length == 1 + RedisKeys.VERSION_BYTES && reply[0] == 'W') {
            return new WriteResult.Written(RedisKeys.decodeVersion(reply, 1));
        }
        if (reply != null && reply.length == 1 && reply[0] == 'C') {
            return new WriteResult.Conflict(0);
        }
        if (reply != null && reply.length == 1 + RedisKeys.VERSION_BYTES && reply[0] == 'C') {
            return new WriteResult.Conflict(RedisKeys.decodeVersion(reply, 1));
        }
        throw TellException.of(ErrorCode.STORE_FAILURE, "unexpected reply from redis function " + WRITE + ": "
                + (reply == null ? "null" : new String(reply, StandardCharsets.ISO_8859_1)));
    }

    private static String load() {
        try (InputStream in = RedisFunctions.class.getResourceAsStream("tell_v1.lua")) {
            if (in == null) {
                throw new IllegalStateException("tell_v1.lua missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
