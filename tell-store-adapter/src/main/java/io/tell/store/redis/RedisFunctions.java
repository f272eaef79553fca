package io.tell.store.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ByteArrayOutput;
import io.lettuce.core.output.IntegerOutput;
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

    /**
     * Raises a counter to a floor, then adds to it, as one step. A script (EVAL) rather than a
     * function of the library: it is sent only when a node reserves a range of values, and
     * keeps the library, whose name is its protocol version, unchanged. Redis numbers pass
     * through Lua doubles here, exact below 2^53 (the SPI's bound).
     */
    private static final byte[] FLOORED_INCREMENT = ("local floor = tonumber(ARGV[2])\n"
            + "local current = tonumber(redis.call('GET', KEYS[1]) or '0')\n"
            + "if current < floor then redis.call('SET', KEYS[1], ARGV[2]) end\n"
            + "return redis.call('INCRBY', KEYS[1], ARGV[1])\n").getBytes(StandardCharsets.UTF_8);

    /** INCRBY: a plain increment, no floor. */
    static AsyncCommand<byte[], byte[], Long> incrementCommand(byte[] key, long delta) {
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).addKey(key).add(delta);
        return new AsyncCommand<>(new Command<>(CommandType.INCRBY, new IntegerOutput<>(ByteArrayCodec.INSTANCE), args));
    }

    /** The counter at {@code key} raised to at least {@code floor}, then increased by {@code delta}. */
    static AsyncCommand<byte[], byte[], Long> incrementCommand(byte[] key, long delta, long floor) {
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE)
                .add(FLOORED_INCREMENT).add(1).addKey(key).add(delta).add(floor);
        return new AsyncCommand<>(new Command<>(CommandType.EVAL, new IntegerOutput<>(ByteArrayCodec.INSTANCE), args));
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
