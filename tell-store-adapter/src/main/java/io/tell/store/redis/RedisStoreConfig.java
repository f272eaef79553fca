package io.tell.store.redis;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.StoreUrl;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The settings of a redis store, parsed once from its URL:
 * {@code redis[s]://[[user]:password@]host:port[,host:port...][?cluster=true|false&replicas=N&timeoutMs=T&tlsCa=PATH&client=direct|lettuce]}.
 *
 * @param hosts    the servers (cluster: seed nodes)
 * @param cluster  Redis Cluster rather than one standalone server; defaults to true with more than one host
 * @param replicas how many replicas must have a write (via WAIT) before it is acknowledged; 0 = none
 * @param timeout  how long a call may take before it fails with STORE_TIMEOUT
 * @param login    the user and password to authenticate with (every node alike), or null for none
 * @param tls      {@code rediss://}: connect over TLS, verifying the server's certificate and host name
 * @param tlsCa    a PEM file of the certificates to trust instead of the JVM's default trust store, or null
 * @param direct   reads and writes over blocking sockets on the caller's thread ({@link DirectClient}); the
 *                 default for one standalone server over plain TCP, {@code client=lettuce} turns it off
 */
record RedisStoreConfig(List<Address> hosts, boolean cluster, int replicas, Duration timeout, Login login, boolean tls,
                        String tlsCa, boolean direct) {
    static final int DEFAULT_PORT = 6379;
    static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(2000);
    private static final Set<String> OPTIONS = Set.of("cluster", "replicas", "timeoutMs", "tlsCa", "client");

    /**
     * Redis credentials: {@code AUTH password} ({@code requirepass}, user null) or
     * {@code AUTH user password} (an ACL user). Never printed: {@link #toString()} hides the password.
     */
    record Login(String user, String password) {
        @Override
        public String toString() {
            return (user == null ? "" : user) + ":***";
        }
    }

    /** A host and port. */
    record Address(String host, int port) {
        @Override
        public String toString() {
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
        }
    }

    RedisStoreConfig {
        hosts = List.copyOf(hosts);
    }

    static RedisStoreConfig parse(StoreUrl url) {
        boolean tls = "rediss".equals(url.scheme());
        if (!tls && !"redis".equals(url.scheme())) {
            throw bad("not a redis URL", url);
        }
        for (String option : url.options().keySet()) {
            if (!OPTIONS.contains(option)) {
                throw bad("unknown option '" + option + "' (known: cluster, replicas, timeoutMs, tlsCa, client)", url);
            }
        }
        String tlsCa = url.options().get("tlsCa");
        if (tlsCa != null && (!tls || tlsCa.isEmpty())) {
            throw bad("option tlsCa (a PEM file of trusted certificates) needs a rediss:// URL and a path", url);
        }
        // Hosts never contain '@', so the last one ends the user part (a password may hold '@').
        String body = url.body();
        int at = body.lastIndexOf('@');
        Login login = at < 0 ? null : parseLogin(body.substring(0, at), url);
        List<Address> hosts = parseHosts(body.substring(at + 1), url);
        boolean cluster = switch (url.option("cluster", hosts.size() > 1 ? "true" : "false")) {
            case "true" -> true;
            case "false" -> false;
            default -> throw bad("option cluster must be true or false", url);
        };
        if (!cluster && hosts.size() > 1) {
            throw bad("a standalone redis store takes exactly one host:port (use cluster=true for Redis Cluster)", url);
        }
        int replicas = url.intOption("replicas", 0);
        if (replicas < 0 || replicas > 100) {
            throw bad("option replicas must be between 0 and 100, got " + replicas, url);
        }
        int timeoutMs = url.intOption("timeoutMs", (int) DEFAULT_TIMEOUT.toMillis());
        if (timeoutMs < 10 || timeoutMs > 600_000) {
            throw bad("option timeoutMs must be between 10 and 600000, got " + timeoutMs, url);
        }
        String client = url.options().getOrDefault("client", cluster || tls ? "lettuce" : "direct");
        if (!client.equals("direct") && !client.equals("lettuce")) {
            throw bad("option client must be direct or lettuce, got " + client, url);
        }
        if (client.equals("direct") && (cluster || tls)) {
            throw bad("client=direct needs one standalone server over plain TCP (a cluster or TLS goes through Lettuce)", url);
        }
        return new RedisStoreConfig(hosts, cluster, replicas, Duration.ofMillis(timeoutMs), login, tls, tlsCa,
                client.equals("direct"));
    }

    /** How long WAIT may block on the server: half the call timeout, so its answer arrives before the call times out. */
    Duration waitTimeout() {
        return Duration.ofMillis(Math.max(1, timeout.toMillis() / 2));
    }

    /** The canonical URL, for {@code describe()} and messages; a password shows as {@code ***}. */
    String describe() {
        StringBuilder sb = new StringBuilder(tls ? "rediss://" : "redis://");
        if (login != null) {
            sb.append(login).append('@');
        }
        sb.append(hosts.stream().map(Address::toString).collect(Collectors.joining(",")));
        List<String> options = new ArrayList<>();
        if (cluster != hosts.size() > 1) {
            options.add("cluster=" + cluster);
        }
        if (replicas > 0) {
            options.add("replicas=" + replicas);
        }
        if (!timeout.equals(DEFAULT_TIMEOUT)) {
            options.add("timeoutMs=" + timeout.toMillis());
        }
        if (tlsCa != null) {
            options.add("tlsCa=" + tlsCa);
        }
        if (!direct && !cluster && !tls) {
            options.add("client=lettuce");
        }
        if (!options.isEmpty()) {
            sb.append('?').append(String.join("&", options));
        }
        return sb.toString();
    }

    /** {@code [user]:password} or {@code user}, each percent-decoded (so a password may hold ':', '?', ',' …). */
    private static Login parseLogin(String userInfo, StoreUrl url) {
        int colon = userInfo.indexOf(':');
        if (colon < 0) {
            throw bad("a user without a password (want user:password@ or :password@)", url);
        }
        String user = decode(userInfo.substring(0, colon), url);
        String password = decode(userInfo.substring(colon + 1), url);
        if (password.isEmpty()) {
            throw bad("empty password", url);
        }
        return new Login(user.isEmpty() ? null : user, password);
    }

    private static String decode(String text, StoreUrl url) {
        try {
            // URLDecoder would also turn '+' into a space; a password may contain a plain '+'.
            return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw bad("bad %-escape in the user or password", url);
        }
    }

    private static List<Address> parseHosts(String body, StoreUrl url) {
        if (body.endsWith("/")) {
            body = body.substring(0, body.length() - 1);
        }
        if (body.isEmpty()) {
            throw bad("no host given (want redis://host:port)", url);
        }
        List<Address> hosts = new ArrayList<>();
        for (String part : body.split(",", -1)) {
            hosts.add(parseAddress(part.trim(), url));
        }
        return hosts;
    }

    private static Address parseAddress(String text, StoreUrl url) {
        String host;
        String port = null;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                throw bad("unclosed '[' in host '" + text + "'", url);
            }
            host = text.substring(1, close);
            String rest = text.substring(close + 1);
            if (rest.startsWith(":")) {
                port = rest.substring(1);
            } else if (!rest.isEmpty()) {
                throw bad("bad host '" + text + "'", url);
            }
        } else {
            int colon = text.lastIndexOf(':');
            host = colon < 0 ? text : text.substring(0, colon);
            port = colon < 0 ? null : text.substring(colon + 1);
        }
        if (host.isEmpty() || host.contains("/") || host.contains("@")) {
            throw bad("bad host '" + text + "' (want host:port)", url);
        }
        if (port == null) {
            return new Address(host, DEFAULT_PORT);
        }
        try {
            int p = Integer.parseInt(port);
            if (p < 1 || p > 65535) {
                throw bad("port out of range in '" + text + "'", url);
            }
            return new Address(host, p);
        } catch (NumberFormatException e) {
            throw bad("port is not a number in '" + text + "'", url);
        }
    }

    private static TellException bad(String message, StoreUrl url) {
        return TellException.of(ErrorCode.BAD_CONFIGURATION, "bad redis store URL: " + message + ": " + url);
    }
}
