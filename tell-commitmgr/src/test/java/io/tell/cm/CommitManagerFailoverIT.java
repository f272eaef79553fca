package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.error.TellRetriableException;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.txn.TxStart;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Servers that stop, come back on the same port, restart their commit manager, or hang. */
class CommitManagerFailoverIT {
    private static final Duration REQUEST_TIMEOUT = Duration.ofMillis(800);
    /** Far above every timeout in play, so only a hang trips it. */
    private static final Duration NO_HANG = Duration.ofSeconds(20);

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    private <T extends AutoCloseable> T keep(T resource) {
        resources.add(resource);
        return resource;
    }

    private CommitManagerClient client(String addresses, Duration reportDeadline) {
        return keep(CommitManagerClient.connect(addresses, CommitManagerClient.Options.defaults()
                .withRequestTimeout(REQUEST_TIMEOUT).withConnectTimeout(Duration.ofMillis(500)).withReportDeadline(reportDeadline)));
    }

    private static LocalCommitManager durable(RecordStore store) {
        return LocalCommitManager.open(store, new LocalCommitManager.Options(20, true, Duration.ofMillis(200)));
    }

    private static void assertUnavailable(Runnable call) {
        TellException e = assertThrows(TellException.class, call::run);
        assertEquals(ErrorCode.CM_UNAVAILABLE, e.code(), e.toString());
        assertInstanceOf(TellRetriableException.class, e);
    }

    /** Runs transactions until one goes through (the first calls after a server change may fail). */
    private static TxStart commitOne(CommitManagerClient c) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                TxStart s = c.start(false);
                c.committed(s.tid());
                assertTrue(c.start(true).snapshot().isVisible(s.tid()));
                return s;
            } catch (TellException e) {
                assertEquals(ErrorCode.CM_UNAVAILABLE, e.code(), e.toString());
                assertTrue(System.nanoTime() < deadline, "no recovery: " + e);
            }
        }
    }

    @Test
    void nothingListeningFailsPromptlyAsUnavailable() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        CommitManagerClient c = client("127.0.0.1:" + port, Duration.ofMillis(600));
        assertTimeoutPreemptively(NO_HANG, () -> {
            assertUnavailable(() -> c.start(false));
            assertUnavailable(() -> c.start(true));
            assertUnavailable(() -> c.committed(5));
            CompletableFuture<TxStart> async = c.startAsync(false);
            TellException e = assertThrows(TellException.class, () -> TellException.join(async));
            assertEquals(ErrorCode.CM_UNAVAILABLE, e.code());
        });
    }

    @Test
    void sameManagerBehindARestartedServer() {
        LocalCommitManager cm = keep(durable(RecordStores.open("mem:")));
        CommitManagerServer server = CommitManagerServer.start(cm, "127.0.0.1", 0);
        int port = server.port();
        CommitManagerClient c = client("127.0.0.1:" + port, Duration.ofMillis(700));
        TxStart before = commitOne(c);
        TxStart open = c.start(false);

        server.close();
        assertTimeoutPreemptively(NO_HANG, () -> {
            assertUnavailable(() -> c.start(false));
            assertUnavailable(() -> c.committed(open.tid())); // resent until the deadline, then given up
        });

        // Back on the same port: the same client object carries on.
        CommitManagerServer again = keep(CommitManagerServer.start(cm, "127.0.0.1", port));
        TxStart after = commitOne(c);
        assertTrue(after.tid() > open.tid() && open.tid() > before.tid());
        c.committed(open.tid());
        assertTrue(c.start(true).snapshot().isVisible(open.tid()));
        assertEquals(port, again.port());
    }

    @Test
    void reportIsResentAcrossAServerRestart() throws Exception {
        LocalCommitManager cm = keep(durable(RecordStores.open("mem:")));
        CommitManagerServer server = CommitManagerServer.start(cm, "127.0.0.1", 0);
        int port = server.port();
        CommitManagerClient c = client("127.0.0.1:" + port, Duration.ofSeconds(15));
        TxStart t = c.start(false);
        server.close();
        CompletableFuture<Void> report = c.committedAsync(t.tid()); // keeps trying while the server is away
        Thread.sleep(REQUEST_TIMEOUT.toMillis() + 300);
        assertFalse(report.isDone(), "the deadline is far away");
        keep(CommitManagerServer.start(cm, "127.0.0.1", port));
        report.get(NO_HANG.toSeconds(), TimeUnit.SECONDS);
        assertTrue(c.start(true).snapshot().isVisible(t.tid()));
    }

    @Test
    void restartedDurableManagerOverTheSameStore() throws Exception {
        RecordStore store = RecordStores.open("mem:cm-restart-" + UUID.randomUUID());
        LocalCommitManager first = durable(store);
        CommitManagerServer server = CommitManagerServer.start(first, "127.0.0.1", 0);
        int port = server.port();
        CommitManagerClient c = client("127.0.0.1:" + port, Duration.ofSeconds(15));
        TxStart committed = commitOne(c);
        TxStart running = c.start(false);   // its node will report after the restart
        TxStart abandoned = c.start(false); // its node died: no report, no log entry

        server.close();
        first.close(); // the commit manager process goes away
        assertTimeoutPreemptively(NO_HANG, () -> assertUnavailable(() -> c.start(false)));

        LocalCommitManager second = keep(durable(store));
        keep(CommitManagerServer.start(second, "127.0.0.1", port));
        TxStart after = commitOne(c);
        assertTrue(after.tid() > abandoned.tid(), "tids keep increasing: " + after.tid());
        assertTrue(after.snapshot().isVisible(committed.tid()));
        assertFalse(after.snapshot().isVisible(running.tid()));
        c.committed(running.tid());
        assertTrue(c.start(true).snapshot().isVisible(running.tid()));
        // The abandoned tid is fenced after the grace, so the base moves on.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!c.start(true).snapshot().isVisible(abandoned.tid())) {
            assertTrue(System.nanoTime() < deadline, "abandoned tid never fenced");
            Thread.sleep(20);
        }
        for (int i = 0; i < 50; i++) {
            TxStart s = c.start(false);
            assertTrue(s.tid() > after.tid());
            c.committed(s.tid());
        }
    }

    @Test
    void failsOverToTheNextServerAndBack() {
        LocalCommitManager cm = keep(durable(RecordStores.open("mem:")));
        CommitManagerServer a = CommitManagerServer.start(cm, "127.0.0.1", 0);
        CommitManagerServer b = CommitManagerServer.start(cm, "127.0.0.1", 0);
        int portA = a.port();
        CommitManagerClient c = client("127.0.0.1:" + portA + ",127.0.0.1:" + b.port(), Duration.ofSeconds(5));
        long last = commitOne(c).tid();
        TxStart open = c.start(false);

        a.close();
        TxStart viaB = commitOne(c);
        assertTrue(viaB.tid() > last);
        c.committed(open.tid()); // started through A, reported through B
        CommitManagerServer a2 = keep(CommitManagerServer.start(cm, "127.0.0.1", portA));
        b.close();
        TxStart viaA = commitOne(c);
        assertTrue(viaA.tid() > viaB.tid());
        assertTrue(viaA.snapshot().isVisible(open.tid()));
        assertEquals(portA, a2.port());
    }

    @Test
    void serverThatStopsAnsweringIsLeftForTheNext() throws Exception {
        // Accepts connections and reads, but never answers: a hung process.
        ServerSocket hung = keep(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        List<Socket> accepted = new ArrayList<>();
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    Socket s = hung.accept();
                    synchronized (accepted) {
                        accepted.add(s);
                    }
                }
            } catch (IOException closed) {
                // test over
            }
        }, "hung-server");
        acceptor.setDaemon(true);
        acceptor.start();
        resources.add(() -> {
            synchronized (accepted) {
                for (Socket s : accepted) {
                    s.close();
                }
            }
        });
        LocalCommitManager cm = keep(durable(RecordStores.open("mem:")));
        CommitManagerServer good = keep(CommitManagerServer.start(cm, "127.0.0.1", 0));
        CommitManagerClient c = client("127.0.0.1:" + hung.getLocalPort() + ",127.0.0.1:" + good.port(), Duration.ofSeconds(10));
        assertTimeoutPreemptively(NO_HANG, () -> {
            assertUnavailable(() -> c.start(false)); // times out on the hung one
            TxStart s = c.start(false);              // goes to the next
            c.committed(s.tid());
        });
        // A report that first goes to the hung server is resent to the good one.
        CommitManagerClient fresh = client("127.0.0.1:" + hung.getLocalPort() + ",127.0.0.1:" + good.port(), Duration.ofSeconds(10));
        TxStart t = c.start(false);
        assertTimeoutPreemptively(NO_HANG, () -> fresh.committed(t.tid()));
        assertTrue(c.start(true).snapshot().isVisible(t.tid()));
    }

    /** Wraps a commit manager and answers the first START late, after the client gave up. */
    private static final class SlowFirstStart extends io.tell.txn.ForwardingCommitManager {
        private final LocalCommitManager delegate;
        private final java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        private final java.util.concurrent.ScheduledExecutorService delay = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        volatile long lateTid;

        SlowFirstStart(LocalCommitManager delegate) {
            this.delegate = delegate;
        }

        @Override
        protected io.tell.txn.CommitManager delegate() {
            return delegate;
        }

        @Override
        public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
            if (!first.getAndSet(false)) {
                return delegate.startAsync(readOnly, owner);
            }
            CompletableFuture<TxStart> late = new CompletableFuture<>();
            delay.schedule(() -> delegate.startAsync(readOnly, owner).thenAccept(s -> {
                lateTid = s.tid();
                late.complete(s);
            }), REQUEST_TIMEOUT.toMillis() * 3 / 2, TimeUnit.MILLISECONDS);
            return late;
        }

        @Override
        public void close() {
            delay.shutdownNow();
        }
    }

    @Test
    void lateStartAnswerIsEndedNotLeaked() throws Exception {
        LocalCommitManager cm = keep(durable(RecordStores.open("mem:")));
        SlowFirstStart slow = keep(new SlowFirstStart(cm));
        CommitManagerServer server = keep(CommitManagerServer.start(slow, "127.0.0.1", 0));
        CommitManagerClient c = client("127.0.0.1:" + server.port(), Duration.ofSeconds(10));
        assertTimeoutPreemptively(NO_HANG, () -> assertUnavailable(() -> c.start(false)));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        // The orphan was started at the commit manager; the client reports it aborted.
        while (slow.lateTid == 0 || !cm.start(true).snapshot().isVisible(slow.lateTid)) {
            assertTrue(System.nanoTime() < deadline, "orphaned start never ended: " + cm.describe());
            Thread.sleep(20);
        }
        commitOne(c);
    }

    @Test
    void closedClientFailsCallsAsUnavailable() {
        LocalCommitManager cm = keep(durable(RecordStores.open("mem:")));
        CommitManagerServer server = keep(CommitManagerServer.start(cm, "127.0.0.1", 0));
        CommitManagerClient c = CommitManagerClient.connect("127.0.0.1:" + server.port(), CommitManagerClient.Options.defaults());
        commitOne(c);
        c.close();
        assertTimeoutPreemptively(NO_HANG, () -> {
            assertUnavailable(() -> c.start(false));
            assertUnavailable(() -> c.committed(1));
        });
    }
}
