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
 * Reads from one standalone server over blocking connections, on the calling thread: a GET or
 * a batch of MGETs costs the network round trip and little else, where the Lettuce path adds a
 * hand-off to its event loop and back (measured in docs/benchmarks.md, "Direct reads"). Writes
 * stay on Lettuce, which tracks writes in flight and appends WAIT; reads need neither: they
 * change nothing and are answered after every write already acknowledged, as the server runs
 * one command at a time.
 *
 * <p>A connection is borrowed for one call and returned after it, so there are as many as
 * threads reading at once. A connection that failed (time-out, lost) is closed, not returned:
 * its stream may be out of step. Failures are translated as everywhere in this package
 * ({@link RedisErrors}): time-outs STORE_TIMEOUT, lost connections STORE_UNAVAILABLE.
 */
final class DirectReads implements AutoCloseable {
    private static final byte[] GET = RespConnection.ascii("GET");
    private static final byte[] MGET = RespConnection.ascii("MGET");
    /** MGETs sent before their replies are read: bounds what a huge batch leaves in the socket buffers. */
    private static final int MGETS_PER_WINDOW = 16;

    private final RedisStoreConfig config;
    private final ConcurrentLinkedQueue<RespConnection> idle = new ConcurrentLinkedQueue<>();
    private final Set<RespConnection> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    DirectReads(RedisStoreConfig config) {
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
                for (; sent < MGETS_PER_WINDOW && from < keys.size(); sent++) {
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
