package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.StoreUrl;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed Tell JDBC URL:
 * <ul>
 *   <li>{@code jdbc:tell:mem:} — a private embedded database;</li>
 *   <li>{@code jdbc:tell:mem:NAME} — an embedded database shared by this JVM's connections;</li>
 *   <li>{@code jdbc:tell:redis://host:port[,host:port…]?cm=host:port[,host:port…][&replicas=N&timeoutMs=T…]}
 *       — this JVM is a processing node over a shared Redis store and commit-manager services;
 *       every option but {@code cm}, {@code cmSecretFile}, {@code cmTlsCa}, {@code gc} and {@code leaseMs} belongs to the store. The node
 *       holds a lease ({@link io.tell.txn.NodeLease}) of {@code leaseMs} milliseconds (default
 *       {@value #DEFAULT_LEASE_MS}): if it dies, a commit manager recovers its transactions once
 *       the lease has expired.</li>
 *   <li>{@code jdbc:tell:rediss://…} — the same over TLS; either takes Redis credentials,
 *       {@code redis://[user]:password@host:port} (see the store's documentation).</li>
 * </ul>
 * A node proves the cluster secret to the commit managers when it has one: the file named by
 * {@code cmSecretFile=PATH}, else the environment variable {@code TELL_CLUSTER_SECRET}
 * ({@link io.tell.cm.ClusterSecret#configured}); without either it talks to commit managers
 * that have no secret, which is for local development only. With {@code cmTlsCa=PATH} (a PEM CA)
 * it talks to the commit managers over TLS, trusting only certificates that CA signed for the
 * host in {@code cm=} ({@link io.tell.cm.CmTls}). A password in the URL never
 * shows in messages or {@link #toString()}.
 * Either form takes {@code gc=on} (e.g. {@code jdbc:tell:mem:shop?gc=on}): the node then hosts a
 * background sweeper ({@link io.tell.gc.Sweeper}), active while it holds the cluster-wide lease.
 * Off by default. Either form also takes {@code buffer=tx|shared|synced} (how the node buffers
 * records, {@link io.tell.txn.Buffering}; by default {@code tx} embedded, and over a store
 * {@code synced} where it runs a batch in order and keeps version sets — a new standalone Redis
 * does — else {@code tx}), {@code bufferUnit=N} (records per
 * cache unit of version sets, default {@value #DEFAULT_BUFFER_UNIT}: about a table each) and {@code bufferSize=N}
 * (entries of a shared buffer, default {@value #DEFAULT_BUFFER_SIZE}), and {@code parallelism=N}:
 * how many threads one query's scans of large tables may run on (default 1: none but the
 * caller's; an OLAP pool's server sets the machine's cores, {@code docs/server.md}).
 */
public record TellUrl(String text, String storeUrl, String commitManagers, boolean embedded, boolean shared,
                      boolean gc, int leaseMs, String cmSecretFile, String cmTlsCa, Buffer buffer, int parallelism) {
    public static final String PREFIX = "jdbc:tell:";
    public static final int DEFAULT_LEASE_MS = 3000;
    public static final int DEFAULT_BUFFER_UNIT = 1_000_000;
    public static final int DEFAULT_BUFFER_SIZE = 200_000;
    public static final int MAX_PARALLELISM = 256;

    /**
     * How the node buffers records: the strategy (null: the best the store allows,
     * {@link io.tell.txn.TransactionManager#useBestBuffering}), records per cache unit, and the
     * shared buffer's bound.
     */
    public record Buffer(io.tell.txn.Buffering mode, int unitSize, int capacity) {
        static Buffer defaults(boolean embedded) {
            return new Buffer(embedded ? io.tell.txn.Buffering.TRANSACTION : null, DEFAULT_BUFFER_UNIT, DEFAULT_BUFFER_SIZE);
        }

        /** This with {@code option} applied; null when it is not a buffer option. */
        Buffer with(String url, String option) {
            if (option.startsWith("buffer=")) {
                try {
                    return new Buffer(io.tell.txn.Buffering.ofOption(option.substring(7)), unitSize, capacity);
                } catch (IllegalArgumentException e) {
                    throw bad(url, e.getMessage());
                }
            } else if (option.startsWith("bufferUnit=")) {
                return new Buffer(mode, positive(url, option, 1_000_000), capacity);
            } else if (option.startsWith("bufferSize=")) {
                return new Buffer(mode, unitSize, positive(url, option, 100_000_000));
            }
            return null;
        }

        private static int positive(String url, String option, int max) {
            String value = option.substring(option.indexOf('=') + 1);
            try {
                int n = Integer.parseInt(value);
                if (n >= 1 && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw bad(url, option.substring(0, option.indexOf('=')) + " must be a number from 1 to " + max + ": " + value);
        }
    }

    public static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    public static TellUrl parse(String url) {
        if (!accepts(url)) {
            throw bad(url, "a Tell URL starts with " + PREFIX);
        }
        String rest = url.substring(PREFIX.length());
        if (rest.startsWith("mem:")) {
            int q = rest.indexOf('?');
            boolean gc = false;
            int parallelism = 1;
            Buffer buffer = Buffer.defaults(true);
            if (q >= 0) {
                for (String option : rest.substring(q + 1).split("&")) {
                    Buffer b = buffer.with(url, option);
                    if (b != null) {
                        buffer = b;
                    } else if (option.startsWith("parallelism=")) {
                        parallelism = Buffer.positive(url, option, MAX_PARALLELISM);
                    } else if (!option.isEmpty()) {
                        gc = gcOption(url, option);
                    }
                }
                rest = rest.substring(0, q);
            }
            String name = rest.substring(4);
            if (!name.isEmpty() && !name.matches("[A-Za-z0-9_.-]{1,100}")) {
                throw bad(url, "the database name after mem: takes 1-100 of [A-Za-z0-9_.-]");
            }
            return new TellUrl(url, rest, null, true, !name.isEmpty(), gc, 0, null, null, buffer, parallelism);
        }
        String scheme = rest.startsWith("redis://") ? "redis://" : rest.startsWith("rediss://") ? "rediss://" : null;
        if (scheme != null) {
            int q = rest.indexOf('?');
            String hosts = q < 0 ? rest : rest.substring(0, q);
            List<String> storeOptions = new ArrayList<>();
            String cm = null;
            String cmSecretFile = null;
            String cmTlsCa = null;
            boolean gc = false;
            int leaseMs = DEFAULT_LEASE_MS;
            int parallelism = 1;
            Buffer buffer = Buffer.defaults(false);
            if (q >= 0) {
                for (String option : rest.substring(q + 1).split("&")) {
                    Buffer b = buffer.with(url, option);
                    if (b != null) {
                        buffer = b;
                    } else if (option.startsWith("cm=")) {
                        cm = option.substring(3);
                    } else if (option.startsWith("cmSecretFile=")) {
                        cmSecretFile = option.substring("cmSecretFile=".length());
                    } else if (option.startsWith("cmTlsCa=")) {
                        cmTlsCa = option.substring("cmTlsCa=".length());
                    } else if (option.startsWith("gc=")) {
                        gc = gcOption(url, option);
                    } else if (option.startsWith("parallelism=")) {
                        parallelism = Buffer.positive(url, option, MAX_PARALLELISM);
                    } else if (option.startsWith("leaseMs=")) {
                        leaseMs = leaseOption(url, option.substring(8));
                    } else if (!option.isEmpty()) {
                        storeOptions.add(option);
                    }
                }
            }
            if (hosts.length() <= scheme.length()) {
                throw bad(url, scheme + " needs host:port[,host:port…]");
            }
            if (cmSecretFile != null && cmSecretFile.isEmpty()) {
                throw bad(url, "cmSecretFile needs the path of the cluster secret file");
            }
            if (cmTlsCa != null && cmTlsCa.isEmpty()) {
                throw bad(url, "cmTlsCa needs the path of the CA (PEM) that signed the commit managers' certificates");
            }
            if (cm == null || cm.isBlank()) {
                throw bad(url, "a Redis URL needs the commit manager(s): ?cm=host:port[,host:port…] (start one with ./tell commitmgr)");
            }
            String store = storeOptions.isEmpty() ? hosts : hosts + "?" + String.join("&", storeOptions);
            return new TellUrl(url, store, cm, false, true, gc, leaseMs, cmSecretFile, cmTlsCa, buffer, parallelism);
        }
        throw bad(url, "expected jdbc:tell:mem:[NAME] or jdbc:tell:redis[s]://host:port?cm=host:port");
    }

    /**
     * What connections sharing one node agree on: for an embedded database its store (one
     * commit manager per store, whatever the options), otherwise the whole URL. The first
     * connection's options decide for the node.
     */
    public String nodeKey() {
        return embedded ? storeUrl : text;
    }

    private static boolean gcOption(String url, String option) {
        return switch (option) {
            case "gc=on" -> true;
            case "gc=off" -> false;
            default -> throw bad(url, "unknown option " + option + " (an embedded URL takes gc=on|off, buffer, bufferUnit, bufferSize, parallelism)");
        };
    }

    private static int leaseOption(String url, String value) {
        try {
            int ms = Integer.parseInt(value);
            if (ms >= 100 && ms <= 600_000) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(url, "leaseMs must be a number of milliseconds from 100 to 600000: " + value);
    }

    @Override
    public String toString() {
        return StoreUrl.redact(text);
    }

    private static TellException bad(String url, String why) {
        return TellException.of(ErrorCode.BAD_CONFIGURATION, "bad Tell URL '" + StoreUrl.redact(url) + "': " + why);
    }
}
