package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordStores;
import io.tell.store.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS on the commit-manager connection, with and without the cluster secret inside it, and every mismatch refused clearly. */
class CommitManagerTlsIT {
    private static final ClusterSecret SECRET = ClusterSecret.of("the-right-secret-0123456789");
    /** A refusal comes well before this; a hang would not. */
    private static final long QUICK_MILLIS = 5_000;

    @TempDir
    static Path dir;
    private static TestCertificates certs;
    private static TestCertificates otherCa;

    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    static void makeCertificates() throws Exception {
        certs = TestCertificates.make(Files.createDirectory(dir.resolve("cluster")));
        otherCa = TestCertificates.make(Files.createDirectory(dir.resolve("other")));
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : closing.reversed()) {
            c.close();
        }
    }

    private CommitManagerServer server(ClusterSecret secret, boolean tls) {
        LocalCommitManager cm = LocalCommitManager.open(RecordStores.open("mem:"), new LocalCommitManager.Options(50, true, Duration.ofHours(1)));
        closing.add(cm);
        CommitManagerServer server = CommitManagerServer.start(cm, "127.0.0.1", 0, secret, tls ? CmTls.server(certs.cert(), certs.key()) : null);
        closing.add(server);
        return server;
    }

    private CommitManagerClient client(String host, CommitManagerServer server, ClusterSecret secret, Path ca) {
        CommitManagerClient c = CommitManagerClient.connect(host + ":" + server.port(), CommitManagerClient.Options.defaults()
                .withRequestTimeout(Duration.ofSeconds(10)).withReportDeadline(Duration.ofSeconds(3)).withSecret(secret).withTlsCa(ca));
        closing.add(c);
        return c;
    }

    private CommitManagerClient client(CommitManagerServer server, ClusterSecret secret, Path ca) {
        return client("127.0.0.1", server, secret, ca);
    }

    @Test
    void tlsWithTheSecretInsideServesCallsAndPipelines() {
        CmWireTesting.servesCallsAndPipelines(client(server(SECRET, true), SECRET, certs.ca()));
    }

    @Test
    void tlsWithoutASecretWorksToo() {
        CommitManagerClient c = client(server(null, true), null, certs.ca());
        c.committed(c.start(false).tid());
    }

    @Test
    void aClientTrustingAnotherCaIsRefused() {
        refused(client(server(SECRET, true), SECRET, otherCa.ca()), "is not trusted");
    }

    @Test
    void aCertificateThatDoesNotNameTheHostDialledIsRefused() {
        // The certificate names IP 127.0.0.1 only; "localhost" reaches the same server but is not in it.
        CommitManagerServer server = server(null, true);
        TellException e = assertThrows(TellException.class, () -> client("localhost", server, null, certs.ca()).start(false));
        if (e.code() == ErrorCode.AUTH_FAILED) {
            assertTrue(e.getMessage().contains("is not trusted"), e.getMessage());
        } else { // localhost resolved to ::1, where nothing listens
            assertEquals(ErrorCode.CM_UNAVAILABLE, e.code(), e.toString());
        }
    }

    @Test
    void aPlainClientIsRefusedByATlsServer() {
        CommitManagerServer server = server(null, true);
        refused(client(server, null, null), "requires TLS");
        // With a secret the client waits for a CHALLENGE that never comes in the clear: bounded by the connect timeout.
        CommitManagerServer secured = server(SECRET, true);
        long t0 = System.nanoTime();
        TellException e = assertThrows(TellException.class, () -> client(secured, SECRET, null).start(false));
        assertTrue((System.nanoTime() - t0) / 1_000_000 < QUICK_MILLIS, "bounded by the connect timeout");
        assertTrue(e.getMessage().contains("requires TLS"), e.getMessage());
    }

    @Test
    void aTlsClientIsRefusedByAPlainServer() {
        refused(client(server(SECRET, false), SECRET, certs.ca()), "does not speak TLS");
        refused(client(server(null, false), null, certs.ca()), "does not speak TLS");
    }

    @Test
    void unusableFilesAreBadConfiguration() {
        assertEquals(ErrorCode.BAD_CONFIGURATION, assertThrows(TellException.class,
                () -> CmTls.server(certs.cert(), dir.resolve("missing.pem"))).code());
        assertEquals(ErrorCode.BAD_CONFIGURATION, assertThrows(TellException.class,
                () -> CmTls.server(certs.key(), certs.cert())).code());
        assertEquals(ErrorCode.BAD_CONFIGURATION, assertThrows(TellException.class,
                () -> CommitManagerClient.Options.defaults().withTlsCa(dir.resolve("missing.pem"))).code());
    }

    /** Calls fail at once with a non-retriable AUTH_FAILED saying {@code why}, and reports are not resent. */
    private static void refused(CommitManagerClient c, String why) {
        long t0 = System.nanoTime();
        TellException e = assertThrows(TellException.class, () -> c.start(false));
        assertEquals(ErrorCode.AUTH_FAILED, e.code(), e.toString());
        assertFalse(e.retriable());
        assertTrue(e.getMessage().contains(why), e.getMessage());
        TellException report = assertThrows(TellException.class, () -> c.committed(1));
        assertEquals(ErrorCode.AUTH_FAILED, report.code(), report.toString());
        assertTrue((System.nanoTime() - t0) / 1_000_000 < QUICK_MILLIS, "refused at once, not after retries");
    }
}
