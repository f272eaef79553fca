package io.tell.cm;

import io.tell.cm.internal.CmBlockingConnection;
import io.tell.cm.internal.CmProtocol;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls a caller waits for anyway (a start, a SERIALIZABLE writer's {@code VALIDATING}, a
 * commit's report), made on the caller's thread over a plain-TCP connection it borrows for the
 * call ({@link CmBlockingConnection}): no hand-off to the event loop and back. There are as many
 * connections as threads calling at once, up to {@link #MAX_CONNECTIONS}; they go to the server
 * the client's event-loop connection uses, and one to another server is dropped when it is
 * borrowed. A connection that failed or timed out is never reused.
 *
 * <p>{@link #call} returns null when it got no answer and the event-loop path, which knows how
 * to fail over, should make the call instead: no connection could be had (at the limit, or the
 * server could not be reached, after which direct calls pause for {@link #PAUSE_NANOS}), or an
 * idle connection turned out closed by its server (restarted meanwhile). Sending again then is
 * safe: reports and {@code VALIDATING} are idempotent, and a server that closed a connection ends
 * the transaction of any START answer it could not deliver on it. On a fresh connection, a lost
 * connection fails the call with CM_UNAVAILABLE, and so does a time-out, after which the server
 * counts as no longer answering ({@code stoppedAnswering}); a START that timed out is read on in
 * the background for its answer, and a late one is ended by {@code orphan}.
 */
final class DirectCalls implements AutoCloseable {
    static final int MAX_CONNECTIONS = 64;
    static final long PAUSE_NANOS = 1_000_000_000L;
    private static final Logger LOG = LoggerFactory.getLogger(DirectCalls.class);

    private final List<InetSocketAddress> addresses;
    private final CommitManagerClient.Options options;
    private final IntConsumer stoppedAnswering;
    private final ConcurrentLinkedQueue<CmBlockingConnection> idle = new ConcurrentLinkedQueue<>();
    private final Set<CmBlockingConnection> open = ConcurrentHashMap.newKeySet();
    /** Connections open or being opened: taken before a connection is made, so the limit holds under a rush. */
    private final AtomicInteger taken = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private final ExecutorService drains = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "tell-cm-drain");
        t.setDaemon(true);
        return t;
    });
    private volatile long pausedUntil = System.nanoTime();
    private volatile boolean closed;

    /** {@code stoppedAnswering} learns the index of an address whose server let a call time out. */
    DirectCalls(List<InetSocketAddress> addresses, CommitManagerClient.Options options, IntConsumer stoppedAnswering) {
        this.addresses = addresses;
        this.options = options;
        this.stoppedAnswering = stoppedAnswering;
    }

    /**
     * Sends {@code request} to the server at {@code addressIndex} and returns its answer; null when
     * the event-loop path should make the call instead (see above). {@code orphan} ends the
     * transaction of a START answered after its time-out.
     */
    CmProtocol.Response call(CmProtocol.Request request, int addressIndex, LongConsumer orphan) {
        CmBlockingConnection c = idle(addressIndex);
        boolean reused = c != null;
        if (c == null && (c = open(addressIndex)) == null) {
            return null;
        }
        int timeout = (int) Math.min(Integer.MAX_VALUE, options.requestTimeout().toMillis());
        try {
            CmProtocol.Response response = c.call(request, timeout);
            giveBack(c);
            return response;
        } catch (SocketTimeoutException e) {
            pause();
            if (request instanceof CmProtocol.Start) {
                drain(c, request.requestId(), orphan);
            } else {
                discard(c);
            }
            stoppedAnswering.accept(addressIndex);
            throw TellException.of(ErrorCode.CM_UNAVAILABLE, "no answer from commit manager " + c.peer() + " within " + timeout + " ms", e);
        } catch (IOException e) {
            pause(); // the event-loop path finds out what happened to the server, and fails over
            discard(c);
            if (reused) {
                return null; // most likely closed while idle (a restarted server)
            }
            throw TellException.of(ErrorCode.CM_UNAVAILABLE, "connection to commit manager " + c.peer() + " lost: " + e, e);
        } catch (RuntimeException | Error e) {
            discard(c); // refused (AUTH_FAILED), out of step (PROTOCOL_ERROR), or worse
            throw e;
        }
    }

    /** An idle connection to the server at {@code addressIndex}, or null. */
    private CmBlockingConnection idle(int addressIndex) {
        for (CmBlockingConnection c; (c = idle.poll()) != null; ) {
            if (c.addressIndex() == addressIndex) {
                return c;
            }
            discard(c); // the client moved on to another server
        }
        return null;
    }

    /** A new connection to the server at {@code addressIndex}, or null (at the limit, pausing, or the server unreachable). */
    private CmBlockingConnection open(int addressIndex) {
        if (closed || System.nanoTime() - pausedUntil < 0) {
            return null;
        }
        int now = taken.incrementAndGet();
        if (now > MAX_CONNECTIONS) {
            taken.decrementAndGet();
            return null;
        }
        peak.accumulateAndGet(now, Math::max);
        InetSocketAddress a = addresses.get(addressIndex);
        try {
            CmBlockingConnection c = CmBlockingConnection.open(a.getHostString(), a.getPort(), addressIndex,
                    (int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis()), options.secret());
            open.add(c);
            if (closed) {
                discard(c);
                return null;
            }
            return c;
        } catch (IOException | RuntimeException e) {
            taken.decrementAndGet();
            // The event-loop path tries again, fails over, or says what is wrong.
            LOG.debug("no direct connection to commit manager {}:{}: {}", a.getHostString(), a.getPort(), e.toString());
            pause();
            return null;
        }
    }

    /** Sends the next calls over the event loop for a while, and drops the idle connections (their server may be gone). */
    private void pause() {
        pausedUntil = System.nanoTime() + PAUSE_NANOS;
        for (CmBlockingConnection c; (c = idle.poll()) != null; ) {
            discard(c);
        }
    }

    private void giveBack(CmBlockingConnection c) {
        if (closed || System.nanoTime() - pausedUntil < 0) {
            discard(c);
        } else {
            idle.add(c);
        }
    }

    private void discard(CmBlockingConnection c) {
        if (open.remove(c)) {
            taken.decrementAndGet();
        }
        c.close();
    }

    /** Reads on for a START's late answer (until the report deadline), ends its transaction, then closes. */
    private void drain(CmBlockingConnection c, long requestId, LongConsumer orphan) {
        long deadline = System.nanoTime() + options.reportDeadline().toNanos();
        Runnable read = () -> {
            try {
                if (c.readUntil(requestId, deadline) instanceof CmProtocol.Started s) {
                    orphan.accept(s.start().tid());
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("connection to {} closed while waiting for a late start answer: {}", c.peer(), e.toString());
            } finally {
                discard(c);
            }
        };
        try {
            drains.execute(read);
        } catch (RejectedExecutionException closing) {
            discard(c);
        }
    }

    /** Number of connections open now (tests). */
    int openConnections() {
        return open.size();
    }

    /** The most connections ever open or being opened at once (tests). */
    int peakConnections() {
        return peak.get();
    }

    /** Closes every connection, also those in use (their calls fail with CM_UNAVAILABLE). */
    @Override
    public void close() {
        closed = true;
        idle.clear();
        for (CmBlockingConnection c : open) {
            discard(c);
        }
        drains.shutdownNow();
    }
}
