package io.tell.cm;

import static io.tell.cm.CmWireTesting.assertClosedByServer;
import static io.tell.cm.CmWireTesting.frame;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.internal.CmHandshake;
import io.tell.cm.internal.CmProtocol;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordStores;
import io.tell.txn.TxStart;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A commit manager with a cluster secret serves only peers that prove it, and proves it back. */
class CommitManagerAuthIT {
    private static final ClusterSecret SECRET = ClusterSecret.of("the-right-secret-0123456789");
    private static final ClusterSecret OTHER = ClusterSecret.of("another-cluster-0123456789");

    private LocalCommitManager cm;
    private CommitManagerServer server;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeEach
    void startServer() {
        cm = LocalCommitManager.open(RecordStores.open("mem:"), new LocalCommitManager.Options(50, true, Duration.ofHours(1)));
        server = CommitManagerServer.start(cm, "127.0.0.1", 0, SECRET);
    }

    @AfterEach
    void stopServer() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        server.close();
        cm.close();
    }

    private CommitManagerClient client(ClusterSecret secret, int port) {
        CommitManagerClient c = CommitManagerClient.connect("127.0.0.1:" + port, CommitManagerClient.Options.defaults()
                .withRequestTimeout(Duration.ofSeconds(10)).withReportDeadline(Duration.ofSeconds(3)).withSecret(secret));
        closing.add(c);
        return c;
    }

    @Test
    void aClientWithTheSecretWorksAsBefore() {
        CommitManagerClient c = client(SECRET, server.port());
        CmWireTesting.servesCallsAndPipelines(c);
        assertTrue(c.directConnections() > 0, "the waiting calls went over connections that made the handshake");
    }

    @Test
    void aClientWithoutTheSecretIsRefusedClearly() {
        TellException e = assertThrows(TellException.class, () -> client(null, server.port()).start(false));
        assertEquals(ErrorCode.AUTH_FAILED, e.code(), e.toString());
        assertFalse(e.retriable());
        assertTrue(e.getMessage().contains("cluster secret"), e.getMessage());
        TellException report = assertThrows(TellException.class, () -> client(null, server.port()).aborted(1));
        assertEquals(ErrorCode.AUTH_FAILED, report.code(), "not resent until the deadline: " + report);
    }

    @Test
    void aClientWithAnotherSecretIsRefusedClearly() {
        TellException e = assertThrows(TellException.class, () -> client(OTHER, server.port()).start(false));
        assertEquals(ErrorCode.AUTH_FAILED, e.code(), e.toString());
        assertTrue(e.getMessage().contains("different cluster secret"), e.getMessage());
    }

    @Test
    void aClientWithTheSecretRefusesAServerWithout() {
        try (CommitManagerServer open = CommitManagerServer.start(cm, "127.0.0.1", 0)) {
            TellException e = assertThrows(TellException.class, () -> client(SECRET, open.port()).start(false));
            assertTrue(e.getMessage().contains("sent no CHALLENGE"), e.getMessage());
        }
    }

    @Test
    void nothingAnUnauthenticatedPeerSendsChangesState() throws Exception {
        CommitManagerClient good = client(SECRET, server.port());
        TxStart running = good.start(false);
        byte[] committed = frame(CmProtocol.COMMITTED, 7, ByteBuffer.allocate(16).putLong(running.tid()).putLong(0).array());
        try (Socket s = raw()) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            readChallenge(in);
            s.getOutputStream().write(committed);
            assertEquals("AUTH_FAILED", readError(in, 7));
            assertClosedByServer(s);
        }
        try (Socket s = raw()) {
            // A wrong proof, with a report pipelined right behind it: neither gets through.
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] serverNonce = readChallenge(in);
            byte[] clientNonce = CmHandshake.nonce();
            OutputStream out = s.getOutputStream();
            out.write(auth(clientNonce, CmHandshake.clientProof(OTHER, serverNonce, clientNonce)));
            out.write(committed);
            assertEquals("AUTH_FAILED", readError(in, 0));
            assertClosedByServer(s);
        }
        assertFalse(good.start(true).snapshot().isVisible(running.tid()), "a refused peer completed " + running.tid());
        good.committed(running.tid());
        assertTrue(good.start(true).snapshot().isVisible(running.tid()));
    }

    @Test
    void garbageBeforeAuthenticatingClosesThatPeerOnly() throws Exception {
        CommitManagerClient good = client(SECRET, server.port());
        try (Socket s = raw()) {
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertClosedByServer(s);
        }
        try (Socket s = raw()) {
            s.getOutputStream().write(frame(0x7f, 3, new byte[] {1, 2, 3}));
            assertClosedByServer(s);
        }
        TxStart t = good.start(false);
        good.committed(t.tid());
        assertTrue(good.start(true).snapshot().isVisible(t.tid()));
    }

    @Test
    void rawHandshakeFollowsTheDocumentedLayout() throws Exception {
        try (Socket s = raw()) {
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] serverNonce = readChallenge(in);
            byte[] clientNonce = CmHandshake.nonce();
            OutputStream out = s.getOutputStream();
            out.write(auth(clientNonce, CmHandshake.clientProof(SECRET, serverNonce, clientNonce)));
            out.write(frame(CmProtocol.START, 5, new byte[] {0})); // pipelined behind AUTH
            assertEquals(9 + 32, in.readInt());
            assertEquals(CmProtocol.AUTHENTICATED, in.readByte());
            assertEquals(0, in.readLong());
            byte[] proof = new byte[32];
            in.readFully(proof);
            assertArrayEquals(CmHandshake.serverProof(SECRET, serverNonce, clientNonce), proof);
            in.readInt();
            assertEquals(CmProtocol.STARTED, in.readByte());
            assertEquals(5, in.readLong());
        }
    }

    private Socket raw() throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        s.setSoTimeout(10_000);
        return s;
    }

    private static byte[] readChallenge(DataInputStream in) throws IOException {
        assertEquals(9 + 32, in.readInt());
        assertEquals(CmProtocol.CHALLENGE, in.readByte());
        assertEquals(0, in.readLong());
        byte[] nonce = new byte[32];
        in.readFully(nonce);
        return nonce;
    }

    /** Reads an ERROR frame answering {@code requestId} and returns its code. */
    private static String readError(DataInputStream in, long requestId) throws IOException {
        int length = in.readInt();
        assertEquals(CmProtocol.ERROR, in.readByte());
        assertEquals(requestId, in.readLong());
        byte[] body = new byte[length - 9];
        in.readFully(body);
        ByteBuffer b = ByteBuffer.wrap(body);
        byte[] code = new byte[b.getShort()];
        b.get(code);
        return new String(code, StandardCharsets.UTF_8);
    }

    private static byte[] auth(byte[] clientNonce, byte[] proof) {
        return frame(CmProtocol.AUTH, 0, ByteBuffer.allocate(64).put(clientNonce).put(proof).array());
    }
}
