package io.tell.cm;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.tell.cm.internal.CmClientAuthHandler;
import io.tell.cm.internal.CmClientConnection;
import io.tell.cm.internal.CmClientConnection.Call;
import io.tell.cm.internal.CmFrameDecoder;
import io.tell.cm.internal.CmProtocol;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.CommitManager;
import io.tell.txn.CommitManager.Outcome;
import io.tell.txn.TxStart;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link CommitManager} reached over TCP ({@link CommitManagerServer}). Knows one or more
 * server addresses and talks to one at a time over a single connection on which requests
 * are pipelined. When that server stops answering (connection lost, or a request timed out)
 * the client moves on to the next address; a new connection is made on the next call, so it
 * comes back by itself once a server is reachable again.
 *
 * <p>Failure behaviour: a call that cannot reach any server, or gets no answer within
 * {@link Options#requestTimeout()}, fails with a retriable {@link ErrorCode#CM_UNAVAILABLE}.
 * {@code START} is not resent (a lost answer may have started a transaction; if that answer
 * arrives late the client ends the orphan by reporting it aborted), but for a direct call whose
 * idle connection its server had closed ({@link DirectCalls}). {@code COMMITTED} and
 * {@code ABORTED} are idempotent, so they are resent, across reconnects and fail-over, until
 * {@link Options#reportDeadline()}.
 *
 * <p>Threads: I/O runs on one Netty event loop owned by the client, timeouts and
 * resends on one timer thread. Futures returned by the
 * async methods are completed on {@link Options#callbackExecutor()} (by default a cached pool
 * of daemon threads), never on the event loop, so a callback may even block on this client.
 * The blocking methods refuse to run on the event loop, where waiting would deadlock. Without
 * TLS they call on the caller's thread over a connection it borrows ({@link DirectCalls}), and
 * fall back to the event loop when none can be had.
 */
public final class CommitManagerClient implements CommitManager {
    private static final Logger LOG = LoggerFactory.getLogger(CommitManagerClient.class);

    /**
     * Timeouts, where user futures complete ({@code callbackExecutor} null means a pool owned by
     * the client), the cluster secret to prove to the servers ({@code secret} null means
     * none: only servers without one will serve this client) and TLS ({@code tls} null means
     * plain TCP: only servers without TLS will serve this client). {@code connectTimeout} bounds
     * the TLS and secret handshakes too.
     */
    public record Options(Duration requestTimeout, Duration connectTimeout, Duration reportDeadline, Executor callbackExecutor,
                          ClusterSecret secret, CmTls tls) {
        public Options {
            positive(requestTimeout, "requestTimeout");
            positive(connectTimeout, "connectTimeout");
            positive(reportDeadline, "reportDeadline");
            if (tls != null && tls.isServer()) {
                throw new IllegalArgumentException("a commit manager client needs CmTls.trusting(ca)");
            }
        }

        private static void positive(Duration d, String name) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be positive");
            }
        }

        public static Options defaults() {
            return new Options(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(30), null, null, null);
        }

        public Options withRequestTimeout(Duration d) {
            return new Options(d, connectTimeout, reportDeadline, callbackExecutor, secret, tls);
        }

        public Options withConnectTimeout(Duration d) {
            return new Options(requestTimeout, d, reportDeadline, callbackExecutor, secret, tls);
        }

        public Options withReportDeadline(Duration d) {
            return new Options(requestTimeout, connectTimeout, d, callbackExecutor, secret, tls);
        }

        public Options withCallbackExecutor(Executor e) {
            return new Options(requestTimeout, connectTimeout, reportDeadline, e, secret, tls);
        }

        /** The secret to prove, e.g. {@code ClusterSecret.configured(file)}; null for none. */
        public Options withSecret(ClusterSecret s) {
            return new Options(requestTimeout, connectTimeout, reportDeadline, callbackExecutor, s, tls);
        }

        /**
         * TLS, trusting only servers whose certificate the CA in the PEM file {@code caPem} signed
         * and that names the host dialled; null for plain TCP. An unreadable file fails here
         * (BAD_CONFIGURATION).
         */
        public Options withTlsCa(Path caPem) {
            return new Options(requestTimeout, connectTimeout, reportDeadline, callbackExecutor, secret,
                    caPem == null ? null : CmTls.trusting(caPem));
        }
    }

    private final List<InetSocketAddress> addresses;
    private final String addressText;
    private final Options options;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final Executor callbacks;
    private final ExecutorService ownedCallbacks;
    private final HashedWheelTimer timer;
    private final AtomicLong requestIds = new AtomicLong();
    /** Calls on the caller's thread; null with TLS (the blocking connections speak plain TCP). */
    private final DirectCalls direct;
    private final AtomicReference<CompletableFuture<CmClientConnection>> connection = new AtomicReference<>();
    private final CmClientConnection.Listener listener = new ConnectionListener();
    /** The address tried first by the next connection attempt. */
    private volatile int preferred;
    private volatile boolean closed;

    private CommitManagerClient(List<InetSocketAddress> addresses, String addressText, Options options) {
        this.addresses = addresses;
        this.addressText = addressText;
        this.options = options;
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("tell-cm-client", true));
        this.timer = new HashedWheelTimer(new DefaultThreadFactory("tell-cm-client-timer", true), 10, TimeUnit.MILLISECONDS);
        this.bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, options.connectTimeout().toMillis()));
        if (options.callbackExecutor() == null) {
            ownedCallbacks = Executors.newCachedThreadPool(new DefaultThreadFactory("tell-cm-callback", true));
            callbacks = ownedCallbacks;
        } else {
            ownedCallbacks = null;
            callbacks = options.callbackExecutor();
        }
        this.direct = options.tls() == null ? new DirectCalls(addresses, options, this::retire) : null;
    }

    /**
     * A client for the servers at {@code addresses} ({@code host:port[,host:port…]}, tried in
     * that order). Returns at once; the first connection is made in the background, and a call
     * made before it is up waits for it (within its timeout).
     */
    public static CommitManagerClient connect(String addresses, Options options) {
        CommitManagerClient client = new CommitManagerClient(parse(addresses), addresses, options);
        client.connection();
        return client;
    }

    static List<InetSocketAddress> parse(String addresses) {
        List<InetSocketAddress> out = new ArrayList<>();
        if (addresses != null) {
            for (String part : addresses.split(",")) {
                String a = part.trim();
                int colon = a.lastIndexOf(':');
                int port = -1;
                if (colon > 0) {
                    try {
                        port = Integer.parseInt(a.substring(colon + 1));
                    } catch (NumberFormatException e) {
                        port = -1;
                    }
                }
                if (port < 1 || port > 65535) {
                    throw TellException.of(ErrorCode.BAD_CONFIGURATION,
                            "commit manager address must be host:port with a port in 1..65535: '" + a + "' in '" + addresses + "'");
                }
                String host = a.substring(0, colon);
                if (host.startsWith("[") && host.endsWith("]")) {
                    host = host.substring(1, host.length() - 1);
                }
                out.add(InetSocketAddress.createUnresolved(host, port));
            }
        }
        if (out.isEmpty()) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "no commit manager address given");
        }
        return List.copyOf(out);
    }

    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly) {
        return startAsync(readOnly, null);
    }

    @Override
    public CompletableFuture<TxStart> startAsync(boolean readOnly, String owner) {
        return offload(overEventLoop(id -> new CmProtocol.Start(id, readOnly, owner), CmProtocol.Started.class)
                .thenApply(CmProtocol.Started::start));
    }

    @Override
    public CompletableFuture<Void> committedAsync(long tid, long logVersion) {
        return offload(report(Outcome.COMMITTED, tid, logVersion));
    }

    @Override
    public CompletableFuture<Void> decidedAsync(long tid, long entryVersion) {
        return offload(report(Outcome.DECIDED, tid, entryVersion));
    }

    @Override
    public CompletableFuture<Void> abortedAsync(long tid) {
        return offload(report(Outcome.ABORTED, tid, 0));
    }

    /** Not resent: a lost answer fails the writer's commit (it must not commit unheard). */
    @Override
    public CompletableFuture<Void> validatingAsync(long tid) {
        return offload(overEventLoop(id -> new CmProtocol.Validating(id, tid), CmProtocol.Ok.class).thenApply(ok -> null));
    }

    // The waiting forms call on the caller's thread when they can, else wait on the internal
    // future directly: no user callback can be attached to it, so completing it on the event
    // loop is safe and saves a thread hop.

    @Override
    public TxStart start(boolean readOnly, String owner) {
        CompletableFuture<CmProtocol.Started> started = attempt(id -> new CmProtocol.Start(id, readOnly, owner), CmProtocol.Started.class);
        try {
            return TellException.join(started).start();
        } catch (RuntimeException e) {
            started.thenAccept(late -> endOrphan(late.start().tid())); // interrupted: the answer may still come
            throw e;
        }
    }

    /** As {@link #validatingAsync}, not resent after an answer was lost. */
    @Override
    public void validating(long tid) {
        TellException.join(attempt(id -> new CmProtocol.Validating(id, tid), CmProtocol.Ok.class));
    }

    /** One attempt, made on this thread when it can; not resent ({@link #committedAsync} and the like resend by themselves). */
    @Override
    public CompletableFuture<Void> reportAwaited(Outcome outcome, long tid, long version) {
        return attempt(id -> new CmProtocol.Report(id, outcome, tid, version), CmProtocol.Ok.class).thenApply(ok -> null);
    }

    @Override
    public void committed(long tid) {
        checkNotOnEventLoop();
        TellException.join(report(Outcome.COMMITTED, tid, 0));
    }

    @Override
    public void aborted(long tid) {
        checkNotOnEventLoop();
        TellException.join(report(Outcome.ABORTED, tid, 0));
    }

    private TellException failure(Call call, CmProtocol.Response response) {
        CmClientConnection on = call.sentOn();
        if (response instanceof CmProtocol.Failed f && f.is(ErrorCode.CM_UNAVAILABLE) && on != null) {
            retire(on); // that server cannot serve (closed, or fenced by a newer one)
        }
        return failure(on == null ? addressText : on.peer(), response);
    }

    private static TellException failure(String peer, CmProtocol.Response response) {
        return response instanceof CmProtocol.Failed f ? f.toException(peer)
                : TellException.of(ErrorCode.PROTOCOL_ERROR, "commit manager " + peer + " answered " + response);
    }

    /**
     * One call of a caller that waits for it, answered by an {@code expected} response: made on
     * this thread when a direct connection can be had (the future is then complete), else over the
     * event loop (the future completes there). A START answered after it timed out is ended.
     */
    private <R extends CmProtocol.Response> CompletableFuture<R> attempt(LongFunction<CmProtocol.Request> request, Class<R> expected) {
        checkNotOnEventLoop();
        if (direct != null) {
            int index = preferred;
            CmProtocol.Response response;
            try {
                response = direct.call(request.apply(requestIds.incrementAndGet()), index, this::endOrphan);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
            if (response != null) {
                if (expected.isInstance(response)) {
                    return CompletableFuture.completedFuture(expected.cast(response));
                }
                if (response instanceof CmProtocol.Failed f && f.is(ErrorCode.CM_UNAVAILABLE)) {
                    retire(index);
                }
                InetSocketAddress a = addresses.get(index);
                return CompletableFuture.failedFuture(failure(a.getHostString() + ":" + a.getPort(), response));
            }
        }
        return overEventLoop(request, expected);
    }

    /** One call over the event-loop connection, answered by an {@code expected} response; the future completes on the event loop. */
    private <R extends CmProtocol.Response> CompletableFuture<R> overEventLoop(LongFunction<CmProtocol.Request> request, Class<R> expected) {
        return call(request, options.requestTimeout().toNanos()).thenApply(call -> {
            CmProtocol.Response response = call.future().join();
            if (expected.isInstance(response)) {
                return expected.cast(response);
            }
            throw failure(call, response);
        });
    }

    /** Ends a transaction whose start answer came after its caller gave up. It wrote nothing, so reporting it is always safe. */
    private void endOrphan(long tid) {
        if (closed) {
            return;
        }
        LOG.info("ending transaction {} whose start answer came after the timeout", tid);
        report(Outcome.unused(tid), tid, 0).whenComplete((ok, e) -> {
            if (e != null) {
                LOG.warn("could not end orphaned transaction {}: {}", tid, e.toString());
            }
        });
    }

    /** Sends a report, resending it after connection failures until the report deadline. */
    private CompletableFuture<Void> report(Outcome outcome, long tid, long logVersion) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        attemptReport(outcome, tid, logVersion, System.nanoTime() + options.reportDeadline().toNanos(), 0, done);
        return done;
    }

    private void attemptReport(Outcome outcome, long tid, long logVersion, long deadline, int attempt, CompletableFuture<Void> done) {
        long left = deadline - System.nanoTime();
        call(id -> new CmProtocol.Report(id, outcome, tid, logVersion), Math.min(options.requestTimeout().toNanos(), Math.max(left, 1)))
                .whenComplete((call, failure) -> {
                    TellException retriable;
                    if (failure == null) {
                        CmProtocol.Response response = call.future().join();
                        if (response instanceof CmProtocol.Ok) {
                            done.complete(null);
                            return;
                        }
                        TellException e = failure(call, response);
                        if (e.code() != ErrorCode.CM_UNAVAILABLE) {
                            done.completeExceptionally(e); // e.g. TX_STATE: resending will not help
                            return;
                        }
                        retriable = e;
                    } else {
                        retriable = TellException.unwrap(failure);
                        if (!retriable.retriable()) {
                            done.completeExceptionally(retriable); // e.g. AUTH_FAILED: resending will not help
                            return;
                        }
                    }
                    long backoff = TimeUnit.MILLISECONDS.toNanos(Math.min(500, 25L << Math.min(attempt, 5)));
                    long remaining = deadline - System.nanoTime();
                    if (closed || remaining <= 0) {
                        done.completeExceptionally(TellException.of(ErrorCode.CM_UNAVAILABLE,
                                outcome + " " + tid + " not acknowledged within "
                                        + options.reportDeadline().toMillis() + " ms: " + retriable.getMessage(), retriable));
                        return;
                    }
                    schedule(() -> attemptReport(outcome, tid, logVersion, deadline, attempt + 1, done), Math.min(backoff, remaining), done);
                });
    }

    /**
     * Sends one request and completes with the call once it has an answer; fails with
     * CM_UNAVAILABLE when no server is reachable or none answers within {@code timeoutNanos}.
     */
    private CompletableFuture<Call> call(LongFunction<CmProtocol.Request> request, long timeoutNanos) {
        Call call = new Call(request.apply(requestIds.incrementAndGet()));
        CompletableFuture<Call> result = call.future().thenApply(r -> call);
        if (closed) {
            call.future().completeExceptionally(unavailable("commit manager client closed", null));
            return result;
        }
        Timeout timeout = schedule(() -> timedOut(call, timeoutNanos), timeoutNanos, call.future());
        if (timeout != null) {
            call.future().whenComplete((r, e) -> timeout.cancel());
        }
        connection().whenComplete((conn, failure) -> {
            if (failure != null) {
                call.future().completeExceptionally(TellException.unwrap(failure));
            } else if (!call.future().isDone()) {
                conn.send(call);
            }
        });
        return result;
    }

    private void timedOut(Call call, long timeoutNanos) {
        CmClientConnection on = call.sentOn();
        String problem = closed ? "commit manager client closed"
                : (on == null ? "no connection to " + addressText : "no answer from " + on.peer())
                        + " within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms";
        if (call.future().isDone()) {
            return;
        }
        if (on != null) {
            // Before failing the call: its caller may retry at once and must not get this
            // connection again. An answer arriving meanwhile is unclaimed, so ended as an orphan.
            on.forget(call);
            if (!closed) {
                retire(on);
            }
        }
        call.future().completeExceptionally(unavailable(problem, null));
    }

    /**
     * Runs {@code task} on the timer thread after {@code delayNanos} (a wheel timer: cheap to
     * add and cancel for every request); fails {@code onReject} if the client is closed.
     */
    private Timeout schedule(Runnable task, long delayNanos, CompletableFuture<?> onReject) {
        try {
            return timer.newTimeout(t -> task.run(), delayNanos, TimeUnit.NANOSECONDS);
        } catch (IllegalStateException | RejectedExecutionException e) {
            onReject.completeExceptionally(unavailable("commit manager client closed", e));
            return null;
        }
    }

    /** The current connection, or an attempt to make one (one attempt at a time, shared by all callers). */
    private CompletableFuture<CmClientConnection> connection() {
        while (true) {
            CompletableFuture<CmClientConnection> current = connection.get();
            if (current != null && (!current.isDone() || (!current.isCompletedExceptionally() && current.join().isActive()))) {
                return current;
            }
            CompletableFuture<CmClientConnection> attempt = new CompletableFuture<>();
            if (connection.compareAndSet(current, attempt)) {
                connectFrom(preferred, 0, null, attempt);
                return attempt;
            }
        }
    }

    /** Tries the addresses in turn, starting at {@code index}, until one accepts or all refused. */
    private void connectFrom(int index, int tried, Throwable lastFailure, CompletableFuture<CmClientConnection> attempt) {
        if (closed) {
            attempt.completeExceptionally(unavailable("commit manager client closed", null));
            return;
        }
        if (tried == addresses.size()) {
            attempt.completeExceptionally(lastFailure instanceof TellException te && te.code() == ErrorCode.AUTH_FAILED ? te
                    : unavailable("no commit manager reachable at " + addressText + ": " + lastFailure, lastFailure));
            return;
        }
        InetSocketAddress address = addresses.get(index);
        String peer = address.getHostString() + ":" + address.getPort();
        CmClientConnection handler = new CmClientConnection(listener, index, peer);
        CmClientAuthHandler auth = options.secret() == null ? null : new CmClientAuthHandler(options.secret(), peer);
        AtomicReference<SslHandler> tls = new AtomicReference<>();
        ChannelFuture f;
        try {
            f = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    if (options.tls() != null) {
                        tls.set(options.tls().clientHandler(ch, address.getHostString(), address.getPort()));
                        ch.pipeline().addLast(tls.get());
                    }
                    ch.pipeline().addLast(
                            new FlushConsolidationHandler(FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true),
                            CmFrameDecoder.forClient());
                    if (auth != null) {
                        ch.pipeline().addLast(auth);
                    }
                    ch.pipeline().addLast(handler);
                }
            }).connect(address);
        } catch (RuntimeException e) {
            attempt.completeExceptionally(unavailable("cannot connect: " + e, e));
            return;
        }
        f.addListener(done -> {
            if (!done.isSuccess()) {
                connectFrom((index + 1) % addresses.size(), tried + 1, worse(lastFailure, done.cause()), attempt);
                return;
            }
            if (auth == null && tls.get() == null) {
                connected(index, handler, attempt);
                return;
            }
            long timeoutMillis = options.connectTimeout().toMillis();
            handshakes(peer, tls.get(), auth).orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).whenComplete((ok, failure) -> {
                if (failure == null) {
                    connected(index, handler, attempt);
                    return;
                }
                f.channel().close();
                Throwable why = failure instanceof java.util.concurrent.TimeoutException
                        ? unavailable("commit manager " + peer + (tls.get() != null && !tls.get().handshakeFuture().isDone()
                                ? " did not finish the TLS handshake within " + timeoutMillis + " ms"
                                : " sent no CHALLENGE within " + timeoutMillis + " ms (a server without a cluster secret never does,"
                                        + " nor one that requires TLS when this client has no TLS CA)"), failure)
                        : TellException.unwrap(failure);
                LOG.warn("cannot authenticate with commit manager {}: {}", peer, why.getMessage());
                connectFrom((index + 1) % addresses.size(), tried + 1, worse(lastFailure, why), attempt);
            });
        });
    }

    /** The TLS handshake (if {@code tls}), then the secret handshake (if {@code auth}); fails as {@link CmTls#handshakeFailure}. */
    private static CompletableFuture<Void> handshakes(String peer, SslHandler tls, CmClientAuthHandler auth) {
        CompletableFuture<Void> encrypted = new CompletableFuture<>();
        if (tls == null) {
            encrypted.complete(null);
        } else {
            tls.handshakeFuture().addListener(h -> {
                if (h.isSuccess()) {
                    encrypted.complete(null);
                } else {
                    encrypted.completeExceptionally(CmTls.handshakeFailure(peer, h.cause()));
                }
            });
        }
        return auth == null ? encrypted : encrypted.thenCompose(v -> auth.authenticated());
    }

    private void connected(int index, CmClientConnection handler, CompletableFuture<CmClientConnection> attempt) {
        preferred = index;
        LOG.debug("connected to commit manager {}", handler.peer());
        attempt.complete(handler);
    }

    /** The failure to report when all addresses failed: a refused authentication outweighs an unreachable server. */
    private static Throwable worse(Throwable earlier, Throwable later) {
        return earlier instanceof TellException te && te.code() == ErrorCode.AUTH_FAILED ? earlier : later;
    }

    /**
     * Stops sending new calls to the server at {@code addressIndex} (it stopped answering): the
     * current connection, when it goes there, is retired; without one the next calls start with
     * the next address.
     */
    private void retire(int addressIndex) {
        CompletableFuture<CmClientConnection> current = connection.get();
        if (current != null && current.isDone() && !current.isCompletedExceptionally()) {
            if (current.join().addressIndex() == addressIndex) {
                retire(current.join());
            }
        } else if (preferred == addressIndex) {
            preferred = (addressIndex + 1) % addresses.size(); // no connection to move: the next calls go on
        }
    }

    /**
     * Stops sending new calls over {@code conn} (its server stopped answering) and makes the
     * next call connect, starting with the next address; {@code conn} lingers for one request
     * timeout to catch late answers.
     */
    private void retire(CmClientConnection conn) {
        CompletableFuture<CmClientConnection> current = connection.get();
        if (current != null && current.isDone() && !current.isCompletedExceptionally() && current.join() == conn
                && connection.compareAndSet(current, null)) {
            preferred = (conn.addressIndex() + 1) % addresses.size();
            InetSocketAddress next = addresses.get(preferred);
            LOG.warn("commit manager {} stopped answering; next calls go to {}:{}", conn.peer(), next.getHostString(), next.getPort());
            conn.closeLater(options.requestTimeout().toMillis());
        }
    }

    private final class ConnectionListener implements CmClientConnection.Listener {
        @Override
        public void closed(CmClientConnection conn) {
            CompletableFuture<CmClientConnection> current = connection.get();
            if (current != null && current.isDone() && !current.isCompletedExceptionally() && current.join() == conn
                    && connection.compareAndSet(current, null)) {
                preferred = (conn.addressIndex() + 1) % addresses.size();
                if (!closed) {
                    LOG.warn("lost connection to commit manager {}", conn.peer());
                }
            }
        }

        @Override
        public void unclaimed(CmClientConnection conn, CmProtocol.Response response) {
            // A START answered after its caller gave up: end the orphan so it does not hold
            // the base (or lav) back.
            if (response instanceof CmProtocol.Started s) {
                endOrphan(s.start().tid());
            }
        }
    }

    /** Completes the returned future on the callback executor, so user code never runs on the event loop. */
    private <T> CompletableFuture<T> offload(CompletableFuture<T> internal) {
        CompletableFuture<T> user = new CompletableFuture<>();
        internal.whenComplete((value, failure) -> {
            Runnable complete = () -> {
                if (failure == null) {
                    user.complete(value);
                } else {
                    user.completeExceptionally(TellException.unwrap(failure));
                }
            };
            try {
                callbacks.execute(complete);
            } catch (RejectedExecutionException e) {
                complete.run(); // closing: there is no other thread left to use
            }
        });
        return user;
    }

    private void checkNotOnEventLoop() {
        for (EventExecutor e : group) {
            if (e.inEventLoop()) {
                throw new IllegalStateException("blocking commit manager call on the client's event loop would deadlock");
            }
        }
    }

    private static TellException unavailable(String message, Throwable cause) {
        return TellException.of(ErrorCode.CM_UNAVAILABLE, message, cause);
    }

    /** Connections open for calls on callers' threads (tests). */
    int directConnections() {
        return direct == null ? 0 : direct.openConnections();
    }

    /** The most of those ever open or being opened at once (tests). */
    int peakDirectConnections() {
        return direct == null ? 0 : direct.peakConnections();
    }

    /** The addresses as given, for logs. */
    public String addresses() {
        return addressText;
    }

    /** Closes the connection; calls in flight fail with CM_UNAVAILABLE. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (direct != null) {
            direct.close();
        }
        CompletableFuture<CmClientConnection> current = connection.getAndSet(null);
        if (current != null && current.isDone() && !current.isCompletedExceptionally()) {
            current.join().close();
        }
        io.netty.util.concurrent.Future<?> shutdown = group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        boolean onLoop = false;
        for (EventExecutor e : group) {
            onLoop |= e.inEventLoop();
        }
        if (!onLoop) {
            shutdown.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        try {
            // Calls still waiting (e.g. for a connection) would otherwise never hear back.
            for (Timeout t : timer.stop()) {
                t.task().run(t);
            }
        } catch (Exception e) {
            LOG.warn("stopping the client timer: {}", e.toString());
        }
        if (ownedCallbacks != null) {
            ownedCallbacks.shutdown();
        }
    }
}
