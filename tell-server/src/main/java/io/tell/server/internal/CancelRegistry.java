package io.tell.server.internal;

import io.tell.sql.SqlSession;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's sessions by BackendKeyData, for CancelRequests arriving on other connections.
 * The process id only names the session; the random secret key is what proves the request
 * comes from its client.
 */
public final class CancelRegistry {
    /** The BackendKeyData of one session. */
    record Key(int processId, int secretKey) {
    }

    private record Entry(int secretKey, SqlSession session) {
    }

    private final SecureRandom random = new SecureRandom();
    private final AtomicInteger nextId = new AtomicInteger(1);
    private final Map<Integer, Entry> sessions = new ConcurrentHashMap<>();

    Key register(SqlSession session) {
        int id = nextId.getAndUpdate(i -> i == Integer.MAX_VALUE ? 1 : i + 1);
        int secret = random.nextInt();
        sessions.put(id, new Entry(secret, session));
        return new Key(id, secret);
    }

    void remove(int processId) {
        sessions.remove(processId);
    }

    /** Cancels the running statement of the session the key names; a wrong key does nothing, as in PostgreSQL. */
    void cancel(int processId, int secretKey) {
        Entry e = sessions.get(processId);
        if (e != null && e.secretKey() == secretKey) {
            e.session().cancel();
        }
    }
}
