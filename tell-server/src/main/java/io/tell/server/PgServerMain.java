package io.tell.server;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.metrics.ServerProcess;
import io.tell.metrics.ServerProcess.UsageException;
import io.tell.server.pool.PoolMember;
import io.tell.server.pool.PoolMembership;
import io.tell.sql.ProcessingNode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code tell pn}: a processing node serving PostgreSQL clients until killed.
 *
 * <pre>
 * tell pn --port P [--host 127.0.0.1] [--url JDBC_TELL_URL | --store URL [--cm HOST:PORT,…]]
 *         [--auth trust|scram] [--users-file PATH] [--tls-cert PATH --tls-key PATH] [--pool NAME] [--advertise HOST]
 * </pre>
 *
 * The server joins its pool ({@link PoolMembership}: a record in the store with a heartbeat and
 * its load) once it listens, and leaves it when stopped.
 *
 * Exit codes: 2 for bad arguments (trust on a non-loopback address among them), 1 when the
 * node or the port cannot be opened.
 */
public final class PgServerMain {
    static final String USAGE = """
            usage: tell pn --port P [--host HOST] [--url JDBC_TELL_URL | --store URL [--cm LIST]] [--auth trust|scram]
                           [--users-file PATH] [--tls-cert PATH --tls-key PATH] [--pool NAME] [--advertise HOST]
                           [--metrics-port P] [--read-only] [--parallelism N]
              --port P            TCP port to listen on (0 picks a free one)
              --host HOST         address to bind (default 127.0.0.1)
              --url URL           the node's Tell URL (default jdbc:tell:mem:, a private in-memory database)
              --store URL         instead of --url: the record store, e.g. redis://127.0.0.1:6379 (with --cm) or mem:
              --cm LIST           commit managers host:port,… for a Redis store
              --auth MODE         scram (default with --users-file) or trust (any user, no password; loopback only)
              --users-file PATH   users for scram: lines name:password or name:SCRAM-SHA-256$… (PostgreSQL's verifier)
              --tls-cert PATH     serve only TLS clients (sslmode=require or stricter) with this PEM certificate chain
              --tls-key PATH      the certificate's PEM key, unencrypted PKCS#8 (BEGIN PRIVATE KEY); both or neither
              --pool NAME         the pool this server joins (default: default); see tell cluster status / tell cluster url
              --advertise HOST    the host name clients reach this server by, as registered in its pool (default: --host)
              --metrics-port P    serve Prometheus metrics at http://HOST:P/metrics (0 picks a free port; default: none)
              --read-only         every transaction read-only (an OLAP pool's server): READ WRITE gets 25006
              --parallelism N     threads one query's scans of large tables may use (default: the machine's cores
                                  with --read-only, else 1; the URL's parallelism= if it has one)""";

    /** Parsed command line. */
    record Config(String host, int port, String url, boolean trust, String usersFile, String tlsCert, String tlsKey, String pool,
                  int metricsPort, String advertise, boolean readOnly) {
        /** The pool a server joins when not told. */
        static final String DEFAULT_POOL = "default";

        /** The server's configuration; BAD_CONFIGURATION for files it cannot use or trust off loopback. */
        PgServerConfig serverConfig() {
            PgServerConfig c = trust ? PgServerConfig.trust(host, port) : PgServerConfig.scram(host, port, PgUsers.load(Path.of(usersFile)));
            c = c.withReadOnly(readOnly);
            return tlsCert == null ? c : c.withTls(PgTls.server(Path.of(tlsCert), Path.of(tlsKey)));
        }
    }

    private PgServerMain() {
    }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0) {
            System.exit(code);
        }
    }

    /** Starts the server and waits until the process is told to stop; returns the exit code on failure. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        Config config;
        PgServerConfig serverConfig;
        try {
            config = parse(args);
            if (config == null) {
                out.println(USAGE);
                return 0;
            }
            serverConfig = config.serverConfig();
        } catch (UsageException | TellException e) {
            err.println("tell pn: " + e.getMessage());
            err.println(USAGE);
            return 2;
        }
        ProcessingNode node;
        PgServer server;
        try {
            node = connect(config.url(), err);
        } catch (TellException e) {
            err.println("tell pn: " + e.getMessage());
            return e.code() == ErrorCode.BAD_CONFIGURATION ? 2 : 1;
        }
        try {
            server = PgServer.start(node, serverConfig);
        } catch (TellException e) {
            node.close();
            err.println("tell pn: " + e.getMessage());
            return 1;
        }
        out.println("processing node listening on " + config.host() + ":" + server.port() + " (PostgreSQL protocol, "
                + (config.trust() ? "trust" : "scram-sha-256") + " authentication" + (config.tlsCert() == null ? "" : ", TLS only")
                + ", pool " + config.pool() + (config.readOnly() ? ", read-only" : "") + ")");
        return ServerProcess.serveUntilStopped("pn", config.host(), config.metricsPort(), () -> {
            server.close();
            node.close();
        }, metricsPort -> {
            PoolMembership membership;
            try {
                membership = PoolMembership.join(node.store(), config.pool(), config.advertise(), server.port(),
                        metricsPort == ServerProcess.NO_METRICS ? PoolMember.NO_METRICS : metricsPort,
                        node.metrics()::openSessions, node.metrics()::statementsRun, PoolMembership.DEFAULT_PERIOD);
            } catch (RuntimeException e) {
                throw new IllegalStateException("cannot join pool " + config.pool() + ": " + e.getMessage(), e);
            }
            out.println("joined pool " + config.pool() + " as " + config.advertise() + ":" + server.port());
            return membership; // closed first: no client is sent here any more
        }, out, err);
    }

    /** How long a starting server waits for a store or commit managers that are not reachable yet. */
    static final Duration CONNECT_PATIENCE = Duration.ofSeconds(30);

    /**
     * The node for {@code url}, trying again for {@link #CONNECT_PATIENCE} while the failure is
     * retriable (a store or commit manager still starting, a cluster settling its slots), so
     * that servers started together with their store come up.
     */
    private static ProcessingNode connect(String url, PrintStream err) {
        long deadline = System.nanoTime() + CONNECT_PATIENCE.toNanos();
        for (long wait = 100; ; wait = Math.min(2_000, wait * 2)) {
            try {
                return ProcessingNode.connect(url);
            } catch (TellException e) {
                if (!e.retriable() || System.nanoTime() + wait * 1_000_000 > deadline) {
                    throw e;
                }
                err.println("tell pn: waiting for the store and commit managers: " + e.getMessage());
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** Parses the command line; null means help was asked for. */
    static Config parse(String[] args) throws UsageException {
        String host = "127.0.0.1";
        Integer port = null;
        String url = null;
        String store = null;
        String cm = null;
        String auth = null;
        String usersFile = null;
        String tlsCert = null;
        String tlsKey = null;
        String pool = Config.DEFAULT_POOL;
        boolean readOnly = false;
        Integer parallelism = null;
        String advertise = null;
        int metricsPort = ServerProcess.NO_METRICS;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("-h") || flag.equals("--help")) {
                return null;
            }
            if (flag.equals("--read-only")) {
                readOnly = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new UsageException(flag.startsWith("--") ? flag + " needs a value" : "unexpected argument '" + flag + "'");
            }
            String value = args[++i];
            switch (flag) {
                case "--host" -> host = value;
                case "--port" -> port = (int) ServerProcess.number(flag, value, 0, 65_535);
                case "--url" -> url = value;
                case "--store" -> store = value;
                case "--cm" -> cm = value;
                case "--auth" -> auth = value;
                case "--users-file" -> usersFile = value;
                case "--tls-cert" -> tlsCert = value;
                case "--tls-key" -> tlsKey = value;
                case "--pool" -> pool = value;
                case "--advertise" -> advertise = value;
                case "--metrics-port" -> metricsPort = (int) ServerProcess.number(flag, value, 0, 65_535);
                case "--parallelism" -> parallelism = (int) ServerProcess.number(flag, value, 1, io.tell.sql.TellUrl.MAX_PARALLELISM);
                default -> throw new UsageException("unknown option '" + flag + "'");
            }
        }
        if (port == null) {
            throw new UsageException("--port is required");
        }
        if (url != null && (store != null || cm != null)) {
            throw new UsageException("give either --url or --store/--cm");
        }
        if (cm != null && store == null) {
            throw new UsageException("--cm goes with --store");
        }
        if (url == null) {
            url = store == null ? "jdbc:tell:mem:" : "jdbc:tell:" + store + (cm == null ? "" : "?cm=" + cm);
        }
        url = withParallelism(url, parallelism != null ? parallelism : readOnly ? Runtime.getRuntime().availableProcessors() : 1);
        boolean trust = switch (auth == null ? (usersFile == null ? "trust" : "scram") : auth) {
            case "trust" -> true;
            case "scram", "scram-sha-256" -> false;
            default -> throw new UsageException("--auth is trust or scram, got '" + auth + "'");
        };
        if (trust && usersFile != null) {
            throw new UsageException("--users-file is for --auth scram");
        }
        if (!trust && usersFile == null) {
            throw new UsageException("--auth scram needs --users-file");
        }
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new UsageException("--tls-cert and --tls-key go together");
        }
        if (pool.isEmpty() || pool.length() > 200) {
            throw new UsageException("--pool wants a name of 1 to 200 characters");
        }
        if (advertise == null) {
            advertise = host.equals("0.0.0.0") || host.equals("::") ? hostName() : host;
        }
        return new Config(host, port, url, trust, usersFile, tlsCert, tlsKey, pool, metricsPort, advertise, readOnly);
    }

    /**
     * {@code url} with {@code parallelism=N} added, unless it is 1 or the URL names one itself
     * (an OLAP server's analytical queries use every core: docs/server.md, "Pools").
     */
    static String withParallelism(String url, int parallelism) {
        if (parallelism < 2 || url.contains("?parallelism=") || url.contains("&parallelism=")) {
            return url;
        }
        return url + (url.contains("?") ? "&" : "?") + "parallelism=" + parallelism;
    }

    /** This machine's name, for a server bound to every address and given no --advertise. */
    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }
}
