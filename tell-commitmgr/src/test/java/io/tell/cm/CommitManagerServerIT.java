package io.tell.cm;

import static io.tell.cm.CmWireTesting.assertClosedByServer;
import static io.tell.cm.CmWireTesting.frame;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.internal.CmProtocol;
import io.tell.store.RecordStores;
import io.tell.txn.CommitManager;
import io.tell.txn.SnapshotDescriptor;
import io.tell.txn.TxStart;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A commit manager server on loopback: concurrency through one and several clients, and bad peers. */
class CommitManagerServerIT {
    private static final int THREADS = 8;
    private static final int TX_PER_THREAD = 250;

    private LocalCommitManager cm;
    private CommitManagerServer server;
    private final List<CommitManagerClient> clients = new ArrayList<>();

    @BeforeEach
    void startServer() {
        // Durable, so that reports are answered from the journal thread as in production.
        cm = LocalCommitManager.open(RecordStores.open("mem:"), new LocalCommitManager.Options(50, true, Duration.ofHours(1)));
        server = CommitManagerServer.start(cm, "127.0.0.1", 0);
    }

    @AfterEach
    void stopServer() {
        clients.forEach(CommitManagerClient::close);
        server.close();
        cm.close();
    }

    private CommitManagerClient client() {
        CommitManagerClient c = CommitManagerClient.connect("127.0.0.1:" + server.port(),
                CommitManagerClient.Options.defaults().withRequestTimeout(Duration.ofSeconds(10)));
        clients.add(c);
        return c;
    }

    /** Tids acknowledged committed so far, shared by all workers (0 = slot not yet filled). */
    private static final class Acked {
        final AtomicLongArray tids = new AtomicLongArray(THREADS * TX_PER_THREAD);
        final AtomicInteger count = new AtomicInteger();

        void add(long tid) {
            tids.set(count.getAndIncrement(), tid);
        }

        /** Up to {@code n} of the tids acknowledged before this call. */
        List<Long> recent(int n) {
            int c = count.get();
            List<Long> out = new ArrayList<>();
            for (int i = Math.max(0, c - n); i < c; i++) {
                long t = tids.get(i);
                if (t != 0) {
                    out.add(t);
                }
            }
            return out;
        }
    }

    private static void runWorkers(List<? extends CommitManager> perThread) throws Exception {
        runWorkers(perThread, false);
    }

    /** {@code waitingReports}: reports through {@link CommitManager#reportAwaited} (on the caller's thread), else the resending ones. */
    private static void runWorkers(List<? extends CommitManager> perThread, boolean waitingReports) throws Exception {
        Acked acked = new Acked();
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                CommitManager cmc = perThread.get(t);
                long seed = Long.getLong("tell.seed", 1) + t;
                work.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    long lastOwn = 0;
                    for (int i = 0; i < TX_PER_THREAD; i++) {
                        List<Long> mustSee = acked.recent(16);
                        boolean readOnly = random.nextInt(5) == 0;
                        TxStart s = cmc.start(readOnly);
                        assertTrue(ids.add(s.tid()), "duplicate id " + s.tid());
                        assertEquals(readOnly, s.readOnly());
                        assertFalse(s.snapshot().isVisible(s.tid()) && !readOnly, "own tid in own snapshot");
                        assertTrue(s.lav() <= s.snapshot().base());
                        for (long seen : mustSee) {
                            assertTrue(s.snapshot().isVisible(seen), "acknowledged " + seen + " not in " + s.snapshot());
                        }
                        if (!readOnly) {
                            assertTrue(s.tid() > lastOwn, "tids of one thread increase");
                            lastOwn = s.tid();
                        }
                        if (readOnly || random.nextInt(10) > 0) {
                            if (waitingReports) {
                                cmc.reportAwaited(CommitManager.Outcome.COMMITTED, s.tid(), 0).join();
                            } else {
                                cmc.committed(s.tid());
                            }
                            if (!readOnly) {
                                acked.add(s.tid());
                            }
                        } else if (waitingReports) {
                            cmc.reportAwaited(CommitManager.Outcome.ABORTED, s.tid(), 0).join();
                        } else {
                            cmc.aborted(s.tid());
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get(90, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        // Everything completed: a new snapshot sees every tid ever handed out.
        SnapshotDescriptor end = perThread.get(0).start(true).snapshot();
        long maxTid = ids.stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(end.base() >= maxTid, "base " + end.base() + " below " + maxTid);
        for (long t : acked.recent(Integer.MAX_VALUE)) {
            assertTrue(end.isVisible(t));
        }
    }

    @Test
    void manyThreadsThroughOneClient() throws Exception {
        CommitManagerClient c = client();
        List<CommitManager> same = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            same.add(c);
        }
        runWorkers(same);
    }

    @Test
    void waitingCallsGoOverAConnectionPerThread() throws Exception {
        CommitManagerClient c = client();
        List<CommitManager> same = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            same.add(c);
        }
        runWorkers(same, true);
        int direct = c.directConnections();
        assertTrue(direct >= 1 && direct <= THREADS, direct + " direct connections for " + THREADS + " threads");
    }

    /** Starts answered only after {@code delayMillis}: callers pile up. */
    private static final class SlowStarts extends io.tell.txn.ForwardingCommitManager {
        private final CommitManager delegate;
        private final java.util.concurrent.ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        private final long delayMillis;

        SlowStarts(CommitManager delegate, long delayMillis) {
            this.delegate = delegate;
            this.delayMillis = delayMillis;
        }

        @Override
        protected CommitManager delegate() {
            return delegate;
        }

        @Override
        public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
            CompletableFuture<TxStart> later = new CompletableFuture<>();
            timer.schedule(() -> delegate.startAsync(readOnly, owner).whenComplete((s, e) -> {
                if (e == null) {
                    later.complete(s);
                } else {
                    later.completeExceptionally(e);
                }
            }), delayMillis, TimeUnit.MILLISECONDS);
            return later;
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }

    @Test
    void callersBeyondTheConnectionLimitGoOverTheEventLoop() throws Exception {
        SlowStarts slow = new SlowStarts(cm, 300);
        CommitManagerServer slowServer = CommitManagerServer.start(slow, "127.0.0.1", 0);
        CommitManagerClient c = CommitManagerClient.connect("127.0.0.1:" + slowServer.port(),
                CommitManagerClient.Options.defaults().withRequestTimeout(Duration.ofSeconds(10)));
        int callers = DirectCalls.MAX_CONNECTIONS + 16;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<Long>> tids = new ArrayList<>();
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            for (int i = 0; i < callers; i++) {
                tids.add(pool.submit(() -> {
                    go.await();
                    TxStart s = c.start(false);
                    c.reportAwaited(CommitManager.Outcome.ABORTED, s.tid(), 0).join();
                    return s.tid();
                }));
            }
            go.countDown();
            Set<Long> distinct = new java.util.HashSet<>();
            for (Future<Long> f : tids) {
                distinct.add(f.get(60, TimeUnit.SECONDS));
            }
            assertEquals(callers, distinct.size());
            assertTrue(c.peakDirectConnections() <= DirectCalls.MAX_CONNECTIONS, c.peakDirectConnections() + " direct connections at once");
            assertTrue(c.directConnections() > 1, "callers waited at once on connections of their own");
            long highest = distinct.stream().mapToLong(Long::longValue).max().orElseThrow();
            assertTrue(c.start(true).snapshot().base() >= highest, "every tid was ended");
        } finally {
            pool.shutdownNow();
            c.close();
            slowServer.close();
            slow.close();
        }
    }

    @Test
    void manyThreadsThroughSeveralClients() throws Exception {
        List<CommitManager> perThread = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            perThread.add(i % 2 == 0 ? client() : perThread.get(i - 1)); // four clients, two threads each
        }
        runWorkers(perThread);
    }

    @Test
    void asyncCallsPipelineAndCallbacksMayBlock() throws Exception {
        CommitManagerClient c = client();
        List<CompletableFuture<TxStart>> starts = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            starts.add(c.startAsync(false));
        }
        CompletableFuture.allOf(starts.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
        // A callback that blocks on the same client: it must run off the event loop, or this hangs.
        AtomicReference<String> callbackThread = new AtomicReference<>();
        TxStart writer = starts.get(0).join();
        TxStart after = c.committedAsync(writer.tid()).thenApply(ignored -> {
            callbackThread.set(Thread.currentThread().getName());
            return c.start(true);
        }).get(10, TimeUnit.SECONDS);
        assertTrue(after.snapshot().isVisible(writer.tid()));
        assertFalse(callbackThread.get().startsWith("tell-cm-client"), callbackThread.get());
        TxStart chained = c.startAsync(false).thenCompose(s -> c.committedAsync(s.tid()).thenApply(v -> s))
                .thenApply(s -> {
                    c.committed(c.start(false).tid());
                    return s;
                }).get(10, TimeUnit.SECONDS);
        assertTrue(c.start(true).snapshot().isVisible(chained.tid()));
        for (CompletableFuture<TxStart> s : starts) {
            c.aborted(s.join().tid());
        }
    }

    // ---- raw sockets ----

    private Socket raw() throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        s.setSoTimeout(10_000);
        return s;
    }

    private void assertWellBehavedClientWorks(CommitManagerClient good) {
        TxStart s = good.start(false);
        good.committed(s.tid());
        assertTrue(good.start(true).snapshot().isVisible(s.tid()));
    }

    @Test
    void rawStartAndPipelinedRequestsFollowTheDocumentedLayout() throws Exception {
        try (Socket s = raw()) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            ByteBuffer three = ByteBuffer.allocate(3 * 14);
            three.put(frame(CmProtocol.START, 11, new byte[] {0}));
            three.put(frame(CmProtocol.START, 12, new byte[] {1}));
            three.put(frame(CmProtocol.START, 13, new byte[] {0}));
            out.write(three.array()); // one write, three requests
            out.flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            Set<Long> answered = ConcurrentHashMap.newKeySet();
            List<Long> tids = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int length = in.readInt();
                assertEquals(CmProtocol.STARTED, in.readByte());
                long id = in.readLong();
                answered.add(id);
                long tid = in.readLong();
                long lav = in.readLong();
                byte[] snapshot = new byte[length - 9 - 16];
                in.readFully(snapshot);
                SnapshotDescriptor d = SnapshotDescriptor.fromBytes(snapshot);
                assertTrue(lav <= d.base());
                tids.add(tid);
                assertEquals(id == 12, tid < 0);
            }
            assertEquals(Set.of(11L, 12L, 13L), answered);
            for (long tid : tids) {
                out.write(frame(CmProtocol.COMMITTED, 100 + tid, ByteBuffer.allocate(16).putLong(tid).putLong(0).array()));
            }
            out.write(frame(CmProtocol.ABORTED, 99, ByteBuffer.allocate(8).putLong(1_000_000).array()));
            out.flush();
            int okCount = 0;
            String error = null;
            for (int i = 0; i < 4; i++) {
                int length = in.readInt();
                byte type = in.readByte();
                long id = in.readLong();
                byte[] body = new byte[length - 9];
                in.readFully(body);
                if (type == CmProtocol.OK) {
                    okCount++;
                } else {
                    assertEquals(CmProtocol.ERROR, type);
                    assertEquals(99, id);
                    ByteBuffer b = ByteBuffer.wrap(body);
                    byte[] code = new byte[b.getShort()];
                    b.get(code);
                    error = new String(code, StandardCharsets.UTF_8);
                }
            }
            assertEquals(3, okCount);
            assertEquals("TX_STATE", error);
        }
    }

    @Test
    void badPeersLoseTheirConnectionOnly() throws Exception {
        CommitManagerClient good = client();
        assertWellBehavedClientWorks(good);

        // Garbage: "GET " read as a length is far above the limit.
        try (Socket s = raw()) {
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertClosedByServer(s);
        }
        assertWellBehavedClientWorks(good);

        // Oversize length, announced without the bytes: refused at once.
        try (Socket s = raw()) {
            s.getOutputStream().write(ByteBuffer.allocate(4).putInt(1 << 30).array());
            assertClosedByServer(s);
        }
        assertWellBehavedClientWorks(good);

        // Negative length.
        try (Socket s = raw()) {
            s.getOutputStream().write(ByteBuffer.allocate(4).putInt(-5).array());
            assertClosedByServer(s);
        }
        assertWellBehavedClientWorks(good);

        // Unknown type: an ERROR naming the problem, then the server hangs up.
        try (Socket s = raw()) {
            s.getOutputStream().write(frame(0x7f, 42, new byte[0]));
            DataInputStream in = new DataInputStream(s.getInputStream());
            int length = in.readInt();
            assertEquals(CmProtocol.ERROR, in.readByte());
            assertEquals(42, in.readLong());
            byte[] body = new byte[length - 9];
            in.readFully(body);
            assertTrue(new String(body, StandardCharsets.UTF_8).contains("PROTOCOL_ERROR"));
            assertClosedByServer(s);
        }
        assertWellBehavedClientWorks(good);

        // Too short to hold a header, and a START with a two-byte body.
        for (byte[] bad : new byte[][] {
            ByteBuffer.allocate(7).putInt(3).put(new byte[] {1, 2, 3}).array(),
            frame(CmProtocol.START, 1, new byte[] {0, 0})}) {
            try (Socket s = raw()) {
                s.getOutputStream().write(bad);
                assertClosedByServer(s);
            }
            assertWellBehavedClientWorks(good);
        }

        // Truncated: half a frame, then the peer goes away.
        try (Socket s = raw()) {
            byte[] f = frame(CmProtocol.START, 5, new byte[] {0});
            s.getOutputStream().write(f, 0, 6);
            s.shutdownOutput();
            assertClosedByServer(s);
        }
        assertWellBehavedClientWorks(good);

        // A good request before the bad one on the same connection is still answered.
        try (Socket s = raw()) {
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.write(frame(CmProtocol.START, 1, new byte[] {1}));
            out.write(frame(0x55, 2, new byte[] {1}));
            DataInputStream in = new DataInputStream(s.getInputStream());
            boolean sawStarted = false;
            try {
                while (true) {
                    int length = in.readInt();
                    byte type = in.readByte();
                    in.skipNBytes(length - 1);
                    sawStarted |= type == CmProtocol.STARTED;
                }
            } catch (EOFException closed) {
                // expected
            }
            assertTrue(sawStarted);
        }
        assertWellBehavedClientWorks(good);
    }
}
