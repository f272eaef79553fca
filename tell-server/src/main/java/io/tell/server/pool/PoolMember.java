package io.tell.server.pool;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One PN server's membership record in its pool: record {@code pool.<id>} in the system domain
 * {@value #DOMAIN}, listed in the directory {@code pool}. The server rewrites it every
 * heartbeat ({@link PoolMembership}); {@code heartbeat} counts the rewrites, so a reader judges
 * liveness by seeing it change on its own clock ({@link Pools}), not by comparing
 * {@code heartbeatMillis} (the writer's wall clock, shown for information) with its own.
 *
 * <p>Value: format (1 byte, 1), pool, host (2-byte length + UTF-8 each), port (4), metrics port
 * (4, -1 for none), pid (8), start and heartbeat wall-clock millis (8 each), heartbeat count (8),
 * open sessions (4), statements per second over the last heartbeat period (8, a double);
 * big-endian.
 */
public record PoolMember(String pool, String host, int port, int metricsPort, long pid, long startMillis, long heartbeatMillis,
                         long heartbeat, int sessions, double statementsPerSecond) {
    public static final String DOMAIN = "tell.sys";
    public static final String KEY_PREFIX = "pool.";
    /** {@link #metricsPort} of a server without a metrics endpoint. */
    public static final int NO_METRICS = -1;
    private static final byte FORMAT = 1;

    /** {@code host:port} of the server's PostgreSQL endpoint. */
    public String address() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /** This record one heartbeat later. */
    PoolMember next(long nowMillis, int openSessions, double perSecond) {
        return new PoolMember(pool, host, port, metricsPort, pid, startMillis, nowMillis, heartbeat + 1, openSessions, perSecond);
    }

    public static RecordKey key(String id) {
        return new RecordKey(DOMAIN, (KEY_PREFIX + id).getBytes(StandardCharsets.UTF_8));
    }

    public byte[] encode() {
        byte[] p = pool.getBytes(StandardCharsets.UTF_8);
        byte[] h = host.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(1 + 2 + p.length + 2 + h.length + 4 + 4 + 8 + 8 + 8 + 8 + 4 + 8);
        b.put(FORMAT).putShort((short) p.length).put(p).putShort((short) h.length).put(h).putInt(port).putInt(metricsPort)
                .putLong(pid).putLong(startMillis).putLong(heartbeatMillis).putLong(heartbeat).putInt(sessions)
                .putDouble(statementsPerSecond);
        return b.array();
    }

    public static PoolMember decode(byte[] bytes) {
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            if (b.get() != FORMAT) {
                throw TellException.of(ErrorCode.CORRUPT_DATA, "pool member record of an unknown format " + bytes[0]);
            }
            String pool = string(b);
            String host = string(b);
            PoolMember m = new PoolMember(pool, host, b.getInt(), b.getInt(), b.getLong(), b.getLong(), b.getLong(), b.getLong(),
                    b.getInt(), b.getDouble());
            if (b.hasRemaining()) {
                throw TellException.of(ErrorCode.CORRUPT_DATA, "pool member record with " + b.remaining() + " bytes too many");
            }
            return m;
        } catch (java.nio.BufferUnderflowException e) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "truncated pool member record of " + bytes.length + " bytes", e);
        }
    }

    private static String string(ByteBuffer b) {
        byte[] s = new byte[Short.toUnsignedInt(b.getShort())];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }
}
