package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.TestCertificates;
import io.tell.store.WriteOp;
import io.tell.store.redis.process.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logging in to Redis through the store URL, against real servers started with
 * {@code requirepass}, with an ACL user, and with TLS (a throw-away CA made by openssl).
 */
class RedisAuthIT {
    private static final String PASSWORD = "s3cret-Pw+@:x";
    private static final String ENCODED = "s3cret-Pw+%40%3Ax";
    private static final String WRONG = "wrong-Pw-42";

    @Test
    void requirepassNeedsThePassword() {
        try (RedisProcess redis = RedisProcess.builder().option("requirepass", PASSWORD).start()) {
            String hostPort = redis.host() + ":" + redis.port();
            try (RecordStore store = RecordStores.open("redis://:" + ENCODED + "@" + hostPort)) {
                roundTrip(store);
                assertEquals("redis://:***@" + hostPort, store.describe());
            }
            refused("redis://:" + WRONG + "@" + hostPort, WRONG);
            refused("redis://" + hostPort, PASSWORD);
        }
    }

    @Test
    void anAclUserLogsInWithItsOwnPassword() {
        try (RedisProcess redis = RedisProcess.builder().option("user", "tell", "on", ">" + PASSWORD, "~*", "&*", "+@all").start()) {
            String hostPort = redis.host() + ":" + redis.port();
            try (RecordStore store = RecordStores.open("redis://tell:" + ENCODED + "@" + hostPort)) {
                roundTrip(store);
                assertEquals("redis://tell:***@" + hostPort, store.describe());
            }
            refused("redis://tell:" + WRONG + "@" + hostPort, WRONG);
            refused("redis://nobody:" + ENCODED + "@" + hostPort, PASSWORD);
        }
    }

    @Test
    void rediss_connectsOverTlsTrustingTheGivenCa(@TempDir Path dir) throws Exception {
        TestCertificates certificates = TestCertificates.make(dir);
        Path ca = certificates.ca();
        Path cert = certificates.cert();
        Path key = certificates.key();
        int tlsPort = RedisProcess.freePortPair();
        try (RedisProcess redis = RedisProcess.builder().option("requirepass", PASSWORD)
                .option("tls-port", Integer.toString(tlsPort)).option("tls-cert-file", cert.toString())
                .option("tls-key-file", key.toString()).option("tls-ca-cert-file", ca.toString())
                .option("tls-auth-clients", "no").start()) {
            String url = "rediss://:" + ENCODED + "@" + redis.host() + ":" + tlsPort + "?tlsCa=" + ca;
            try (RecordStore store = RecordStores.open(url)) {
                roundTrip(store);
                assertFalse(store.describe().contains(PASSWORD), store.describe());
            }
            // Without the CA the JVM's trust store does not know the server's certificate.
            TellException untrusted = assertThrows(TellException.class,
                    () -> RecordStores.open("rediss://:" + ENCODED + "@" + redis.host() + ":" + tlsPort).close());
            assertFalse(untrusted.getMessage().contains(PASSWORD), untrusted.getMessage());
        }
    }

    private static void roundTrip(RecordStore store) {
        store.write(WriteOp.insert("auth", "k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals("v".getBytes(StandardCharsets.UTF_8), store.get("auth", "k".getBytes(StandardCharsets.UTF_8)).value());
    }

    /** Opening fails at once with a non-retriable AUTH_FAILED whose message never shows {@code secret}. */
    private static void refused(String url, String secret) {
        TellException e = assertThrows(TellException.class, () -> RecordStores.open(url).close());
        StringBuilder causes = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            causes.append("\n  ").append(t);
            for (Throwable s : t.getSuppressed()) {
                causes.append("\n    suppressed ").append(s);
            }
        }
        assertEquals(ErrorCode.AUTH_FAILED, e.code(), causes.toString());
        assertFalse(e.retriable());
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertFalse(String.valueOf(t.getMessage()).contains(secret), t.toString());
        }
    }
}
