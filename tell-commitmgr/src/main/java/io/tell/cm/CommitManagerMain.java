package io.tell.cm;

import io.tell.error.ErrorCode;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import io.tell.error.TellException;
import io.tell.metrics.ServerProcess;
import io.tell.metrics.ServerProcess.UsageException;
import io.tell.metrics.TellMeters;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.StoreUrl;
import io.tell.txn.CommitManager;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code tell commitmgr}: runs a commit manager server over a record store until killed.
 *
 * <pre>
 * tell commitmgr --port P --store URL [--host 127.0.0.1] [--tid-range N] [--in-doubt-grace-ms M] [--secret-file PATH]
 *                [--tls-cert PATH --tls-key PATH]
 * </pre>
 *
 * With a cluster secret ({@code --secret-file}, else the environment variable
 * {@value ClusterSecret#ENV}) it serves only clients that prove it; without one it serves
 * anyone who reaches the port, which is for local development only, and says so on stderr when
 * it listens on an address other than loopback. With {@code --tls-cert} and {@code --tls-key}
 * ({@link CmTls#server}) it speaks only TLS, the secret handshake inside it.
 *
 * The commit manager is durable (journaled in the store) unless the store is {@code mem:…},
 * which dies with this process anyway. Exit codes: 2 for bad arguments, 1 when the store or
 * the port cannot be opened.
 */
public final class CommitManagerMain {
    static final String USAGE = """
            usage: tell commitmgr --port P --store URL [--host HOST] [--tid-range N] [--in-doubt-grace-ms M] [--secret-file PATH]
                                  [--tls-cert PATH --tls-key PATH] [--metrics-port P]
              --port P               TCP port to listen on (0 picks a free one)
              --store URL            record store, e.g. redis://127.0.0.1:6379 or mem:
              --host HOST            address to bind (default 127.0.0.1)
              --tid-range N          tids reserved per store counter increment (default 100)
              --in-doubt-grace-ms M  silence after which another manager is taken for dead and its open tids settled (default 3000)
              --secret-file PATH     the cluster secret clients must prove (default: env TELL_CLUSTER_SECRET; none = anyone, for local development only)
              --tls-cert PATH        speak only TLS with this PEM certificate chain (clients trust its CA: cmTlsCa=PATH)
              --tls-key PATH         the certificate's PEM key, unencrypted PKCS#8 (BEGIN PRIVATE KEY); both or neither
              --metrics-port P       serve Prometheus metrics at http://HOST:P/metrics (0 picks a free port; default: none)""";

    /** Parsed command line. */
    record Config(String host, int port, String storeUrl, int tidRange, long inDoubtGraceMillis, String secretFile,
                  String tlsCert, String tlsKey, int metricsPort) {
        Config(String host, int port, String storeUrl, int tidRange, long inDoubtGraceMillis, String secretFile) {
            this(host, port, storeUrl, tidRange, inDoubtGraceMillis, secretFile, null, null, ServerProcess.NO_METRICS);
        }

        /** The server's TLS, or null without {@code --tls-cert}; BAD_CONFIGURATION for files it cannot use. */
        CmTls tls() {
            return tlsCert == null ? null : CmTls.server(Path.of(tlsCert), Path.of(tlsKey));
        }

        boolean durable() {
            return !StoreUrl.parse(storeUrl).scheme().equals("mem");
        }

        LocalCommitManager.Options options() {
            return new LocalCommitManager.Options(tidRange, durable(), Duration.ofMillis(inDoubtGraceMillis));
        }
    }

    /** A running commit manager: store, manager, server and its meters, closed in reverse order. */
    record Running(RecordStore store, CommitManager commitManager, CommitManagerServer server, TellMeters meters)
            implements AutoCloseable {
        @Override
        public void close() {
            meters.close();
            server.close();
            commitManager.close();
            store.close();
        }
    }

    private CommitManagerMain() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Starts the commit manager and waits until the process is told to stop; returns the exit code on failure. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Config config;
        try {
            config = parse(args);
        } catch (UsageException e) {
            err.println("tell commitmgr: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (config == null) {
            out.println(USAGE);
            return 0;
        }
        ClusterSecret secret;
        CmTls tls;
        try {
            secret = ClusterSecret.configured(config.secretFile());
            tls = config.tls();
        } catch (TellException e) {
            err.println("tell commitmgr: " + e.getMessage());
            return 2;
        }
        if (secret == null && !ServerProcess.isLoopback(config.host())) {
            err.println("tell commitmgr: warning: no cluster secret (--secret-file, or " + ClusterSecret.ENV + "): anyone who reaches "
                    + config.host() + ":" + config.port() + " can start transactions and end any of them."
                    + " Run without a secret only on a loopback address, for local development.");
        }
        RecordStore store;
        try {
            store = new CountingRecordStore(RecordStores.open(config.storeUrl()));
        } catch (TellException e) {
            err.println("tell commitmgr: " + e.getMessage());
            return e.code() == ErrorCode.BAD_CONFIGURATION ? 2 : 1;
        }
        Running running;
        try {
            running = start(config, store, secret, tls);
        } catch (TellException e) {
            err.println("tell commitmgr: " + e.getMessage());
            return 1;
        }
        out.println("commit manager listening on " + config.host() + ":" + running.server().port() + (tls == null ? "" : " (TLS)") + " (" + StoreUrl.redact(config.storeUrl()) + ")");
        return ServerProcess.serveUntilStopped("commitmgr", config.host(), config.metricsPort(), running, out, err);
    }

    /**
     * Opens the commit manager over {@code store} (closed on failure) and serves it to holders of
     * {@code secret} (null: anyone), over {@code tls} (null: plain TCP).
     */
    static Running start(Config config, RecordStore store, ClusterSecret secret, CmTls tls) {
        CommitManager cm;
        try {
            // A durable member fenced by the cluster (taken for dead during a store outage) rejoins.
            cm = config.durable() ? new RejoiningCommitManager(store, config.options())
                    : LocalCommitManager.open(store, config.options());
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        try {
            CommitManagerServer server = CommitManagerServer.start(cm, config.host(), config.port(), secret, tls);
            TellMeters meters = new TellMeters(Metrics.globalRegistry,
                    Tags.of("node", "commitmgr-" + config.host() + ":" + server.port()))
                    .commitManager("tell.cm.requests", server::served);
            if (store instanceof CountingRecordStore counting) {
                meters.store(counting);
            }
            return new Running(store, cm, server, meters);
        } catch (RuntimeException e) {
            cm.close();
            store.close();
            throw e;
        }
    }

    /** Parses the command line; null means help was asked for. */
    static Config parse(String[] args) throws UsageException {
        String host = "127.0.0.1";
        Integer port = null;
        String store = null;
        int tidRange = 100;
        long grace = 3_000;
        String secretFile = null;
        String tlsCert = null;
        String tlsKey = null;
        int metricsPort = ServerProcess.NO_METRICS;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("-h") || flag.equals("--help")) {
                return null;
            }
            if (i + 1 >= args.length) {
                throw new UsageException(flag.startsWith("--") ? flag + " needs a value" : "unexpected argument '" + flag + "'");
            }
            String value = args[++i];
            switch (flag) {
                case "--host" -> host = value;
                case "--port" -> port = (int) ServerProcess.number(flag, value, 0, 65535);
                case "--store" -> store = value;
                case "--tid-range" -> tidRange = (int) ServerProcess.number(flag, value, 1, 1_000_000);
                case "--in-doubt-grace-ms" -> grace = ServerProcess.number(flag, value, 0, Long.MAX_VALUE);
                case "--secret-file" -> secretFile = value;
                case "--tls-cert" -> tlsCert = value;
                case "--tls-key" -> tlsKey = value;
                case "--metrics-port" -> metricsPort = (int) ServerProcess.number(flag, value, 0, 65535);
                default -> throw new UsageException("unknown option '" + flag + "'");
            }
        }
        if (port == null) {
            throw new UsageException("--port is required");
        }
        if (store == null) {
            throw new UsageException("--store is required");
        }
        if (host.isBlank()) {
            throw new UsageException("--host is empty");
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new UsageException("--tls-cert and --tls-key go together");
        }
        try {
            StoreUrl.parse(store);
        } catch (TellException e) {
            throw new UsageException(e.getMessage());
        }
        return new Config(host, port, store, tidRange, grace, secretFile, tlsCert, tlsKey, metricsPort);
    }
}
