package io.tell.store.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Versioned;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Reads and conditional writes on one standalone server over blocking connections, on the
 * calling thread: a call costs the network round trip and little else, where the Lettuce path
 * adds a hand-off to its event loop and back (measured in docs/benchmarks.md, "Direct calls").
 * Reads are answered after every write already acknowledged, as the server runs one command at
 * a time. A write is sent once and never replayed (a lost connection fails it, effect unknown),
 * so writes are at most once without the tracking Lettuce's reconnects need
 * ({@link InFlightWrites}); with {@code replicas=N} a WAIT follows the writes on the same
 * connection, which it covers.
 *
 * <p>A connection is borrowed for one call and returned after it, so there are as many as
 * threads reading at once. A connection that failed (time-out, lost) is closed, not returned:
 * its stream may be out of step. Failures are translated as everywhere in this package
 * ({@link RedisErrors}): time-outs STORE_TIMEOUT, lost connections STORE_UNAVAILABLE.
 */
final class DirectClient implements AutoCloseable {
    private static final byte[] GET = RespConnection.ascii("GET");
    private static final byte[] MGET = RespConnection.ascii("MGET");
    private static final byte[] FCALL = RespConnection.ascii("FCALL");
    private static final byte[] FOLLOW = RespConnection.ascii(RedisFunctions.FOLLOW);
    private static final byte[] WAIT = RespConnection.ascii("WAIT");
    /** Commands sent before their replies are read: bounds what a huge batch leaves in the socket buffers. */
    private static final int COMMANDS_PER_WINDOW = 16;

    private final RedisStoreConfig config;
    private final ConcurrentLinkedQueue<RespConnection> idle = new ConcurrentLinkedQueue<>();
    private final Set<RespConnection> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    DirectClient(RedisStoreConfig config) {
        this.config = config;
    }

    /** The record value stored at {@code key} (version and value bytes), or null. */
    byte[] get(byte[] key) {
        return call(c -> {
            c.send(GET, key);
            c.flush();
            return bulk(c.read());
        });
    }

    /** The values at {@code keys}, in order (null where absent), as MGETs of up to {@code perMget} keys. */
    List<byte[]> getAll(List<byte[]> keys, int perMget) {
        return call(c -> {
            List<byte[]> out = new ArrayList<>(keys.size());
            String failure = null;
            for (int from = 0; from < keys.size(); ) {
                int sent = 0;
                int start = from;
                for (; sent < COMMANDS_PER_WINDOW && from < keys.size(); sent++) {
                    List<byte[]> chunk = keys.subList(from, Math.min(keys.size(), from + perMget));
                    byte[][] args = new byte[chunk.size() + 1][];
                    args[0] = MGET;
                    for (int i = 0; i < chunk.size(); i++) {
                        args[i + 1] = chunk.get(i);
                    }
                    c.send(args);
                    from += chunk.size();
                }
                c.flush();
                for (int i = 0; i < sent; i++) {
                    Object reply = c.read(); // read every reply, even after an error, to stay in step
                    if (reply instanceof RespConnection.Error e) {
                        failure = failure == null ? e.message() : failure;
                    } else if (reply instanceof List<?> values) {
                        for (Object v : values) {
                            out.add(v instanceof byte[] b ? b : null);
                        }
                    } else {
                        throw new IOException("redis protocol error: MGET answered " + reply);
                    }
                }
                if (failure == null && out.size() != from) {
                    throw new IOException("redis protocol error: MGET answered " + (out.size() - start) + " values for "
                            + (from - start) + " keys");
                }
            }
            if (failure != null) {
                throw RedisErrors.translate(new RedisCommandExecutionException(failure));
            }
            return out;
        });
    }

    /**
     * The values at {@code keys} (null where absent) and, after them, the value at {@code prefix}
     * followed by the value bytes of the first key's record, or null when that is absent: the
     * library's follow function, one round trip. A server that lost the library gets it again.
     */
    List<byte[]> follow(List<byte[]> keys, byte[] prefix) {
        byte[][] command = new byte[keys.size() + 4][];
        command[0] = FCALL;
        command[1] = FOLLOW;
        command[2] = RespConnection.ascii(Integer.toString(keys.size()));
        for (int i = 0; i < keys.size(); i++) {
            command[i + 3] = keys.get(i);
        }
        command[keys.size() + 3] = prefix;
        return call(c -> {
            c.send(command);
            c.flush();
            Object reply = c.read();
            if (reply instanceof RespConnection.Error e && e.message().contains("Function not found")) {
                reload(c);
                c.send(command);
                c.flush();
                reply = c.read();
            }
            if (reply instanceof RespConnection.Error e) {
                throw RedisErrors.translate(new RedisCommandExecutionException(e.message()));
            }
            if (!(reply instanceof List<?> values) || values.size() != keys.size() + 1) {
                throw new IOException("redis protocol error: " + RedisFunctions.FOLLOW + " answered " + reply);
            }
            List<byte[]> out = new ArrayList<>(values.size());
            for (Object v : values) {
                out.add(v instanceof byte[] b ? b : null);
            }
            return out;
        });
    }

    /** Loads the function library again on a server that lost it (a restart, a FUNCTION FLUSH). */
    private static void reload(RespConnection c) throws IOException {
        c.send(RespConnection.ascii("FUNCTION"), RespConnection.ascii("LOAD"), RespConnection.ascii("REPLACE"),
                RedisFunctions.LIBRARY_BYTES);
        c.flush();
        if (c.read() instanceof RespConnection.Error e) {
            throw RedisErrors.translate(new RedisCommandExecutionException(e.message()));
        }
    }

    /**
     * Calls the write function once per element of {@code calls} (each the arguments after
     * FCALL), pipelined, and returns each call's reply array. A server that lost the function
     * library gets it again and the calls are resent (nothing ran). With replicas required, a
     * WAIT after each window of calls must reach them, else STORE_TIMEOUT (the writes happened
     * on the primary but may be lost).
     */
    List<List<Object>> writeCalls(List<List<byte[]>> calls) {
        return call(c -> {
            List<List<Object>> out = new ArrayList<>(calls.size());
            for (int from = 0; from < calls.size(); from += COMMANDS_PER_WINDOW) {
                out.addAll(window(c, calls.subList(from, Math.min(calls.size(), from + COMMANDS_PER_WINDOW)), true));
            }
            return out;
        });
    }

    private List<List<Object>> window(RespConnection c, List<List<byte[]>> calls, boolean mayReload) throws IOException {
        for (List<byte[]> args : calls) {
            byte[][] command = new byte[args.size() + 1][];
            command[0] = FCALL;
            for (int i = 0; i < args.size(); i++) {
                command[i + 1] = args.get(i);
            }
            c.send(command);
        }
        int replicas = config.replicas();
        if (replicas > 0) {
            c.send(WAIT, RespConnection.ascii(Integer.toString(replicas)),
                    RespConnection.ascii(Long.toString(config.waitTimeout().toMillis())));
        }
        c.flush();
        List<List<Object>> out = new ArrayList<>(calls.size());
        String failure = null;
        boolean missing = false;
        for (int i = 0; i < calls.size(); i++) {
            Object reply = c.read(); // every reply, even after an error, to stay in step
            if (reply instanceof RespConnection.Error e) {
                missing |= e.message().contains("Function not found");
                failure = failure == null ? e.message() : failure;
            } else if (reply instanceof List<?> list) {
                out.add(new ArrayList<>(list));
            } else {
                throw new IOException("redis protocol error: FCALL answered " + reply);
            }
        }
        Object reached = replicas > 0 ? c.read() : null;
        if (missing && mayReload && out.isEmpty()) {
            reload(c);
            return window(c, calls, false);
        }
        if (failure != null) {
            throw RedisErrors.translate(new RedisCommandExecutionException(failure));
        }
        if (reached instanceof RespConnection.Error e) {
            throw RedisErrors.translate(new RedisCommandExecutionException(e.message()));
        }
        if (replicas > 0 && (!(reached instanceof Long n) || n < replicas)) {
            throw RedisErrors.translate(new RedisErrors.ReplicationShortfall(reached instanceof Long n ? n : 0, replicas));
        }
        return out;
    }

    @Override
    public void close() {
        closed = true;
        for (RespConnection c : open) {
            c.close();
        }
        open.clear();
        idle.clear();
    }

    private interface Call<T> {
        T on(RespConnection connection) throws IOException;
    }

    private <T> T call(Call<T> call) {
        RespConnection c = borrow();
        boolean inStep = false;
        try {
            T result = call.on(c);
            inStep = true;
            return result;
        } catch (TellException e) {
            inStep = true; // an error reply: the connection is still in step
            throw e;
        } catch (SocketTimeoutException e) {
            throw TellException.of(ErrorCode.STORE_TIMEOUT, "redis: no answer within " + config.timeout().toMillis()
                    + " ms from " + config.hosts().get(0), e);
        } catch (IOException e) {
            throw RedisErrors.translate(e);
        } finally {
            if (inStep && !closed) {
                idle.offer(c);
            } else {
                open.remove(c);
                c.close();
            }
        }
    }

    private RespConnection borrow() {
        RespConnection c = idle.poll();
        if (c != null) {
            return c;
        }
        if (closed) {
            throw TellException.of(ErrorCode.STORE_UNAVAILABLE, "redis store is closed");
        }
        try {
            c = RespConnection.open(config.hosts().get(0), config.login(), (int) config.timeout().toMillis());
        } catch (RespConnection.Refused e) {
            throw RedisErrors.translate(new RedisCommandExecutionException(e.getMessage()));
        } catch (IOException e) {
            throw RedisErrors.translate(e);
        }
        open.add(c);
        if (closed) {
            open.remove(c);
            c.close();
            throw TellException.of(ErrorCode.STORE_UNAVAILABLE, "redis store is closed");
        }
        return c;
    }

    private static byte[] bulk(Object reply) {
        if (reply instanceof RespConnection.Error e) {
            throw RedisErrors.translate(new RedisCommandExecutionException(e.message()));
        }
        return (byte[]) reply;
    }
}
