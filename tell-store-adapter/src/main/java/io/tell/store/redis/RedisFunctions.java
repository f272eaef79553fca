package io.tell.store.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ArrayOutput;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The server-side function library ({@code tell_v5.lua}) that makes conditional writes
 * atomic: check the expected version, draw a new version, write or delete, in one step; any
 * number of writes per call, each on its own. It also reads a pointer record and the record it
 * names in one call ({@link #FOLLOW}, standalone servers).
 */
final class RedisFunctions {
    static final String LIBRARY = load();
    static final byte[] LIBRARY_BYTES = LIBRARY.getBytes(StandardCharsets.UTF_8);
    static final String WRITE = "tell_v5_write";
    static final String FOLLOW = "tell_v5_follow";

    private static final byte[] NONE = {};

    private RedisFunctions() {
    }

    /** Loads (or replaces) the library on one node. */
    static CompletableFuture<String> loadOn(StatefulRedisConnection<byte[], byte[]> connection) {
        return connection.async().functionLoad(LIBRARY, true).toCompletableFuture();
    }

    /**
     * A fresh FCALL command for {@code ops}: one reply per op. {@code recordKeys.get(i)} and
     * {@code versionKeys.get(i)} share a slot; in a cluster all keys of one call must.
     */
    static AsyncCommand<byte[], byte[], List<Object>> writeCommand(List<WriteOp> ops, List<byte[]> recordKeys,
            List<byte[]> versionKeys) {
        List<byte[]> all = writeArgs(ops, recordKeys, versionKeys);
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).add(all.get(0)).add(all.get(1));
        int keys = 2 * ops.size();
        for (int i = 2; i < all.size(); i++) {
            if (i < 2 + keys) {
                args.addKey(all.get(i));
            } else {
                args.add(all.get(i));
            }
        }
        return new AsyncCommand<>(new Command<>(CommandType.FCALL, new ArrayOutput<>(ByteArrayCodec.INSTANCE), args));
    }

    /**
     * The arguments of that FCALL after the command name: the function, the number of keys, each
     * write's record key and version key, then three arguments per write (kind, expected
     * version, value).
     */
    static List<byte[]> writeArgs(List<WriteOp> ops, List<byte[]> recordKeys, List<byte[]> versionKeys) {
        List<byte[]> args = new ArrayList<>(2 + 5 * ops.size());
        args.add(WRITE.getBytes(StandardCharsets.US_ASCII));
        args.add(Integer.toString(2 * ops.size()).getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < ops.size(); i++) {
            args.add(recordKeys.get(i));
            args.add(versionKeys.get(i));
        }
        for (WriteOp op : ops) {
            char kind;
            byte[] expected = NONE;
            switch (op.expect()) {
                case Expect.Any any -> kind = 'A';
                case Expect.Absent absent -> kind = 'N';
                case Expect.Version v -> {
                    kind = 'V';
                    expected = RedisKeys.encodeVersion(v.version());
                }
            }
            byte letter = (byte) (op.isDelete() ? Character.toLowerCase(kind) : kind);
            args.add(op.isCheck() ? new byte[] {(byte) kind, '?'} : op.chained() ? new byte[] {letter, '!'} : new byte[] {letter});
            args.add(expected);
            args.add(op.isDelete() || op.isCheck() ? NONE : op.value());
        }
        return args;
    }

    /**
     * Raises a counter to a floor, then adds to it, as one step. A script (EVAL) rather than a
     * function of the library: it is sent only when a node reserves a range of values, and
     * keeps the library, whose name is its protocol version, to the writes. Redis numbers pass
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

    /** Decodes the function's replies, one per write: {@code W} + version, or {@code C} + current version (empty when absent). */
    static List<WriteResult> decodeReplies(List<Object> replies, int expected) {
        if (replies == null || replies.size() != expected) {
            throw TellException.of(ErrorCode.STORE_FAILURE, "redis function " + WRITE + " answered "
                    + (replies == null ? "nothing" : replies.size() + " replies") + " for " + expected + " writes");
        }
        List<WriteResult> out = new ArrayList<>(expected);
        for (Object reply : replies) {
            out.add(decodeReply(reply instanceof byte[] b ? b : null));
        }
        return out;
    }

    static WriteResult decodeReply(byte[] reply) {
        if (reply != null && reply.length == 1 + RedisKeys.VERSION_BYTES && reply[0] == 'W') {
            return new WriteResult.Written(RedisKeys.decodeVersion(reply, 1));
        }
        if (reply != null && reply.length == 1 && reply[0] == 'W') {
            return new WriteResult.Written(0); // a satisfied check of an absent record
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
        try (InputStream in = RedisFunctions.class.getResourceAsStream("tell_v5.lua")) {
            if (in == null) {
                throw new IllegalStateException("tell_v5.lua missing from the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
